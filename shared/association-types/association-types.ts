import { standardTypeAssociations, standardTypes } from '#standard-types';
import type { AssociationType } from '../db/association-labels';
import type { ObjectType } from '../objects/object-types';
import type { TypeAssociations } from '../objects/standard-type';

// The type's record is declared where it is stored; the standard types below share its shape.
export type { AssociationCategory, AssociationType } from '../db/association-labels';

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
  [from, fromSingular]: readonly [string, string],
  [to, toSingular]: readonly [string, string],
  [forwardId, backwardId]: readonly [number, number],
  primary?: readonly [number, number],
): AssociationType[] {
  const forwardName = `${fromSingular}_to_${toSingular}`;
  const backwardName = `${toSingular}_to_${fromSingular}`;
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

/**
 * The HubSpot-defined association types the types' modules state (TypeAssociations), both
 * directions, named from the singular names of `types` by id. A primary type implies its pair's
 * unlabeled type.
 */
export function associationTypesOf(
  types: readonly Pick<ObjectType, 'id' | 'singular'>[],
  owned: readonly TypeAssociations[],
): AssociationType[] {
  const singularOf = new Map(types.map((type) => [type.id, type.singular]));
  const end = (id: string): readonly [string, string] => {
    const singular = singularOf.get(id);
    if (singular === undefined) throw new Error(`no standard type ${id} to associate with`);
    return [id, singular];
  };
  return owned.flatMap(({ type, toSelf, labeledToSelf = [], pairs }) => {
    const self = end(type.id);
    const selfName = `${self[1]}_to_${self[1]}`;
    return [
      ...(toSelf === undefined
        ? []
        : [standardType(type.id, type.id, [toSelf, selfName, null], [toSelf, selfName, null])]),
      ...labeledToSelf.map((labeled) => {
        const inverseName = labeledToSelf.find((other) => other.typeId === labeled.inverseTypeId)?.name ?? labeled.name;
        return standardType(
          type.id,
          type.id,
          [labeled.typeId, labeled.name, labeled.label],
          [labeled.inverseTypeId, inverseName, null],
        );
      }),
      ...pairs.flatMap((pair) => standardPair(self, end(pair.to), pair.ids, pair.primary)),
    ];
  });
}

/**
 * HubSpot-defined association types between the standard types, with HubSpot's type ids (reference:
 * the wire facts' tables 7.1 and 7.2; HubSpot's guide:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide), as each type's
 * module states those it owns (shared/objects/types/).
 */
export const standardAssociationTypes: readonly AssociationType[] = associationTypesOf(
  standardTypes,
  standardTypeAssociations,
);

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
