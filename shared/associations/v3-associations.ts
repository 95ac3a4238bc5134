import type { BatchResponse } from '../base/batch-results';
import type { Actor } from '../records/record-values';
import {
  customTypeByName,
  listAssociationTypesBetween,
  resolveAssociationType,
} from '../association-types/association-labels';
import {
  addPairTypes,
  batchReadAssociations,
  removePairTypes,
  typeResolver,
  type InputTypesOf,
  type PairEnds,
  type ResolvedType,
  type ReadInput,
  type WriteBudget,
} from './batch-associations';
import { requirePair, typeCatalog, type Pair } from './record-associations';

/**
 * The v3 associations API (`/crm/v3/associations/{from}/{to}/…`, the SDK's
 * `crm.associations.batchApi` and `crm.associations.schema.typesApi`): the v4 batches with a type
 * named by its v3 name (`contact_to_company`, `deal_to_contact`, a custom label's name) or its id
 * as a string, and answers that name types instead of listing labels.
 */

/** An input of the v3 create and archive, and a result of the create (the SDK's PublicAssociation). */
export interface V3PairInput extends PairEnds {
  type: string;
}

/** A result of the v3 read (PublicAssociationMulti): one `to` entry per type between the two records. */
export interface V3AssociationsOfRecord {
  from: { id: string };
  to: { id: string; type: string }[];
  paging?: { next: { after: string; link?: string } };
}

/** A type of the v3 types listing (PublicAssociationDefinition): its id as a string and its v3 name. */
export interface V3AssociationType {
  id: string;
  name: string;
}

/**
 * Each input's `type`: a type id as a string, a standard type's v3 name (any case), or the name of
 * a live custom label between the two types (their list read at most once per request).
 */
const v3TypesOf =
  (hubId: number): InputTypesOf<V3PairInput> =>
  (pair) => {
    const findCustomByName = customTypeByName(hubId, pair.from, pair.to);
    const resolve = typeResolver(
      hubId,
      pair,
      (token: string) => token,
      (token) => resolveAssociationType(hubId, pair.from, pair.to, token, findCustomByName),
    );
    return async (input) => [await resolve(input.type)];
  };

/** A v3 create's result: the pair and the type it added, by its v3 name (also when the input gave its id). */
const namedPair = (_pair: Pair, input: V3PairInput, [type]: readonly ResolvedType[]): V3PairInput => ({
  from: { id: input.from.id },
  to: { id: input.to.id },
  type: type?.sent.name ?? input.type,
});

/**
 * POST /crm/v3/associations/{from}/{to}/batch/create: adds the named type to each pair, keeping the
 * others (the v4 batch create). Each result names the type it added by its v3 name; refused inputs
 * (a missing record, a type that does not fit the pair) are in `errors`.
 */
export function batchCreateV3Associations(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly V3PairInput[],
  budget: WriteBudget = {},
): Promise<BatchResponse<V3PairInput>> {
  return addPairTypes(actor, fromToken, toToken, inputs, v3TypesOf(actor.hubId), namedPair, budget);
}

/**
 * POST /crm/v3/associations/{from}/{to}/batch/read: the v4 batch read, each associated record
 * listed once per type with the type's v3 name as seen from `from`, ids as strings. Custom labels'
 * names cost one or two more Queries, only when a page holds one.
 */
export async function batchReadV3Associations(
  hubId: number,
  fromToken: string,
  toToken: string,
  inputs: readonly ReadInput[],
): Promise<BatchResponse<V3AssociationsOfRecord>> {
  const read = await batchReadAssociations(hubId, fromToken, toToken, inputs);
  const typeIds = read.results.flatMap((result) =>
    result.to.flatMap((entry) => entry.associationTypes.map((type) => type.typeId)),
  );
  const pair = requirePair(fromToken, toToken);
  const lookup = await typeCatalog(hubId, pair.from, pair.to, typeIds);
  return {
    ...read,
    results: read.results.map(({ from: record, to, paging }) => ({
      from: record,
      to: to.flatMap((entry) =>
        entry.associationTypes.flatMap((view) => {
          const name = lookup(pair.from.id, view.typeId)?.name;
          return name === undefined ? [] : [{ id: String(entry.toObjectId), type: name }];
        }),
      ),
      ...(paging ? { paging } : {}),
    })),
  };
}

/**
 * POST /crm/v3/associations/{from}/{to}/batch/archive: removes the named type from each pair (the
 * v4 labels archive): a primary type leaves the unlabeled one, the unlabeled type removes the pair.
 */
export function batchArchiveV3Associations(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly V3PairInput[],
  budget: WriteBudget = {},
): Promise<void> {
  return removePairTypes(actor, fromToken, toToken, inputs, v3TypesOf(actor.hubId), budget);
}

/** GET /crm/v3/associations/{from}/{to}/types: the pair's standard types and live custom labels, seen from `from`. */
export async function listV3AssociationTypes(
  hubId: number,
  fromToken: string,
  toToken: string,
): Promise<V3AssociationType[]> {
  return (await listAssociationTypesBetween(hubId, fromToken, toToken)).map((type) => ({
    id: String(type.typeId),
    name: type.name,
  }));
}
