import * as companies from '../db/companies';
import type { CompanyRecord } from '../db/companies';
import { findMergePointers } from '../db/company-merge';

/** A record merged again leaves a chain of pointers; reads follow this many at most. */
export const maxMergeHops = 8;

/**
 * The records that now hold company ids merged away (ids with no record of their own): each hop
 * reads the ids' merge pointers and the records they point to (one BatchGetItem each per 100 ids).
 * Ids that were never merged are left out. Costs nothing unless a read missed.
 */
export async function findMergedRecords(hubId: number, ids: readonly string[]): Promise<Map<string, CompanyRecord>> {
  const found = new Map<string, CompanyRecord>();
  // Original id -> the id to look up next.
  let pending = new Map(ids.map((id) => [id, id]));
  for (let hop = 0; hop < maxMergeHops && pending.size > 0; hop += 1) {
    const pointers = new Map<string, string>();
    const lookups = [...new Set(pending.values())];
    for (let start = 0; start < lookups.length; start += 100) {
      for (const [from, to] of await findMergePointers(hubId, lookups.slice(start, start + 100))) pointers.set(from, to);
    }
    const targets = [...new Set(pointers.values())];
    const records = new Map<string, CompanyRecord>();
    for (let start = 0; start < targets.length; start += 100) {
      for (const [id, record] of await companies.findCompanies(hubId, targets.slice(start, start + 100))) records.set(id, record);
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
