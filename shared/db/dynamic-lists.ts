import { randomUUID } from 'node:crypto';
import { nowMs } from '../base/clock';
import { tableName } from './client';
import { listsTokenWrites } from './order-index';
import { batchGetAll, queryPage, skBetween, type Item, type TransactItem } from './core';
import { withoutKeys } from './item';
import {
  dynamicListKey,
  dynamicListsPrefix,
  hubPartition,
  listMemberKey,
  listMemberPrefix,
  listSizeKey,
  listSizePrefix,
  listMembersPartition,
  type KeyedType,
} from './keys';

/**
 * The DYNAMIC lists of an object type as record writes see them: one item per list in the
 * account's partition (dynamicListKey), written in the transactions that create, refilter, delete
 * and restore the list. `tree` is the compiled filters (shared/lists/list-filters.ts), stored as
 * JSON so a write evaluates it with no property lookups.
 */
export interface DynamicListEntry {
  listId: string;
  objectTypeId: string;
  tree: unknown;
  /** A filter compares with the current time: a write reads the record's membership rather than infer it. */
  isTimeRelative: boolean;
  /** The list's evaluation over existing records is running: writes read and check actual memberships. */
  isProcessing: boolean;
  /** The lists its IN_LIST filters name (list-filter-match.ts listIdsOfTree): a write evaluates those of them that are DYNAMIC first. */
  listIds?: string[];
  /** When the filters took effect (the list's creation, its last refilter or restore), epoch ms. */
  filtersChangedAtMs: number;
  /** The list's scheduled conversion, when one is: a write leaves a list alone once it is due (shared/db/list-conversions.ts). */
  conversion?: EntryConversion;
}

/** What a record write needs of a scheduled conversion: the date it falls due, or the inactivity that makes it due. */
export type EntryConversion = { conversionAtMs: number } | { offsetMs: number };

/** Sets (or, with undefined, removes) the scheduled conversion on a list's entry, which must exist. */
export function dynamicListConversionUpdate(
  hubId: number,
  entry: Pick<DynamicListEntry, 'listId' | 'objectTypeId'>,
  conversion: EntryConversion | undefined,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: dynamicListKey(hubId, entry.objectTypeId, entry.listId),
      UpdateExpression: conversion ? 'SET #conversion = :conversion' : 'REMOVE #conversion',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#conversion': 'conversion' },
      ...(conversion ? { ExpressionAttributeValues: { ':conversion': conversion } } : {}),
    },
  };
}

export function dynamicListPut(hubId: number, entry: DynamicListEntry): TransactItem {
  return {
    Put: { TableName: tableName, Item: { ...dynamicListKey(hubId, entry.objectTypeId, entry.listId), ...entry } },
  };
}

export function dynamicListDelete(hubId: number, objectTypeId: string, listId: string): TransactItem {
  return { Delete: { TableName: tableName, Key: dynamicListKey(hubId, objectTypeId, listId) } };
}

/** The evaluation ended: writes infer memberships from the record's previous values again. */
export function dynamicListCompleted(hubId: number, entry: DynamicListEntry): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: dynamicListKey(hubId, entry.objectTypeId, entry.listId),
      UpdateExpression: 'SET isProcessing = :false',
      ConditionExpression: 'filtersChangedAtMs = :changed',
      ExpressionAttributeValues: { ':false': false, ':changed': entry.filtersChangedAtMs },
    },
  };
}

/** The type's DYNAMIC lists and their token (listsTokenAttribute), as a record write sees them. */
export interface DynamicListsView {
  token: string | undefined;
  entries: DynamicListEntry[];
}

/**
 * The type's DYNAMIC lists and their token: one strongly consistent Query of the type's prefix,
 * whose first item is the header holding the token (the cap on the lists keeps it one page).
 */
export async function readDynamicLists(hubId: number, objectTypeId: string): Promise<DynamicListsView> {
  const page = await queryPage({ pk: hubPartition(hubId), skPrefix: dynamicListsPrefix(objectTypeId) });
  const header = page.items.find((item) => item.sk === dynamicListsPrefix(objectTypeId));
  return {
    token: typeof header?.token === 'string' ? header.token : undefined,
    entries: page.items.filter((item) => item !== header).map((item) => withoutKeys<DynamicListEntry>(item)),
  };
}

/**
 * What every change of a type's DYNAMIC lists (a list created, refiltered, deleted, restored)
 * writes in its transaction: a new token on the header and on each of the type's record counters,
 * so a record write that evaluated the lists as they were before fails and evaluates them again.
 */
export function dynamicListsChanged(type: KeyedType, hubId: number): TransactItem[] {
  const token = `${nowMs().toString(36)}-${randomUUID().slice(0, 8)}`;
  return [
    {
      Put: {
        TableName: tableName,
        Item: { pk: hubPartition(hubId), sk: dynamicListsPrefix(type.id), token },
      },
    },
    ...listsTokenWrites(type, hubId, token),
  ];
}

/** The change of one list's size by a transaction: one ADD on one of its counters, with the time members came or went. */
export interface ListSizeDelta {
  listId: string;
  added: number;
  removed: number;
}

/** The counters a list's size is spread over (the shard of a transaction's first record). */
export const listSizeShards = 16;

