import { tableName } from './client';
import { transact, type TransactItem } from './core';
import { dynamicListConversionUpdate, laterIso, readListCounterItems, type EntryConversion } from './dynamic-lists';
import { convertedListWrites, listConversionWrite, type DynamicListWrites, type StoredList } from './lists';

/**
 * A DYNAMIC list's scheduled conversion to a static list, as stored on the list's item (attribute
 * `conversion`): the request as sent, plus when it falls due. CONVERSION_DATE: `conversionAtMs`, 00:00
 * UTC of that day (epoch ms). INACTIVITY: `offsetMs`, the period without membership changes that
 * converts the list (a DAY 86,400,000 ms, a WEEK 7 days, a MONTH 30 days). `convertedAt` (ISO time) is
 * written when the list converts.
 */
export type StoredListConversion = (
  | { conversionType: 'CONVERSION_DATE'; day: number; month: number; year: number; conversionAtMs: number }
  | { conversionType: 'INACTIVITY'; offset: number; timeUnit: 'DAY' | 'WEEK' | 'MONTH'; offsetMs: number }
) & { convertedAt?: string };

/** What the list's entry among its type's DYNAMIC lists holds of a conversion. */
export const entryConversionOf = (conversion: StoredListConversion | undefined): EntryConversion | undefined =>
  conversion === undefined
    ? undefined
    : conversion.conversionType === 'CONVERSION_DATE'
      ? { conversionAtMs: conversion.conversionAtMs }
      : { offsetMs: conversion.offsetMs };

/**
 * When a list's scheduled conversion falls due (epoch ms), for a DYNAMIC list whose evaluation is
 * complete and whose conversion has not run; undefined otherwise. Inactivity counts from the last
 * membership change or, when none came since, from when the filters took effect. `list` carries its
 * size counters' times (list-view.ts countedLists) for inactivity.
 */
export function conversionDueAtMs(
  list: Pick<StoredList, 'processingType' | 'processingStatus' | 'conversion' | 'filtersChangedAtMs' | 'createdAt'> & {
    lastRecordAddedAt?: string;
    lastRecordRemovedAt?: string;
  },
): number | undefined {
  const conversion = list.conversion;
  if (list.processingType !== 'DYNAMIC' || list.processingStatus !== 'COMPLETE' || !conversion) return undefined;
  if (conversion.convertedAt !== undefined) return undefined;
  if (conversion.conversionType === 'CONVERSION_DATE') return conversion.conversionAtMs;
  return lastChangeMs(list) + conversion.offsetMs;
}

/** The last membership change of a DYNAMIC list, or when its filters took effect. */
export function lastChangeMs(
  list: Pick<StoredList, 'filtersChangedAtMs' | 'createdAt'> & {
    lastRecordAddedAt?: string;
    lastRecordRemovedAt?: string;
  },
): number {
  const times = [list.lastRecordAddedAt, list.lastRecordRemovedAt]
    .filter((iso): iso is string => iso !== undefined)
    .map((iso) => Date.parse(iso));
  return Math.max(list.filtersChangedAtMs ?? Date.parse(list.createdAt), ...times);
}

/**
 * Sets a list's scheduled conversion (or, with undefined, removes it) on the list read (its version)
 * and on its entry among its type's DYNAMIC lists, with the type's new lists token (`tokenWrites`), so
 * every record write sees it: false when the list changed since it was read.
 */
export async function writeListConversion(
  hubId: number,
  list: StoredList,
  conversion: StoredListConversion | undefined,
  tokenWrites: readonly TransactItem[],
): Promise<boolean> {
  const outcome = await transact([
    { role: 'list', write: listConversionWrite(hubId, list, conversion) },
    { role: 'entry', write: dynamicListConversionUpdate(hubId, list, entryConversionOf(conversion)) },
    ...tokenWrites.map((write) => ({ role: 'token' as const, write })),
  ]);
  return outcome.committed;
}

/**
 * Converts a DYNAMIC list to a MANUAL one at `convertedAt` (its conversion due): in one transaction
 * the list's item (MANUAL, its size and last member times folded in from its size counters, the
 * conversion's `convertedAt`), each counter deleted on the condition that it still holds what was
 * read, and `dynamic` (its entry gone, the type's lists token new, the type's count of DYNAMIC lists
 * down): false when anything changed since it was read (the caller reads again).
 */
export async function convertDynamicList(
  hubId: number,
  list: StoredList,
  convertedAt: string,
  dynamic: DynamicListWrites,
): Promise<boolean> {
  const { counters, items } = await readListCounterItems(hubId, list.listId);
  const size = list.size + counters.size;
  const lastRecordAddedAt = laterIso(list.lastRecordAddedAt, counters.lastRecordAddedAt);
  const lastRecordRemovedAt = laterIso(list.lastRecordRemovedAt, counters.lastRecordRemovedAt);
  const counterDeletes: TransactItem[] = items.map((item) => ({
    Delete: {
      TableName: tableName,
      Key: { pk: String(item.pk), sk: String(item.sk) },
      ConditionExpression: '#size = :size',
      ExpressionAttributeNames: { '#size': 'size' },
      ExpressionAttributeValues: { ':size': item.size },
    },
  }));
  const outcome = await transact(
    convertedListWrites(
      hubId,
      list,
      {
        processingType: 'MANUAL',
        size,
        ...(lastRecordAddedAt ? { lastRecordAddedAt } : {}),
        ...(lastRecordRemovedAt ? { lastRecordRemovedAt } : {}),
        conversion: { ...list.conversion, convertedAt },
      },
      counterDeletes,
      dynamic,
    ),
  );
  return outcome.committed;
}
