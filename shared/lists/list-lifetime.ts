import { nowMs } from '../base/clock';
import { findList, listsDeletedBefore, purgeDeletedList, removeDeletedMarker, type StoredList } from '../db/lists';
import { listLimits } from './list-limits';

/** How long a deleted list may be restored (HubSpot's 90 days); later it answers as one that never was. */
export const restorableMs = 90 * 24 * 3600 * 1000;

/** A list deleted more than 90 days ago: every read and change answers as for a list that never existed. */
export const isGone = (list: StoredList): boolean =>
  list.deletedAt !== undefined && Date.parse(list.deletedAt) + restorableMs < nowMs();

/**
 * A gone list's items go when a write finds it (reads hold no write grant): up to
 * maxMembershipsPurgedPerCall memberships a call, then its item, so a later call goes on where one stopped.
 */
export async function purgeIfGone(hubId: number, list: StoredList | undefined): Promise<void> {
  if (list && isGone(list)) await purgeDeletedList(hubId, list, listLimits.maxMembershipsPurgedPerCall);
}

/**
 * One step of the account's purge, after each list delete: the list deleted longest ago, when it is
 * gone, loses up to maxMembershipsPurgedPerCall memberships (its item too once none is left). One
 * Query of one deletion marker, then at most one list's purge step.
 */
export async function purgeOldestGoneList(hubId: number): Promise<void> {
  const [oldest] = await listsDeletedBefore(hubId, nowMs() - restorableMs, 1);
  if (!oldest) return;
  const list = await findList(hubId, oldest.listId);
  if (list && isGone(list)) await purgeDeletedList(hubId, list, listLimits.maxMembershipsPurgedPerCall);
  else await removeDeletedMarker(oldest.marker);
}
