import { nowMs } from '../base/clock';
import { dynamicListDelete, dynamicListsChanged, readListCounters } from '../db/dynamic-lists';
import { conversionDueAtMs, convertDynamicList } from '../db/list-conversions';
import { findList, type DynamicListWrites, type StoredList } from '../db/lists';
import { forgetDynamicLists } from './dynamic-lists';
import { listsNamedBy, referenceRemove } from './list-references';
import { keyedTypeOfList } from './list-types';
import { withListCounters } from './list-view';

/** What taking a DYNAMIC list out of its type's lists writes: its entry gone, the type's lists token new, its references gone. */
export function dynamicRemovalOf(
  hubId: number,
  list: Pick<StoredList, 'listId' | 'objectTypeId' | 'filterTree'> & { processingType: string },
): DynamicListWrites | undefined {
  return list.processingType === 'DYNAMIC'
    ? {
        objectTypeId: list.objectTypeId,
        writes: [
          dynamicListDelete(hubId, list.objectTypeId, list.listId),
          ...dynamicListsChanged(keyedTypeOfList(list.objectTypeId), hubId),
          // No longer DYNAMIC, it no longer holds the lists its filters name.
          ...listsNamedBy(list).map((namedId) => referenceRemove(hubId, namedId, list.listId)),
        ],
      }
    : undefined;
}

/** When the list's scheduled conversion falls due, its size counters' times read for inactivity; undefined when none is pending. */
async function dueAtMsOf(hubId: number, list: StoredList): Promise<number | undefined> {
  if (conversionDueAtMs(list) === undefined) return undefined;
  if (list.conversion?.conversionType === 'CONVERSION_DATE') return conversionDueAtMs(list);
  return conversionDueAtMs(withListCounters(list, await readListCounters(hubId, list.listId)));
}

/**
 * The list as it is once its scheduled conversion has run: a DYNAMIC list whose conversion is due is
 * converted to MANUAL first (shared/db/list-conversions.ts convertDynamicList), by whichever write
 * names the list first; reads answer such a list as converted without writing (list-view.ts). At most
 * 3 attempts when record writes change the list meanwhile; then the list as read (still DYNAMIC).
 */
export async function settleDueConversion(hubId: number, list: StoredList): Promise<StoredList> {
  let current = list;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const dueAtMs = await dueAtMsOf(hubId, current);
    if (dueAtMs === undefined || dueAtMs > nowMs()) return current;
    const removal = dynamicRemovalOf(hubId, current);
    if (!removal) return current;
    const converted = await convertDynamicList(hubId, current, new Date(dueAtMs).toISOString(), removal);
    forgetDynamicLists(hubId, current.objectTypeId);
    const read = await findList(hubId, current.listId);
    if (!read) return current;
    current = read;
    if (converted) return current;
  }
  return current;
}
