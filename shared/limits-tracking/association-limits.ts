import {
  findAssociationLimitTotals,
  listAssociationLimitSamples,
  listAssociationLimitTotals,
  type AssociationLimitTotals,
} from '../db/association-limit-markers';
import { listPairLabelNames } from '../db/association-labels';
import { isCustomTypeToken } from '../objects/custom-object-types';
import { findObjectType, unknownObjectType } from '../objects/object-types';
import { percentageOf, reportedLimits } from './limit-values';
import {
  customTrackedTypes,
  requireTrackedType,
  standardTrackedTypes,
  type ObjectTypeDefinition,
  type TrackedType,
} from './tracked-types';

/** AssociationLabelLimitResponse: one object pair (one direction) and its custom labels. */
export interface AssociationLabelLimit {
  fromObjectType: ObjectTypeDefinition;
  toObjectType: ObjectTypeDefinition;
  allLabels: string[];
  limit: number;
  usage: number;
  percentage: number;
}

/** ObjectTypeNearOrAtAssociationLimit. */
export interface TypeNearOrAtAssociationLimit extends ObjectTypeDefinition {
  hasRecordsAtLimit: boolean;
  hasRecordsNearLimit: boolean;
}

/** AssociationRecordLimitResponse. */
export interface AssociationRecordLimits {
  limit: number;
  totalRecordsNearLimit: number;
  totalRecordsAtLimit: number;
  nearLimitFromRecordSamples: { objectId: number; label: string; usage: number; percentage: number }[];
  atLimitFromRecordSamples: { objectId: number; label: string }[];
}

/** The account's types: the standard ones, then its live custom ones (one Query of its schemas). */
async function accountTypes(hubId: number): Promise<TrackedType[]> {
  return [...standardTrackedTypes, ...(await customTrackedTypes(hubId))];
}

/** The types to find these tokens among: the standard ones alone (no read) when each names one. */
const typesToResolve = (
  hubId: number,
  tokens: readonly string[],
): Promise<readonly TrackedType[]> | readonly TrackedType[] =>
  tokens.every((token) => isStandardToken(token)) ? standardTrackedTypes : accountTypes(hubId);

const isStandardToken = (token: string): boolean => {
  const id = findObjectType(token)?.id;
  return standardTrackedTypes.some(({ type }) => type.id === id);
};

/** Refuses, before any read, a token that can name neither a standard type nor a custom one (400 naming `field`). */
function refuseImpossibleToken(token: string | undefined, field: string): void {
  if (token !== undefined && !isStandardToken(token) && !isCustomTypeToken(token.trim()))
    throw unknownObjectType(token, field);
}

/**
 * Custom association labels per object pair (`/crm/v3/limits/associations/labels`): each pair's names
 * item, whose condition holds the per-pair cap in every label create. Without filters, every pair that
 * holds a label; with `fromObjectTypeId`, that type's pairs; with both, that one pair (usage 0 when it
 * holds none). One Query of the schemas and one of the names items (the from type's alone when it
 * is given), side by side unless the from type is a custom one.
 */
export async function readAssociationLabelLimits(
  hubId: number,
  filter: { fromObjectTypeId?: string; toObjectTypeId?: string },
): Promise<{ results: AssociationLabelLimit[] }> {
  const fromToken = filter.fromObjectTypeId;
  refuseImpossibleToken(fromToken, 'fromObjectTypeId');
  refuseImpossibleToken(filter.toObjectTypeId, 'toObjectTypeId');
  // The from type's id is known without a read when it is a standard type: both Queries go at once.
  const knownFrom = fromToken !== undefined && isStandardToken(fromToken) ? findObjectType(fromToken)?.id : undefined;
  const [types, knownPairs] = await Promise.all([
    accountTypes(hubId),
    fromToken === undefined || knownFrom !== undefined ? listPairLabelNames(hubId, knownFrom) : undefined,
  ]);
  const from = fromToken === undefined ? undefined : requireTrackedType(hubId, types, fromToken, 'fromObjectTypeId');
  const to =
    filter.toObjectTypeId === undefined
      ? undefined
      : requireTrackedType(hubId, types, filter.toObjectTypeId, 'toObjectTypeId');
  const definitionOf = new Map(types.map(({ type, definition }) => [type.id, definition]));
  const pairs = (knownPairs ?? (await listPairLabelNames(hubId, from?.type.id))).filter(
    (pair) => to === undefined || pair.toObjectTypeId === to.type.id,
  );
  const limit = reportedLimits.labelsPerPair;
  const results = pairs.flatMap((pair): AssociationLabelLimit[] => {
    const fromObjectType = definitionOf.get(pair.fromObjectTypeId);
    const toObjectType = definitionOf.get(pair.toObjectTypeId);
    if (!fromObjectType || !toObjectType || pair.names.length === 0) return [];
    const usage = pair.names.length;
    return [
      { fromObjectType, toObjectType, allLabels: pair.names, limit, usage, percentage: percentageOf(usage, limit) },
    ];
  });
  if (from && to && results.length === 0)
    results.push({
      fromObjectType: from.definition,
      toObjectType: to.definition,
      allLabels: [],
      limit,
      usage: 0,
      percentage: 0,
    });
  return { results };
}

