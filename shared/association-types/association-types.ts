import type { AssociationType } from '../db/association-labels';
import type { ObjectType } from '../objects/object-types';

// The type's record is declared where it is stored; the standard types below share its shape.
export type { AssociationCategory, AssociationType } from '../db/association-labels';

function pair(
  from: string,
  to: string,
  forward: [number, string, string | null],
  backward: [number, string, string | null],
  implies?: [number, number],
): AssociationType[] {
  return [
    {
      typeId: forward[0],
      category: 'HUBSPOT_DEFINED',
      fromObjectTypeId: from,
      toObjectTypeId: to,
      name: forward[1],
      label: forward[2],
      inverseTypeId: backward[0],
      inverseName: backward[1],
      ...(implies ? { impliesTypeId: implies[0] } : {}),
    },
    {
      typeId: backward[0],
      category: 'HUBSPOT_DEFINED',
      fromObjectTypeId: to,
      toObjectTypeId: from,
      name: backward[1],
      label: backward[2],
      inverseTypeId: forward[0],
      inverseName: forward[1],
      ...(implies ? { impliesTypeId: implies[1] } : {}),
    },
  ];
}

/**
 * HubSpot-defined association types involving companies, with HubSpot's type ids:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide
 */
export const standardAssociationTypes: readonly AssociationType[] = [
  {
    typeId: 450,
    category: 'HUBSPOT_DEFINED',
    fromObjectTypeId: '0-2',
    toObjectTypeId: '0-2',
    name: 'company_to_company',
    label: null,
    inverseTypeId: 450,
    inverseName: 'company_to_company',
  },
  {
    typeId: 13,
    category: 'HUBSPOT_DEFINED',
    fromObjectTypeId: '0-2',
    toObjectTypeId: '0-2',
    name: 'parent_to_child_company',
    label: 'Parent to child company',
    inverseTypeId: 14,
    inverseName: 'child_to_parent_company',
  },
  {
    typeId: 14,
    category: 'HUBSPOT_DEFINED',
    fromObjectTypeId: '0-2',
    toObjectTypeId: '0-2',
    name: 'child_to_parent_company',
    label: 'Child to parent company',
    inverseTypeId: 13,
    inverseName: 'parent_to_child_company',
  },
  ...pair('0-2', '0-1', [280, 'company_to_contact_unlabeled', null], [279, 'contact_to_company_unlabeled', null]),
  ...pair('0-2', '0-1', [2, 'company_to_contact', 'Primary'], [1, 'contact_to_company', 'Primary'], [280, 279]),
  ...pair('0-2', '0-3', [342, 'company_to_deal_unlabeled', null], [341, 'deal_to_company_unlabeled', null]),
  ...pair('0-2', '0-3', [6, 'company_to_deal', 'Primary'], [5, 'deal_to_company', 'Primary'], [342, 341]),
  ...pair('0-2', '0-5', [340, 'company_to_ticket_unlabeled', null], [339, 'ticket_to_company_unlabeled', null]),
  ...pair('0-2', '0-5', [25, 'company_to_ticket', 'Primary'], [26, 'ticket_to_company', 'Primary'], [340, 339]),
  ...pair('0-2', '0-48', [181, 'company_to_call', null], [182, 'call_to_company', null]),
  ...pair('0-2', '0-49', [185, 'company_to_email', null], [186, 'email_to_company', null]),
  ...pair('0-2', '0-47', [187, 'company_to_meeting', null], [188, 'meeting_to_company', null]),
  ...pair('0-2', '0-46', [189, 'company_to_note', null], [190, 'note_to_company', null]),
  ...pair('0-2', '0-27', [191, 'company_to_task', null], [192, 'task_to_company', null]),
];

/** The standard types from one object type to another. */
export function standardTypesBetween(from: ObjectType, to: ObjectType): AssociationType[] {
  return standardAssociationTypes.filter((type) => type.fromObjectTypeId === from.id && type.toObjectTypeId === to.id);
}

/** Standard types from an object type with this id (ids are unique per direction). */
export function findStandardTypeFrom(fromObjectTypeId: string, typeId: number): AssociationType | undefined {
  return standardAssociationTypes.find((type) => type.fromObjectTypeId === fromObjectTypeId && type.typeId === typeId);
}

/** The historical v3 path form names the type instead of giving its id. */
export function findStandardTypeByName(from: ObjectType, to: ObjectType, name: string): AssociationType | undefined {
  return standardTypesBetween(from, to).find((type) => type.name === name.toLowerCase());
}

/** The unlabeled type of a pair: what a default association uses, and what a deleted label reads as. */
export function defaultTypeBetween(from: ObjectType, to: ObjectType): AssociationType | undefined {
  return standardTypesBetween(from, to).find((type) => type.label === null && type.impliesTypeId === undefined);
}
