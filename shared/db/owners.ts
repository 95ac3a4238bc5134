import { tableName } from './client';
import {
  getItem,
  maxTransactionItems,
  queryPage,
  transact,
  type Item,
  type RoleWrite,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { ownerKey, ownerOfUserKey, ownerPrefix, hubPartition } from './keys';
import { newUserWrite, type User } from './users';

/**
 * An owner: one user of one account (HubSpot's PublicOwner of type PERSON). A user of two accounts
 * is two owners with two ids. Written with the user, in the same transaction.
 */
export interface Owner {
  ownerId: number;
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

const ownerItem: Entity<Owner, number> = { key: (owner, hubId) => ownerKey(hubId, owner.ownerId) };

/** The user item and, per account, the owner and the user's pointer to it: 1 + 2 per account in one transaction (rounded down). */
export const maxAccountsPerNewUser = (maxTransactionItems - 1) >> 1;

/**
 * Creates a user with its owners (one per account it belongs to) all or nothing. 'email-taken' when
 * a user with that email exists; owner ids are fresh, so their conditions only guard against a bug.
 */
export async function insertUserWithOwners(
  user: User,
  owners: readonly { hubId: number; owner: Owner }[],
): Promise<'created' | 'email-taken'> {
  if (owners.length > maxAccountsPerNewUser)
    throw new Error(`a user of ${owners.length} accounts does not fit one transaction`);
  const writes: RoleWrite<'user' | 'owner'>[] = [{ role: 'user', write: newUserWrite(user) }];
  for (const { hubId, owner } of owners) {
    writes.push({
      role: 'owner',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(ownerItem, owner, hubId),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    });
    writes.push({
      role: 'owner',
      write: {
        Put: {
          TableName: tableName,
          Item: { ...ownerOfUserKey(hubId, owner.userId), ownerId: owner.ownerId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    });
  }
  const outcome = await transact(writes);
  if (outcome.committed) return 'created';
  if (outcome.reasons.some((reason) => reason.role === 'user' && reason.code === 'ConditionalCheckFailed'))
    return 'email-taken';
  throw outcome.error;
}

export async function findOwner(hubId: number, ownerId: number): Promise<Owner | undefined> {
  const item = await getItem(ownerKey(hubId, ownerId), false);
  return item ? recordOf(ownerItem, item) : undefined;
}

/** The owner a user is in an account (`idProperty=userId`): its pointer, then the owner. */
export async function findOwnerOfUser(hubId: number, userId: number): Promise<Owner | undefined> {
  const pointer = await getItem(ownerOfUserKey(hubId, userId), false);
  return typeof pointer?.ownerId === 'number' ? findOwner(hubId, pointer.ownerId) : undefined;
}

export interface OwnerPageQuery {
  /** Owners with a greater id only (the previous page's last). */
  afterOwnerId?: number;
  limit: number;
  /** Only the owner with this (lower-cased) email. */
  email?: string;
  isArchived: boolean;
}

/**
 * A page of an account's owners in id order, and whether more follow. Without an email one Query
 * (limit + 1 items tells whether there are more); a filter may take more, each reading on from the last.
 */
export async function listOwnerPage(
  hubId: number,
  query: OwnerPageQuery,
): Promise<{ owners: Owner[]; hasMore: boolean }> {
  const filter = query.email === undefined ? 'archived = :archived' : 'archived = :archived AND email = :email';
  const values: Item = {
    ':archived': query.isArchived,
    ...(query.email === undefined ? {} : { ':email': query.email }),
  };
  const owners: Owner[] = [];
  let startKey: Item | undefined =
    query.afterOwnerId === undefined ? undefined : { ...ownerKey(hubId, query.afterOwnerId) };
  do {
    const page = await queryPage(
      { pk: hubPartition(hubId), skPrefix: ownerPrefix, filter, values, pageSize: query.limit + 1 - owners.length },
      startKey,
    );
    owners.push(...page.items.map((item) => recordOf(ownerItem, item)));
    startKey = page.nextKey;
  } while (startKey && owners.length <= query.limit);
  return { owners: owners.slice(0, query.limit), hasMore: owners.length > query.limit };
}
