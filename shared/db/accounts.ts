import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import {
  batchGetAll,
  conditionalWrite,
  ExpressionPlaceholders,
  getItem,
  putNew,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { accountKey } from './keys';

export interface Account {
  hubId: number;
  domain: string;
  createdAt: string;
  /** Requests per rolling 10 s per installed app (0 = no limit; absent = the default). */
  tenSecondlyLimit?: number;
  /** Search requests per second for the account (0 = no limit; absent = the default). */
  searchPerSecondLimit?: number;
  /**
   * Every active record of the account has its places in the ordered index and is counted
   * (shared/db/order-index.ts): true for accounts created since the index exists; an older account
   * gets it from `npm run admin -- search backfill`. Until then its searches read the projection.
   */
  isOrderIndexed?: boolean;
  /**
   * Set on a test account (the sandbox controls, shared/sandbox/): the developer account that
   * created it, which alone may control it. Its tokens carry the test-account claim.
   */
  developerId?: number;
  /** A test account's name, as its developer gave it. */
  name?: string;
  /**
   * When the latest reset of a test account started (service clock ms, shared/base/clock.ts): the
   * webhook generator drops the changes of records written before it (shared/webhooks/reset-filter.ts).
   */
  dataResetFromMs?: number;
}

const accountItem: Entity<Account> = { key: (account) => accountKey(account.hubId) };

/** The item of an account, for a write that creates it with others (a test account and its listing). */
export const accountItemOf = (account: Account) => itemOf(accountItem, account);

/** Hub ids are allocated once, so an existing account is a bug of the caller: it throws. */
export async function insertAccount(account: Account): Promise<void> {
  if (!(await putNew(itemOf(accountItem, account)))) throw new Error(`account ${account.hubId} exists`);
}

/** Sets the given limits; false when there is no such account. */
export async function updateAccountLimits(
  hubId: number,
  limits: Pick<Account, 'tenSecondlyLimit' | 'searchPerSecondLimit'>,
): Promise<Account | undefined> {
  const entries = Object.entries(limits).filter((entry): entry is [string, number] => entry[1] !== undefined);
  if (entries.length === 0) return findAccount(hubId);
  const placeholders = new ExpressionPlaceholders();
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: `SET ${entries.map(([name, value]) => `${placeholders.name(name)} = ${placeholders.value(value)}`).join(', ')}`,
      ...placeholders.attributes(),
      ConditionExpression: 'attribute_exists(pk)',
      ReturnValues: 'ALL_NEW',
    }),
  );
  return outcome.written && outcome.attributes ? recordOf(accountItem, outcome.attributes) : undefined;
}

export async function findAccount(hubId: number): Promise<Account | undefined> {
  const item = await getItem(accountKey(hubId), false);
  return item ? recordOf(accountItem, item) : undefined;
}

/** The accounts of a user, for the consent page's account picker, in hub id order. */
export async function findAccounts(hubIds: readonly number[]): Promise<Account[]> {
  const items = await batchGetAll(hubIds.map(accountKey), { consistent: false });
  return items.map((item) => recordOf(accountItem, item)).sort((a, b) => a.hubId - b.hubId);
}

/** Marks the account's records as all in the ordered index (after its backfill): its searches then read the index. */
export async function markOrderIndexed(hubId: number): Promise<boolean> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: 'SET isOrderIndexed = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  return outcome.written;
}
