import { GetCommand, PutCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { withoutKeys } from './item';
import { loginAttemptsKey, userKey } from './keys';

export interface User {
  userId: number;
  /** Lower-cased; the login name. */
  email: string;
  /** scrypt$N$r$p$salt$hash, see shared/oauth/passwords.ts. */
  passwordHash: string;
  hubIds: number[];
  createdAt: string;
}

export async function insertUser(user: User): Promise<void> {
  await db.send(new PutCommand({
    TableName: tableName, Item: { ...userKey(user.email), ...user }, ConditionExpression: 'attribute_not_exists(pk)',
  }));
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: userKey(email) }));
  return result.Item ? withoutKeys<User>(result.Item) : undefined;
}

export interface LoginAttempts {
  failures: number;
  lockedUntilMs: number;
}

export async function findLoginAttempts(email: string): Promise<LoginAttempts> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: loginAttemptsKey(email), ConsistentRead: true }));
  return {
    failures: typeof result.Item?.failures === 'number' ? result.Item.failures : 0,
    lockedUntilMs: typeof result.Item?.lockedUntilMs === 'number' ? result.Item.lockedUntilMs : 0,
  };
}

/** Atomic increment, so parallel guesses cannot share one failure count. */
export async function recordLoginFailure(email: string, lockedUntilMs: (failures: number) => number, ttlSeconds: number): Promise<LoginAttempts> {
  const result = await db.send(new UpdateCommand({
    TableName: tableName,
    Key: loginAttemptsKey(email),
    UpdateExpression: 'ADD failures :one SET #ttl = :ttl',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':one': 1, ':ttl': ttlSeconds },
    ReturnValues: 'ALL_NEW',
  }));
  const failures = typeof result.Attributes?.failures === 'number' ? result.Attributes.failures : 1;
  const until = lockedUntilMs(failures);
  await db.send(new UpdateCommand({
    TableName: tableName,
    Key: loginAttemptsKey(email),
    UpdateExpression: 'SET lockedUntilMs = :until',
    ExpressionAttributeValues: { ':until': until },
  }));
  return { failures, lockedUntilMs: until };
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: loginAttemptsKey(email) }));
}

