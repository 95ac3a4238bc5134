import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { appRecordWrites, type App } from './apps';
import { db, tableName } from './client';
import { developerApiKeyKey, developerKey } from './keys';

/** A developer account: it owns apps and manages, with its API key, what belongs to them for every installing account. */
export interface Developer {
  developerId: number;
  /** SHA-256 (hex) of the developer API key; the key itself is shown once and never stored. */
  apiKeyHash: string;
  createdAt: string;
}

/** What a presented developer API key unlocks: found by the key's hash in one GetItem. */
export interface DeveloperApiKey {
  developerId: number;
  apiKeyHash: string;
  appIds: number[];
}

function numbersOf(value: unknown): number[] {
  if (value instanceof Set) return [...value].filter((item): item is number => typeof item === 'number');
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
}

function developerWrites(developer: Developer, appIds: readonly number[]) {
  return [
    { Put: { TableName: tableName, Item: { ...developerKey(developer.developerId), ...developer }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: {
      TableName: tableName,
      Item: { ...developerApiKeyKey(developer.apiKeyHash), developerId: developer.developerId, apiKeyHash: developer.apiKeyHash, appIds: new Set(appIds) },
      ConditionExpression: 'attribute_not_exists(pk)',
    } },
  ];
}

/** A new developer account, its key and its first app, all or nothing. */
export async function insertDeveloperWithApp(developer: Developer, app: App): Promise<void> {
  await db.send(new TransactWriteCommand({ TransactItems: [...developerWrites(developer, [app.appId]), ...appRecordWrites(app)] }));
}

/**
 * A new developer account for apps that exist without one (created before developer accounts
 * existed, e.g. a persisted `npm start --data-dir` demo): its key manages exactly these apps.
 */
export async function insertDeveloperOfExistingApps(developer: Developer, appIds: readonly number[]): Promise<void> {
  await db.send(new TransactWriteCommand({ TransactItems: developerWrites(developer, appIds) }));
}

/** Another app of an existing developer account: the app records and the key's app list, all or nothing. */
export async function insertAppOfDeveloper(developer: Developer, app: App): Promise<void> {
  await db.send(new TransactWriteCommand({
    TransactItems: [
      { Update: {
        TableName: tableName, Key: developerApiKeyKey(developer.apiKeyHash), UpdateExpression: 'ADD appIds :app',
        ConditionExpression: 'attribute_exists(pk) AND developerId = :developer',
        ExpressionAttributeValues: { ':app': new Set([app.appId]), ':developer': developer.developerId },
      } },
      ...appRecordWrites(app),
    ],
  }));
}

export async function findDeveloper(developerId: number): Promise<Developer | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: developerKey(developerId), ConsistentRead: true }));
  const item = result.Item;
  return item ? { developerId: item.developerId as number, apiKeyHash: item.apiKeyHash as string, createdAt: item.createdAt as string } : undefined;
}

export async function findDeveloperApiKey(apiKeyHash: string): Promise<DeveloperApiKey | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: developerApiKeyKey(apiKeyHash) }));
  const item = result.Item;
  if (!item || typeof item.developerId !== 'number' || typeof item.apiKeyHash !== 'string') return undefined;
  return { developerId: item.developerId, apiKeyHash: item.apiKeyHash, appIds: numbersOf(item.appIds) };
}