/** At most this many samples of each level in a pair's answer (the spec gives no figure). */
export const maxRecordSamples = 10;

/** The types of these totals' pairs that hold records near or at the limit, by `side`, in the account's type order. */
function typesWithRecords(
  types: readonly TrackedType[],
  totals: readonly AssociationLimitTotals[],
  side: 'fromObjectTypeId' | 'toObjectTypeId',
): TypeNearOrAtAssociationLimit[] {
  return types.flatMap(({ type, definition }): TypeNearOrAtAssociationLimit[] => {
    const own = totals.filter((pair) => pair[side] === type.id);
    const hasRecordsNearLimit = own.some((pair) => pair.nearLimit > 0);
    const hasRecordsAtLimit = own.some((pair) => pair.atLimit > 0);
    return hasRecordsNearLimit || hasRecordsAtLimit ? [{ ...definition, hasRecordsAtLimit, hasRecordsNearLimit }] : [];
  });
}

/**
 * Object types with records near or at their association limit (`.../associations/records/from`),
 * from the totals the stream consumer keeps (association-limit-tracker.ts; eventually consistent):
 * one Query of the totals items beside one Query of the schemas.
 */
export async function readTypesNearAssociationLimit(
  hubId: number,
): Promise<{ results: TypeNearOrAtAssociationLimit[] }> {
  const [types, totals] = await Promise.all([accountTypes(hubId), listAssociationLimitTotals(hubId)]);
  return { results: typesWithRecords(types, totals, 'fromObjectTypeId') };
}

/**
 * The types the records of `fromObjectTypeId` near or at their limit are associated with
 * (`.../records/{from}/to`): one Query of the from type's totals items beside one Query of the
 * schemas (after it when the from type is a custom one).
 */
export async function readTypesNearAssociationLimitFrom(
  hubId: number,
  fromObjectTypeId: string,
): Promise<{ results: TypeNearOrAtAssociationLimit[] }> {
  refuseImpossibleToken(fromObjectTypeId, 'fromObjectTypeId');
  // A standard from type's id is known without a read: both Queries go at once.
  const knownFrom = isStandardToken(fromObjectTypeId) ? findObjectType(fromObjectTypeId)?.id : undefined;
  const [types, knownTotals] = await Promise.all([
    accountTypes(hubId),
    knownFrom === undefined ? undefined : listAssociationLimitTotals(hubId, knownFrom),
  ]);
  const from = requireTrackedType(hubId, types, fromObjectTypeId, 'fromObjectTypeId');
  const totals = knownTotals ?? (await listAssociationLimitTotals(hubId, from.type.id));
  return { results: typesWithRecords(types, totals, 'toObjectTypeId') };
}

/**
 * The association limit of one pair's records (`.../records/{from}/{to}`): maxAssociationsPerRecord
 * keys a record, whatever the types at the other end; the records near (not at) and at it, counted
 * and sampled (up to maxRecordSamples each, in record id order) from the stream consumer's markers.
 * The types are checked (one Query of the schemas when one names a custom type), then one GetItem of
 * the totals and one Query per level, side by side.
 */
export async function readAssociationRecordLimits(
  hubId: number,
  fromObjectTypeId: string,
  toObjectTypeId: string,
): Promise<AssociationRecordLimits> {
  refuseImpossibleToken(fromObjectTypeId, 'fromObjectTypeId');
  refuseImpossibleToken(toObjectTypeId, 'toObjectTypeId');
  const types = await typesToResolve(hubId, [fromObjectTypeId, toObjectTypeId]);
  const from = requireTrackedType(hubId, types, fromObjectTypeId, 'fromObjectTypeId').type.id;
  const to = requireTrackedType(hubId, types, toObjectTypeId, 'toObjectTypeId').type.id;
  const limit = reportedLimits.associationsPerRecord;
  const [totals, near, at] = await Promise.all([
    findAssociationLimitTotals(hubId, from, to),
    listAssociationLimitSamples(hubId, from, to, 'NEAR', maxRecordSamples),
    listAssociationLimitSamples(hubId, from, to, 'AT', maxRecordSamples),
  ]);
  return {
    limit,
    totalRecordsNearLimit: totals.nearLimit,
    totalRecordsAtLimit: totals.atLimit,
    nearLimitFromRecordSamples: near.map((sample) => ({
      objectId: Number(sample.recordId),
      label: sample.label,
      usage: sample.usage,
      percentage: percentageOf(sample.usage, limit),
    })),
    atLimitFromRecordSamples: at.map((sample) => ({ objectId: Number(sample.recordId), label: sample.label })),
  };
}
