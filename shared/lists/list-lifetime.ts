import { nowMs } from '../base/clock';
import type { StoredList } from '../db/lists';

/** How long a deleted list may be restored (HubSpot's 90 days); later it answers as one that never was. */
export const restorableMs = 90 * 24 * 3600 * 1000;

/** A list deleted more than 90 days ago: every read and change answers as for a list that never existed. */
export const isGone = (list: StoredList): boolean =>
  list.deletedAt !== undefined && Date.parse(list.deletedAt) + restorableMs < nowMs();
