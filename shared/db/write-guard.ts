import { AsyncLocalStorage } from 'node:async_hooks';
import { randomInt } from 'node:crypto';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { WriteHeldError } from './repository-errors';
import { writeHoldKey, writeHoldPrefix, writeHoldShards } from './keys';

/**
 * The write guard of test accounts. A reset or delete of a test account first puts its write hold
 * (keys.ts writeHoldKey, every shard), then purges. Every write made for a caller of that account
 * (a request with one of its access tokens, the fixtures and installs controls) runs inside
 * withWriteGuard(hubId), and the data-access core (core.ts) adds to each of its writes a
 * ConditionCheck that one hold shard does not exist: a transaction gets one more item, a single
 * conditional write or a batch write is sent as a transaction with it. So no write of the account
 * commits between the hold and the end of the purge, and a purge removes each record's items
 * together: a write that committed before the hold left all of its items for the purge to find.
 * A write that meets the hold writes nothing and throws WriteHeldError. Writes outside the guard
 * (standard accounts, the stream's consumers, the sandbox controls' own items) pay nothing.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type WriteHoldMode = WriteHeldError['mode'];

const guardedHub = new AsyncLocalStorage<number>();

/** Runs `work` with every write it makes through the core guarded by the account's write hold. */
export function withWriteGuard<T>(hubId: number, work: () => T): T {
  return guardedHub.run(hubId, work);
}

/** The account whose write hold guards the writes made here, if any. */
export function guardedHubId(): number | undefined {
  return guardedHub.getStore();
}

/** The ConditionCheck that the account holds no write hold, on one shard chosen at random. */
export function writeHoldCheck(tableName: string, hubId: number): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: writeHoldKey(hubId, randomInt(writeHoldShards)),
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The mode of a hold item, as read or as a failed condition returns it (wire format). */
export function holdModeOf(item: Record<string, unknown> | undefined): WriteHoldMode {
  const raw = item?.mode;
  const mode = typeof raw === 'string' ? raw : (raw as { S?: unknown } | undefined)?.S;
  return mode === 'delete' ? 'delete' : 'reset';
}

export function isWriteHoldItem(item: Record<string, unknown>): boolean {
  return String(item.sk).startsWith(writeHoldPrefix);
}

/** The hold item of every shard of the account (a delete's expire an hour later: see account-purge.ts). */
export function writeHoldItems(
  hubId: number,
  mode: WriteHoldMode,
  since: string,
  ttl?: number,
): Record<string, unknown>[] {
  return Array.from({ length: writeHoldShards }, (_, shard) => ({
    ...writeHoldKey(hubId, shard),
    mode,
    since,
    ...(ttl === undefined ? {} : { ttl }),
  }));
}

export { WriteHeldError };
