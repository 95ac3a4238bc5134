import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { batchGetAll } from './core';
import { withoutKeys } from './item';
import { accountKey } from './keys';

export interface Account {
  hubId: number;
  domain: string;
  createdAt: string;
}

export async function insertAccount(account: Account): Promise<void> {
  await db.send(new PutCommand({
    TableName: tableName, Item: { ...accountKey(account.hubId), ...account }, ConditionExpression: 'attribute_not_exists(pk)',
  }));
}

export async function findAccount(hubId: number): Promise<Account | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: accountKey(hubId) }));
  return result.Item ? withoutKeys<Account>(result.Item) : undefined;
}

/** The accounts of a user, for the consent page's account picker, in hub id order. */
export async function findAccounts(hubIds: readonly number[]): Promise<Account[]> {
  const items = await batchGetAll(hubIds.map(accountKey), { consistent: false });
  return items.map((item) => withoutKeys<Account>(item)).sort((a, b) => a.hubId - b.hubId);
}
