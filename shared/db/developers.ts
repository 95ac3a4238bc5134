import { appRecordWrites, type App } from './apps';
import { tableName } from './client';
import { getItem, transactAll, type Item, type TransactItem, type Entity, itemOf, recordOf } from './core';
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

const developerItem: Entity<Developer> = {
  key: (developer) => developerKey(developer.developerId),
  read: (item) => ({
    developerId: item.developerId as number,
    apiKeyHash: item.apiKeyHash as string,
    createdAt: item.createdAt as string,
  }),
};

/** The key's item: its app ids are a number set, so adding an app is one ADD. */
const apiKeyItemOf = (key: DeveloperApiKey): Item => ({
  ...developerApiKeyKey(key.apiKeyHash),
  developerId: key.developerId,
  apiKeyHash: key.apiKeyHash,
  appIds: new Set(key.appIds),
});

const apiKeyOf = (item: Item): DeveloperApiKey | undefined =>
  typeof item.developerId !== 'number' || typeof item.apiKeyHash !== 'string'
    ? undefined
    : { developerId: item.developerId, apiKeyHash: item.apiKeyHash, appIds: numbersOf(item.appIds) };

function developerWrites(developer: Developer, appIds: readonly number[]): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: itemOf(developerItem, developer),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: apiKeyItemOf({
          developerId: developer.developerId,
          apiKeyHash: developer.apiKeyHash,
          appIds: [...appIds],
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** A new developer account, its key and its first app (with `extra` writes of the app, e.g. its webhook signing secret), all or nothing. */
export async function insertDeveloperWithApp(
  developer: Developer,
  app: App,
  extra: readonly TransactItem[] = [],
): Promise<void> {
  await transactAll([...developerWrites(developer, [app.appId]), ...appRecordWrites(app), ...extra]);
}

/**
 * A new developer account for apps that exist without one (created before developer accounts
 * existed, e.g. a persisted `npm start --data-dir` demo): its key manages exactly these apps.
 */
export async function insertDeveloperOfExistingApps(developer: Developer, appIds: readonly number[]): Promise<void> {
  await transactAll(developerWrites(developer, appIds));
}

/** Another app of an existing developer account: the app records and the key's app list, all or nothing. */
export async function insertAppOfDeveloper(
  developer: Developer,
  app: App,
  extra: readonly TransactItem[] = [],
): Promise<void> {
  await transactAll([
    {
      Update: {
        TableName: tableName,
        Key: developerApiKeyKey(developer.apiKeyHash),
        UpdateExpression: 'ADD appIds :app',
        ConditionExpression: 'attribute_exists(pk) AND developerId = :developer',
        ExpressionAttributeValues: { ':app': new Set([app.appId]), ':developer': developer.developerId },
      },
    },
    ...appRecordWrites(app),
    ...extra,
  ]);
}

export async function findDeveloper(developerId: number): Promise<Developer | undefined> {
  const item = await getItem(developerKey(developerId));
  return item ? recordOf(developerItem, item) : undefined;
}

export async function findDeveloperApiKey(apiKeyHash: string): Promise<DeveloperApiKey | undefined> {
  const item = await getItem(developerApiKeyKey(apiKeyHash), false);
  return item ? apiKeyOf(item) : undefined;
}
