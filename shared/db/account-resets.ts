import { batchGetAll } from './core';
import { accountKey, hubPartition } from './keys';

/**
 * Where each of these accounts' data starts: the account item's `dataResetFromMs` (the service
 * clock's epoch ms at the start of its latest reset, shared/db/account-purge.ts), or null for an
 * account never reset; an account whose item does not exist (deleted) is absent from the map. One
 * strongly consistent BatchGetItem (100 accounts a call), the one attribute only.
 */
export async function findDataResetStarts(hubIds: readonly number[]): Promise<Map<number, number | null>> {
  const starts = new Map<number, number | null>();
  if (hubIds.length === 0) return starts;
  const unique = [...new Set(hubIds)];
  const byPartition = new Map(unique.map((hubId) => [hubPartition(hubId), hubId]));
  for (const item of await batchGetAll(unique.map(accountKey), { attributes: ['dataResetFromMs'] })) {
    const hubId = byPartition.get(String(item.pk));
    if (hubId !== undefined) starts.set(hubId, typeof item.dataResetFromMs === 'number' ? item.dataResetFromMs : null);
  }
  return starts;
}
