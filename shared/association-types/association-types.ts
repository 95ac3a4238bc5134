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

/** An unlabeled type between two records of one type: one id, its own inverse. */
function sameType(typeId: number, objectTypeId: string, name: string): AssociationType {
  return {
    typeId,
    category: 'HUBSPOT_DEFINED',
    fromObjectTypeId: objectTypeId,
    toObjectTypeId: objectTypeId,
    name,
    label: null,
    inverseTypeId: typeId,
    inverseName: name,
  };
}

/** A record type's unlabeled types to the five activities: [call, email, meeting, note, task] as [to, from] id pairs. */
function toActivities(from: string, singular: string, ids: readonly (readonly [number, number])[]): AssociationType[] {
  const activities = [
    ['0-48', 'call'],
    ['0-49', 'email'],
    ['0-47', 'meeting'],
    ['0-46', 'note'],
    ['0-27', 'task'],
  ] as const;
  return activities.flatMap(([activityId, activity], index) => {
    const [forward, backward] = ids[index] ?? [0, 0];
    return pair(
      from,
      activityId,
      [forward, `${singular}_to_${activity}`, null],
      [backward, `${activity}_to_${singular}`, null],
    );
  });
}

/**
 * HubSpot-defined association types between contacts (0-1), companies (0-2), deals (0-3), tickets
 * (0-5) and from them to the activities, with HubSpot's type ids (reference: the wire facts' tables
 * 7.1 and 7.2; HubSpot's guide:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide). A primary type
 * implies its pair's unlabeled type.
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
  ...pair('0-1', '0-3', [4, 'contact_to_deal', null], [3, 'deal_to_contact', null]),
  ...pair('0-1', '0-5', [15, 'contact_to_ticket', null], [16, 'ticket_to_contact', null]),
  ...pair('0-3', '0-5', [27, 'deal_to_ticket', null], [28, 'ticket_to_deal', null]),
  sameType(449, '0-1', 'contact_to_contact'),
  sameType(451, '0-3', 'deal_to_deal'),
  sameType(452, '0-5', 'ticket_to_ticket'),
  ...toActivities('0-1', 'contact', [
    [193, 194],
    [197, 198],
    [199, 200],
    [201, 202],
    [203, 204],
  ]),
  ...toActivities('0-3', 'deal', [
    [205, 206],
    [209, 210],
    [211, 212],
    [213, 214],
    [215, 216],
  ]),
  ...toActivities('0-5', 'ticket', [
    [219, 220],
    [223, 224],
    [225, 226],
    [227, 228],
    [229, 230],
  ]),
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