export function listSizeUpdate(hubId: number, delta: ListSizeDelta, shard: number, atIso: string): TransactItem {
  const set: string[] = [];
  if (delta.added > 0) set.push('lastRecordAddedAt = :at');
  if (delta.removed > 0) set.push('lastRecordRemovedAt = :at');
  return {
    Update: {
      TableName: tableName,
      Key: listSizeKey(hubId, delta.listId, shard % listSizeShards),
      UpdateExpression: `ADD #size :delta${set.length > 0 ? ` SET ${set.join(', ')}` : ''}`,
      ExpressionAttributeNames: { '#size': 'size' },
      ExpressionAttributeValues: { ':delta': delta.added - delta.removed, ...(set.length > 0 ? { ':at': atIso } : {}) },
    },
  };
}

/** Sums the deltas of one transaction by list (a transaction writes each counter once). */
export function sumSizeDeltas(deltas: readonly ListSizeDelta[]): ListSizeDelta[] {
  const byList = new Map<string, ListSizeDelta>();
  for (const delta of deltas) {
    const sum = byList.get(delta.listId) ?? { listId: delta.listId, added: 0, removed: 0 };
    sum.added += delta.added;
    sum.removed += delta.removed;
    byList.set(delta.listId, sum);
  }
  return [...byList.values()].filter((delta) => delta.added > 0 || delta.removed > 0);
}

export interface ListCounters {
  size: number;
  lastRecordAddedAt?: string;
  lastRecordRemovedAt?: string;
}

/** The later of two ISO times, either possibly absent (a value that is not a string counts as absent). */
export const laterIso = (a: string | undefined, b: unknown): string | undefined =>
  typeof b === 'string' && (a === undefined || b > a) ? b : a;

/** What a list's size counters add up to, and the counter items themselves: one Query of its member partition's `SIZE#` items. */
export async function readListCounterItems(
  hubId: number,
  listId: string,
): Promise<{ counters: ListCounters; items: Item[] }> {
  const page = await queryPage({ pk: listMembersPartition(hubId, listId), skPrefix: listSizePrefix });
  const counters: ListCounters = { size: 0 };
  for (const item of page.items) {
    counters.size += typeof item.size === 'number' ? item.size : 0;
    counters.lastRecordAddedAt = laterIso(counters.lastRecordAddedAt, item.lastRecordAddedAt);
    counters.lastRecordRemovedAt = laterIso(counters.lastRecordRemovedAt, item.lastRecordRemovedAt);
  }
  return { counters, items: page.items };
}

/** What a list's size counters add up to. */
export async function readListCounters(hubId: number, listId: string): Promise<ListCounters> {
  return (await readListCounterItems(hubId, listId)).counters;
}

/** Which of these records are members of the list, with their join times: BatchGetItem of their member items. */
export async function readMembershipsOf(
  hubId: number,
  listIds: readonly string[],
  recordIds: readonly string[],
): Promise<Map<string, number>> {
  const keys = listIds.flatMap((listId) => recordIds.map((recordId) => listMemberKey(hubId, listId, recordId)));
  const found = new Map<string, number>();
  if (keys.length === 0) return found;
  for (const item of await batchGetAll(keys)) {
    const listId = listIdOfMemberPartition(String(item.pk));
    const recordId = String(item.sk).slice(listMemberPrefix.length);
    if (typeof item.joinedAtMs === 'number') found.set(membershipId(listId, recordId), item.joinedAtMs);
  }
  return found;
}

/**
 * Which of these records (ids of one fixed width, in any order) are members of each list, with
 * their join times: per list, a Query of its member items between the lowest and the highest id
 * (every page followed), so the read costs the members in that range, not a key per record. What an
 * evaluation reads for a page of records most of which are in no list yet. Answers as readMembershipsOf.
 */
export async function readMembershipsInRange(
  hubId: number,
  listIds: readonly string[],
  recordIds: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (recordIds.length === 0) return found;
  const wanted = new Set(recordIds);
  const sorted = [...recordIds].sort();
  const low = `${listMemberPrefix}${sorted[0]}`;
  const high = `${listMemberPrefix}${sorted.at(-1)}`;
  for (const listId of listIds) {
    let startKey: Item | undefined;
    do {
      const page = await queryPage(
        {
          pk: listMembersPartition(hubId, listId),
          skCondition: skBetween({ low, high }),
          projection: '#sk, joinedAtMs',
          names: { '#sk': 'sk' },
        },
        startKey,
      );
      for (const item of page.items) {
        const recordId = String(item.sk).slice(listMemberPrefix.length);
        if (wanted.has(recordId) && typeof item.joinedAtMs === 'number')
          found.set(membershipId(listId, recordId), item.joinedAtMs);
      }
      startKey = page.nextKey;
    } while (startKey);
  }
  return found;
}

/** The key of a membership in readMembershipsOf's answer. */
export const membershipId = (listId: string, recordId: string): string => `${listId}/${recordId}`;

function listIdOfMemberPartition(pk: string): string {
  const padded = pk.slice(pk.lastIndexOf('#') + 1);
  return padded.replace(/^0+(?=\d)/, '');
}

/** A ConditionCheck that a record is (or is not) a member: what a write leaves unchanged on a list being evaluated. */
export function membershipCheck(hubId: number, listId: string, recordId: string, isMember: boolean): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: listMemberKey(hubId, listId, recordId),
      ConditionExpression: isMember ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
    },
  };
}

export type { Item };
