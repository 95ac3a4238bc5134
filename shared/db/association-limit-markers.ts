import { tableName } from './client';
import {
  batchGetAll,
  getItem,
  numberAttribute,
  queryAll,
  queryPage,
  stringAttribute,
  transact,
  type Item,
} from './core';
import type { TransactItem } from './core';
import {
  associationLimitMarkerKey,
  associationLimitMarkerPrefix,
  associationLimitPartition,
  associationLimitTotalsKey,
  associationLimitTotalsPrefix,
  type AssociationLimitLevel,
} from './keys';

/** Where a record stands against its association limit toward one to-type. */
export interface AssociationLimitMark {
  level: AssociationLimitLevel;
  /** Distinct records of the to-type it is associated with. */
  usage: number;
  /** The record's primary display property's value, or its id. */
  label: string;
}

/** One record and one to-type: the marker addresses it. */
export interface MarkedRecord {
  hubId: number;
  fromObjectTypeId: string;
  toObjectTypeId: string;
  recordId: string;
}

/** How many records of one type pair are near (not at) and at the limit. */
export interface AssociationLimitTotals {
  fromObjectTypeId: string;
  toObjectTypeId: string;
  nearLimit: number;
  atLimit: number;
}

/** A marker as a sample answer reads it. */
export interface MarkedSample {
  recordId: string;
  usage: number;
  label: string;
}

const levels: readonly AssociationLimitLevel[] = ['NEAR', 'AT'];
const markerKey = (record: MarkedRecord, level: AssociationLimitLevel) =>
  associationLimitMarkerKey(record.hubId, record.fromObjectTypeId, record.toObjectTypeId, level, record.recordId);

/** The record's marker (at most one of its two possible keys holds one): one BatchGetItem of 2 keys. */
export async function findAssociationLimitMark(record: MarkedRecord): Promise<AssociationLimitMark | undefined> {
  const items = await batchGetAll(levels.map((level) => markerKey(record, level)));
  const item = items[0];
  if (!item) return undefined;
  const level = levels.find((candidate) => item.sk === markerKey(record, candidate).sk);
  return level
    ? { level, usage: numberAttribute(item, 'usage') ?? 0, label: stringAttribute(item, 'label') ?? '' }
    : undefined;
}

/**
 * Moves the record's marker from `current` (as read) to `next` (undefined: no marker), with the pair's
 * totals in the same transaction. Every write is conditioned on the marker read, so the totals move
 * exactly once per change of level, however often the stream hands the same change out: 'stale' when
 * the markers changed since they were read (the caller reads again).
 */
export async function moveAssociationLimitMark(
  record: MarkedRecord,
  current: AssociationLimitMark | undefined,
  next: AssociationLimitMark | undefined,
): Promise<'moved' | 'stale'> {
  const writes: TransactItem[] = [];
  const keep = current !== undefined && next !== undefined && current.level === next.level;
  if (current && !keep)
    writes.push({
      Delete: {
        TableName: tableName,
        Key: markerKey(record, current.level),
        ConditionExpression: 'attribute_exists(pk)',
      },
    });
  if (next)
    writes.push({
      Put: {
        TableName: tableName,
        Item: { ...markerKey(record, next.level), usage: next.usage, label: next.label },
        ConditionExpression: keep ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
      },
    });
  if (!keep) {
    const delta = (level: AssociationLimitLevel) =>
      (next?.level === level ? 1 : 0) - (current?.level === level ? 1 : 0);
    writes.push({
      Update: {
        TableName: tableName,
        Key: associationLimitTotalsKey(record.hubId, record.fromObjectTypeId, record.toObjectTypeId),
        UpdateExpression: 'ADD nearLimit :near, atLimit :at',
        ExpressionAttributeValues: { ':near': delta('NEAR'), ':at': delta('AT') },
      },
    });
  }
  if (writes.length === 0) return 'moved';
  const outcome = await transact(writes.map((write) => ({ role: undefined, write })));
  if (outcome.committed) return 'moved';
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return 'stale';
  throw outcome.error;
}

const totalsOf = (item: Item): AssociationLimitTotals | undefined => {
  const [, fromObjectTypeId, toObjectTypeId] = String(item.sk).split('#');
  if (!fromObjectTypeId || !toObjectTypeId) return undefined;
  return {
    fromObjectTypeId,
    toObjectTypeId,
    nearLimit: Math.max(0, numberAttribute(item, 'nearLimit') ?? 0),
    atLimit: Math.max(0, numberAttribute(item, 'atLimit') ?? 0),
  };
};

/**
 * The totals of every pair the account's records ever came near the limit in (of one from-type when
 * given): one Query of the totals items, at most one per type pair (the account's types squared).
 */
export async function listAssociationLimitTotals(
  hubId: number,
  fromObjectTypeId?: string,
): Promise<AssociationLimitTotals[]> {
  const items = await queryAll(associationLimitPartition(hubId), associationLimitTotalsPrefix(fromObjectTypeId));
  return items.flatMap((item) => totalsOf(item) ?? []);
}

/** One pair's totals: one GetItem (zeros when no record of the pair ever came near the limit). */
export async function findAssociationLimitTotals(
  hubId: number,
  fromObjectTypeId: string,
  toObjectTypeId: string,
): Promise<AssociationLimitTotals> {
  const item = await getItem(associationLimitTotalsKey(hubId, fromObjectTypeId, toObjectTypeId));
  return (item && totalsOf(item)) ?? { fromObjectTypeId, toObjectTypeId, nearLimit: 0, atLimit: 0 };
}

/** The first `count` markers of one pair and level, in record id order: one Query of at most `count` items. */
export async function listAssociationLimitSamples(
  hubId: number,
  fromObjectTypeId: string,
  toObjectTypeId: string,
  level: AssociationLimitLevel,
  count: number,
): Promise<MarkedSample[]> {
  const prefix = associationLimitMarkerPrefix(fromObjectTypeId, toObjectTypeId, level);
  const { items } = await queryPage({ pk: associationLimitPartition(hubId), skPrefix: prefix, pageSize: count });
  return items.map((item) => ({
    recordId: String(item.sk).slice(prefix.length),
    usage: numberAttribute(item, 'usage') ?? 0,
    label: stringAttribute(item, 'label') ?? '',
  }));
}
