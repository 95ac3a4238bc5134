import { accountItemOf, type Account } from './accounts';
import { tableName } from './client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, getItem, queryAll, transact, type Entity, itemOf, recordOf } from './core';
import { developerKey, testAccountKey, testAccountPrefix } from './keys';

/** A developer account creates at most this many test accounts (HubSpot's limit for developer test accounts). */
export const maxTestAccountsPerDeveloper = 10;

/** What a developer's listing holds of each of its test accounts (the account item is the truth). */
export interface TestAccountLink {
  hubId: number;
  domain: string;
  name: string;
  createdAt: string;
  developerId: number;
  /** Set when a delete of the account started: from then on its controls refuse it (the delete goes on). */
  endingAt?: string;
}

const linkItem: Entity<TestAccountLink> = {
  key: (link) => testAccountKey(link.developerId, link.hubId),
  read: (item) => ({
    hubId: item.hubId as number,
    domain: item.domain as string,
    name: item.name as string,
    createdAt: item.createdAt as string,
    developerId: item.developerId as number,
    ...(typeof item.endingAt === 'string' ? { endingAt: item.endingAt } : {}),
  }),
};

export type InsertTestAccountOutcome = 'created' | 'limit-reached' | 'no-developer';

/**
 * The account, its link in the developer's listing and the developer's count, all or nothing: the
 * count's condition holds the cap under concurrent creates (an 11th create fails its condition).
 */
export async function insertTestAccount(
  account: Account & { developerId: number; name: string },
): Promise<InsertTestAccountOutcome> {
  const outcome = await transact([
    {
      role: 'count',
      write: {
        Update: {
          TableName: tableName,
          Key: developerKey(account.developerId),
          UpdateExpression: 'ADD testAccounts :one',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(testAccounts) OR testAccounts < :max)',
          ExpressionAttributeValues: { ':one': 1, ':max': maxTestAccountsPerDeveloper },
        },
      },
    },
    {
      role: 'account',
      write: {
        Put: { TableName: tableName, Item: accountItemOf(account), ConditionExpression: 'attribute_not_exists(pk)' },
      },
    },
    {
      role: 'link',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(linkItem, {
            hubId: account.hubId,
            domain: account.domain,
            name: account.name,
            createdAt: account.createdAt,
            developerId: account.developerId,
          }),
        },
      },
    },
  ]);
  if (outcome.committed) return 'created';
  if (outcome.reasons.some((reason) => reason.role === 'count' && reason.code === 'ConditionalCheckFailed')) {
    // The developer item exists for every developer API key; a failed condition is the cap unless it vanished.
    const developer = await getItem(developerKey(account.developerId));
    return developer ? 'limit-reached' : 'no-developer';
  }
  throw outcome.error;
}

/** The developer's test accounts, in hub id order (at most the cap: one Query page). */
export async function listTestAccounts(developerId: number): Promise<TestAccountLink[]> {
  return (await queryAll(developerKey(developerId).pk, testAccountPrefix)).map((item) => recordOf(linkItem, item));
}

/** The developer's test account of this hub id, or undefined (another developer's, a standard account, none). */
export async function findTestAccount(developerId: number, hubId: number): Promise<TestAccountLink | undefined> {
  const item = await getItem(testAccountKey(developerId, hubId));
  return item ? recordOf(linkItem, item) : undefined;
}

/**
 * Marks the link as ending (a delete started), keeping the first mark of an unfinished delete: one
 * conditional write, so a control that reads the link after it sees the mark. False when there is no link.
 */
export async function markTestAccountEnding(developerId: number, hubId: number, endingAt: string): Promise<boolean> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: testAccountKey(developerId, hubId),
      UpdateExpression: 'SET endingAt = if_not_exists(endingAt, :endingAt)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':endingAt': endingAt },
    }),
  );
  return outcome.written;
}

/** Takes the test account off its developer's listing and count (after its items are gone); false when it was not there. */
export async function removeTestAccountLink(developerId: number, hubId: number): Promise<boolean> {
  const outcome = await transact([
    {
      role: 'link',
      write: {
        Delete: {
          TableName: tableName,
          Key: testAccountKey(developerId, hubId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'count',
      write: {
        Update: {
          TableName: tableName,
          Key: developerKey(developerId),
          UpdateExpression: 'ADD testAccounts :minusOne',
          ConditionExpression: 'attribute_exists(pk) AND testAccounts > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      },
    },
  ]);
  if (outcome.committed) return true;
  if (outcome.reasons.some((reason) => reason.role === 'link' && reason.code === 'ConditionalCheckFailed'))
    return false;
  throw outcome.error;
}
