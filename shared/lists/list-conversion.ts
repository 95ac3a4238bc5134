import { nowMs } from '../base/clock';
import { ServiceUnavailableError, ValidationError } from '../base/errors';
import { writeListConversion, type StoredListConversion } from '../db/list-conversions';
import type { StoredList } from '../db/lists';
import { dynamicListsChanged } from '../db/dynamic-lists';
import { forgetDynamicLists } from './dynamic-lists';
import { keyedTypeOfList } from './list-types';
import { countedLists } from './list-view';
import { requireActiveList } from './manage-lists';

/** A conversion as a client sends it (PublicListConversionTime); the schema checks only the types. */
export interface ConversionTimeInput {
  conversionType?: string;
  day?: number;
  month?: number;
  year?: number;
  offset?: number;
  timeUnit?: string;
}

const dayMs = 24 * 3600 * 1000;
const unitMs = { DAY: dayMs, WEEK: 7 * dayMs, MONTH: 30 * dayMs } as const;
/** How far ahead a conversion may be set, by date or by inactivity: ten years. */
const maxAheadMs = 3650 * dayMs;

const invalid = (message: string, context: Record<string, string[]>) => new ValidationError(message, { context });

function conversionByDate(input: ConversionTimeInput): StoredListConversion {
  const { day, month, year } = input;
  for (const [field, value] of Object.entries({ day, month, year }))
    if (value === undefined) throw invalid(`A CONVERSION_DATE conversion names its ${field}`, { [field]: [''] });
  if (day === undefined || month === undefined || year === undefined) throw new Error('checked above');
  if (month < 1 || month > 12) throw invalid(`month is 1 to 12, not ${month}`, { month: [String(month)] });
  const conversionAtMs = Date.UTC(year, month - 1, day);
  const date = new Date(conversionAtMs);
  if (year < 1970 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    throw invalid(`${year}-${month}-${day} is not a date`, {
      day: [String(day)],
      month: [String(month)],
      year: [String(year)],
    });
  const dateContext = { day: [String(day)], month: [String(month)], year: [String(year)] };
  if (conversionAtMs <= nowMs())
    throw invalid(
      'The conversion date is a day after today (the conversion runs at 00:00 UTC of that day)',
      dateContext,
    );
  if (conversionAtMs > nowMs() + maxAheadMs)
    throw invalid('The conversion date is at most ten years ahead', dateContext);
  return { conversionType: 'CONVERSION_DATE', day, month, year, conversionAtMs };
}

function conversionByInactivity(input: ConversionTimeInput): StoredListConversion {
  const { offset, timeUnit } = input;
  if (timeUnit !== 'DAY' && timeUnit !== 'WEEK' && timeUnit !== 'MONTH')
    throw invalid(`timeUnit is DAY, WEEK or MONTH, not ${timeUnit ?? 'absent'}`, { timeUnit: [timeUnit ?? ''] });
  if (offset === undefined || offset < 1)
    throw invalid('offset counts the time units of inactivity: 1 or more', { offset: [String(offset ?? '')] });
  const offsetMs = offset * unitMs[timeUnit];
  if (offsetMs > maxAheadMs) throw invalid('An inactivity period is at most ten years', { offset: [String(offset)] });
  return { conversionType: 'INACTIVITY', offset, timeUnit, offsetMs };
}

/** The stored form of a requested conversion, or 400 naming the field that makes it impossible. */
export function conversionOf(input: ConversionTimeInput): StoredListConversion {
  if (input.conversionType === 'CONVERSION_DATE') return conversionByDate(input);
  if (input.conversionType === 'INACTIVITY') return conversionByInactivity(input);
  throw invalid(`conversionType is CONVERSION_DATE or INACTIVITY, not ${input.conversionType ?? 'absent'}`, {
    conversionType: [input.conversionType ?? ''],
  });
}

/** PublicListConversionResponse: the list, the conversion requested (as sent) and when it ran, if it did. */
function conversionResponse(listId: string, conversion: StoredListConversion | undefined) {
  if (!conversion) return { listId };
  const requestedConversionTime =
    conversion.conversionType === 'CONVERSION_DATE'
      ? {
          conversionType: conversion.conversionType,
          day: conversion.day,
          month: conversion.month,
          year: conversion.year,
        }
      : { conversionType: conversion.conversionType, offset: conversion.offset, timeUnit: conversion.timeUnit };
  return {
    listId,
    requestedConversionTime,
    ...(conversion.convertedAt ? { convertedAt: conversion.convertedAt } : {}),
  };
}

/** A read: a conversion due and not yet run answers as run (list-view.ts countedLists), without writing. */
export async function getListConversion(hubId: number, listId: string) {
  const [list] = await countedLists(hubId, [await requireActiveList(hubId, listId)]);
  return conversionResponse(listId, list?.conversion);
}

/** Only a DYNAMIC list converts (HubSpot: an active list becomes a static one). */
function requireDynamic(list: StoredList): void {
  if (list.processingType !== 'DYNAMIC')
    throw invalid(`List ${list.listId} is a ${list.processingType} list: only DYNAMIC lists can be converted`, {
      processingType: [list.processingType],
    });
}

const changedMeanwhile = () =>
  new ServiceUnavailableError('The list changed while this request ran. Retry the request.', {
    headers: { 'retry-after': '1' },
  });

/**
 * Writes the conversion on the list read and on its entry among its type's DYNAMIC lists (with the
 * type's new lists token, so record writes see it); a list deleted or no longer DYNAMIC since answers
 * as it now is.
 */
async function writeConversion(hubId: number, list: StoredList, conversion: StoredListConversion | undefined) {
  const written = await writeListConversion(
    hubId,
    list,
    conversion,
    dynamicListsChanged(keyedTypeOfList(list.objectTypeId), hubId),
  );
  forgetDynamicLists(hubId, list.objectTypeId);
  if (written) return;
  requireDynamic(await requireActiveList(hubId, list.listId));
  throw changedMeanwhile();
}

export async function scheduleListConversion(hubId: number, listId: string, input: ConversionTimeInput) {
  const list = await requireActiveList(hubId, listId, { purgeGone: true, settleConversion: true });
  requireDynamic(list);
  const conversion = conversionOf(input);
  await writeConversion(hubId, list, conversion);
  return conversionResponse(list.listId, conversion);
}

/** Cancels a DYNAMIC list's scheduled conversion; a list with none scheduled answers the same (nothing to cancel). */
export async function cancelListConversion(hubId: number, listId: string): Promise<void> {
  const list = await requireActiveList(hubId, listId, { purgeGone: true, settleConversion: true });
  requireDynamic(list);
  if (list.conversion) await writeConversion(hubId, list, undefined);
}
