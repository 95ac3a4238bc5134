import type { ObjectType } from '../objects/object-types';
import * as recordsDb from '../db/records';
import type { CrmRecord } from '../db/records';
import { findMergePointers } from '../db/record-merge';

/**
 * The most ids one record holds, its own and those merged into it (hs_merged_object_ids): HubSpot
 * refuses a merge past it ("Cannot have more than 250 identities on a profile", 414), and so does
 * shared/records/merge-records.ts.
 */
export const maxRecordIdentities = 250;

/**
 * How many merge pointers a read follows at most. A merge points every id merged into the two
 * records before at the new record too (shared/db/record-merge.ts), so a read follows one. A longer
 * chain is left only where that rewrite did not land after the merge's transaction (the process
 * died in between; a late rewrite overtook by the next merge's). Every pointer leads to a later
 * record of the same merges, and the last record holds every id on the way, so no chain can be
 * longer than this; the bound only stops a loop that no merge writes.
 */
export const maxMergeHops = maxRecordIdentities - 1;

/**
 * The records that now hold record ids merged away (ids with no record of their own): each hop
 * reads the ids' merge pointers and the records they point to (one BatchGetItem each per 100 ids),
 * one hop as a rule (above). Ids that were never merged are left out. Costs nothing unless a read missed.
 */
export async function findMergedRecords(
  type: ObjectType,
  hubId: number,
  ids: readonly string[],
): Promise<Map<string, CrmRecord>> {
  const found = new Map<string, CrmRecord>();
  // Original id -> the id to look up next.
  let pending = new Map(ids.map((id) => [id, id]));
  for (let hop = 0; hop < maxMergeHops && pending.size > 0; hop += 1) {
    const pointers = new Map<string, string>();
    const lookups = [...new Set(pending.values())];
    for (let start = 0; start < lookups.length; start += 100) {
      for (const [from, to] of await findMergePointers(type, hubId, lookups.slice(start, start + 100)))
        pointers.set(from, to);
    }
    const targets = [...new Set(pointers.values())];
    const records = new Map<string, CrmRecord>();
    for (let start = 0; start < targets.length; start += 100) {
      for (const [id, record] of await recordsDb.findRecords(type, hubId, targets.slice(start, start + 100)))
        records.set(id, record);
    }
    const next = new Map<string, string>();
    for (const [original, current] of pending) {
      const target = pointers.get(current);
      if (target === undefined) continue;
      const record = records.get(target);
      if (record) found.set(original, record);
      else next.set(original, target);
    }
    pending = next;
  }
  return found;
}
