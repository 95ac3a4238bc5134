import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { conditionalWrite, getItem, type TransactItem, type Entity, itemOf, recordOf } from './core';
import { loginAttemptsKey, userKey } from './keys';

export interface User {
  userId: number;
  /** Lower-cased; the login name. */
  email: string;
  /** scrypt$N$r$p$salt$hash, see shared/oauth/passwords.ts. */
  passwordHash: string;
  hubIds: number[];
  createdAt: string;
  /** As the admin gave them (`user create --first-name --last-name`); users made before have none. */
  firstName?: string;
  lastName?: string;
}

const userItem: Entity<User> = { key: (user) => userKey(user.email) };

/** The user's item as one write of a transaction (with its owners, shared/db/owners.ts): it must not exist yet. */
export function newUserWrite(user: User): TransactItem {
  return {
    Put: { TableName: tableName, Item: itemOf(userItem, user), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const item = await getItem(userKey(email), false);
  return item ? recordOf(userItem, item) : undefined;
}

export interface LoginAttempts {
  failures: number;
  lockedUntilMs: number;
}

export async function findLoginAttempts(email: string): Promise<LoginAttempts> {
  const item = await getItem(loginAttemptsKey(email));
  return {
    failures: typeof item?.failures === 'number' ? item.failures : 0,
    lockedUntilMs: typeof item?.lockedUntilMs === 'number' ? item.lockedUntilMs : 0,
  };
}

/**
 * Reserves one login attempt with ONE conditional update, before the password is checked: the attempt
 * counts as a failure in advance and sets the lock that failure earns. The condition requires the count
 * that was read and an expired lock, so of parallel attempts that read the same state exactly one
 * reserves; false for the others (they read again and see the new count or lock).
 */
export async function reserveLoginAttempt(
  email: string,
  seenFailures: number,
  reserved: LoginAttempts,
  nowMs: number,
  ttlSeconds: number,
): Promise<boolean> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: loginAttemptsKey(email),
      UpdateExpression: 'SET failures = :failures, lockedUntilMs = :until, #ttl = :ttl',
      ConditionExpression:
        seenFailures === 0 ? 'attribute_not_exists(pk)' : 'failures = :seen AND lockedUntilMs <= :now',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':failures': reserved.failures,
        ':until': reserved.lockedUntilMs,
        ':ttl': ttlSeconds,
        ...(seenFailures === 0 ? {} : { ':seen': seenFailures, ':now': nowMs }),
      },
    }),
  );
  return outcome.written;
}

/**
 * A checked failure moves the lock to `untilMs`, only ever later: a late failure never shortens or
 * resets a longer lock, and never brings back attempts a successful login has cleared.
 */
export async function extendLoginLock(email: string, untilMs: number): Promise<void> {
  // A lock as long or longer fails the condition: nothing to do.
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: loginAttemptsKey(email),
      UpdateExpression: 'SET lockedUntilMs = :until',
      ConditionExpression: 'lockedUntilMs < :until',
      ExpressionAttributeValues: { ':until': untilMs },
    }),
  );
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: loginAttemptsKey(email) }));
}

/** Removes a user (a deleted test account's own user); false when there was none. */
export async function deleteUser(email: string): Promise<boolean> {
  const result = await db.send(
    new DeleteCommand({ TableName: tableName, Key: userKey(email), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes !== undefined;
}
