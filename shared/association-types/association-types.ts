import type { AssociationType } from '../db/association-labels';
import type { ObjectType } from '../objects/object-types';

// The type's record is declared where it is stored; the standard types below share its shape.
export type { AssociationCategory, AssociationType } from '../db/association-labels';

/** The singular names in HubSpot's type names (`contact_to_company`), by object type id. */
const singularOf: Readonly<Record<string, string>> = {
  '0-1': 'contact',
  '0-2': 'company',
  '0-3': 'deal',
  '0-5': 'ticket',
  '0-48': 'call',
  '0-49': 'email',
  '0-47': 'meeting',
  '0-46': 'note',
  '0-27': 'task',
  '0-7': 'product',
  '0-8': 'line_item',
};

/** One direction of a HubSpot-defined type and the other direction's id and name. */
function standardType(
  from: string,
  to: string,
  [typeId, name, label]: readonly [number, string, string | null],
  [inverseTypeId, inverseName]: readonly [number, string, string | null],
  impliesTypeId?: number,
): AssociationType {
  return {
    typeId,
    category: 'HUBSPOT_DEFINED',
    fromObjectTypeId: from,
    toObjectTypeId: to,
    name,
    label,
    inverseTypeId,
    inverseName,
    ...(impliesTypeId === undefined ? {} : { impliesTypeId }),
  };
}

/**
 * The HubSpot-defined types between two object types, both directions: the unlabeled pair
 * (`[from -> to id, to -> from id]`) and, where the pair has one, the Primary pair, which implies
 * the unlabeled one. Names follow HubSpot's v3 names: `<from>_to_<to>`, and `_unlabeled` on the
 * unlabeled type of a pair that has a Primary (`contact_to_company_unlabeled`, 279).
 */
function standardPair(
  from: string,
  to: string,
  [forwardId, backwardId]: readonly [number, number],
  primary?: readonly [number, number],
): AssociationType[] {
  const forwardName = `${singularOf[from]}_to_${singularOf[to]}`;
  const backwardName = `${singularOf[to]}_to_${singularOf[from]}`;
  const suffix = primary ? '_unlabeled' : '';
  const forward = [forwardId, `${forwardName}${suffix}`, null] as const;
  const backward = [backwardId, `${backwardName}${suffix}`, null] as const;
  const types = [standardType(from, to, forward, backward), standardType(to, from, backward, forward)];
  if (!primary) return types;
  const primaryForward = [primary[0], forwardName, 'Primary'] as const;
  const primaryBackward = [primary[1], backwardName, 'Primary'] as const;
  return [
    ...types,
    standardType(from, to, primaryForward, primaryBackward, forwardId),
    standardType(to, from, primaryBackward, primaryForward, backwardId),
  ];
}

/** An unlabeled type between two records of one type: one id, its own inverse. */
function sameType(typeId: number, objectTypeId: string): AssociationType {
  const name = `${singularOf[objectTypeId]}_to_${singularOf[objectTypeId]}`;
  return standardType(objectTypeId, objectTypeId, [typeId, name, null], [typeId, name, null]);
}

/** A record type's unlabeled types to the five activities, as `[to activity, from activity]` ids: call, email, meeting, note, task. */
function toActivities(from: string, ids: readonly (readonly [number, number])[]): AssociationType[] {
  return ['0-48', '0-49', '0-47', '0-46', '0-27'].flatMap((activity, index) =>
    standardPair(from, activity, ids[index] ?? [0, 0]),
  );
}

/**
 * HubSpot-defined association types between contacts (0-1), companies (0-2), deals (0-3), tickets
 * (0-5) and from them to the activities, with HubSpot's type ids (reference: the wire facts' tables
 * 7.1 and 7.2; HubSpot's guide:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide). A primary type
 * implies its pair's unlabeled type.
 */
export const standardAssociationTypes: readonly AssociationType[] = [
  sameType(450, '0-2'),
  standardType(
    '0-2',
    '0-2',
    [13, 'parent_to_child_company', 'Parent to child company'],
    [14, 'child_to_parent_company', null],
  ),
  standardType(
    '0-2',
    '0-2',
    [14, 'child_to_parent_company', 'Child to parent company'],
    [13, 'parent_to_child_company', null],
  ),
  ...standardPair('0-2', '0-1', [280, 279], [2, 1]),
  ...standardPair('0-2', '0-3', [342, 341], [6, 5]),
  ...standardPair('0-2', '0-5', [340, 339], [25, 26]),
  ...toActivities('0-2', [
    [181, 182],
    [185, 186],
    [187, 188],
    [189, 190],
    [191, 192],
  ]),
  ...standardPair('0-1', '0-3', [4, 3]),
  ...standardPair('0-1', '0-5', [15, 16]),
  ...standardPair('0-3', '0-5', [27, 28]),
  sameType(449, '0-1'),
  sameType(451, '0-3'),
  sameType(452, '0-5'),
  ...toActivities('0-1', [
    [193, 194],
    [197, 198],
    [199, 200],
    [201, 202],
    [203, 204],
  ]),
  ...toActivities('0-3', [
    [205, 206],
    [209, 210],
    [211, 212],
    [213, 214],
    [215, 216],
  ]),
  ...toActivities('0-5', [
    [219, 220],
    [223, 224],
    [225, 226],
    [227, 228],
    [229, 230],
  ]),
  // A deal's line items (the line-item guide: line item to deal 20); products have no associations of their own.
  ...standardPair('0-3', '0-8', [19, 20]),
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
  return (
    standardTypesBetween(from, to).find((type) => type.label === null && type.impliesTypeId === undefined) ??
    // A custom type's pairs: the first definition its schema holds for the pair (USER_DEFINED, unlabeled).
    [...(from.associationTypes ?? []), ...(to.associationTypes ?? [])].find(
      (type) => type.fromObjectTypeId === from.id && type.toObjectTypeId === to.id && type.label === null,
    )
  );
}
