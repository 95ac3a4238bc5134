import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { isConditionalCheckFailed, withoutKeys } from './item';
import { accountKey } from './keys';

export interface Account {
  hubId: number;
  domain: string;
  createdAt: string;
  /** Requests per rolling 10 s per installed app (0 = no limit; absent = the default). */
  tenSecondlyLimit?: number;
  /** Search requests per second for the account (0 = no limit; absent = the default). */
  searchPerSecondLimit?: number;
}

export async function insertAccount(account: Account): Promise<void> {
  await db.send(new PutCommand({
    TableName: tableName, Item: { ...accountKey(account.hubId), ...account }, ConditionExpression: 'attribute_not_exists(pk)',
  }));
}

/** Sets the given limits; false when there is no such account. */
export async function updateAccountLimits(hubId: number, limits: Pick<Account, 'tenSecondlyLimit' | 'searchPerSecondLimit'>): Promise<Account | undefined> {
  const entries = Object.entries(limits).filter((entry): entry is [string, number] => entry[1] !== undefined);
  if (entries.length === 0) return findAccount(hubId);
  try {
    const result = await db.send(new UpdateCommand({
      TableName: tableName, Key: accountKey(hubId),
      UpdateExpression: `SET ${entries.map((_, index) => `#n${index} = :v${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#n${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
      ConditionExpression: 'attribute_exists(pk)',
      ReturnValues: 'ALL_NEW',
    }));
    return result.Attributes ? withoutKeys<Account>(result.Attributes) : undefined;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

export async function findAccount(hubId: number): Promise<Account | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: accountKey(hubId) }));
  return result.Item ? withoutKeys<Account>(result.Item) : undefined;
}

/** The accounts of a user, for the consent page's account picker (at most 100 per user). */
export async function findAccounts(hubIds: readonly number[]): Promise<Account[]> {
  if (hubIds.length === 0) return [];
  const result = await db.send(new BatchGetCommand({
    RequestItems: { [tableName]: { Keys: hubIds.slice(0, 100).map(accountKey) } },
  }));
  const items = result.Responses?.[tableName] ?? [];
  return items.map((item) => withoutKeys<Account>(item)).sort((a, b) => a.hubId - b.hubId);
}
