import { getItem, type TransactItem, type Entity, itemOf, recordOf } from './core';
import { tableName } from './client';
import { appByClientKey, appRequestedScopesKey } from './keys';

export interface App {
  appId: number;
  clientId: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
  optionalScopes: string[];
  /** SHA-256 (hex) of the client secret; the secret itself is shown once and never stored. */
  clientSecretHash: string;
  /** The developer account that owns the app (absent on apps created before developer accounts existed). */
  developerId?: number;
  createdAt: string;
}

/** An app is found by its client id (the OAuth flows know nothing else). */
export const appItem: Entity<App> = { key: (app) => appByClientKey(app.clientId) };

/**
 * The puts that create an app: the app by client id, and the scopes it requests by app id (what
 * the webhooks API, which knows only the app id, checks a subscription against). Callers write
 * them in one transaction with the app's owner.
 */
export function appRecordWrites(app: App): TransactItem[] {
  return [
    { Put: { TableName: tableName, Item: itemOf(appItem, app), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName,
        Item: {
          ...appRequestedScopesKey(app.appId),
          appId: app.appId,
          // What leads from the app id to the app (an install made without the browser).
          clientId: app.clientId,
          scopes: app.scopes,
          optionalScopes: app.optionalScopes,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

export async function findAppByClientId(clientId: string): Promise<App | undefined> {
  const item = await getItem(appByClientKey(clientId), false);
  return item ? recordOf(appItem, item) : undefined;
}

/** Scopes an app requests: required ones and optional ones. */
export type RequestedScopes = Pick<App, 'scopes' | 'optionalScopes'>;

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * The scopes the app requests, by app id; undefined for an app created before they were kept by
 * app id (its record by client id holds them, but nothing leads from the app id to it).
 */
export async function findRequestedScopes(appId: number): Promise<RequestedScopes | undefined> {
  const item = await getItem(appRequestedScopesKey(appId), false);
  return item ? { scopes: stringsOf(item.scopes), optionalScopes: stringsOf(item.optionalScopes) } : undefined;
}

/** The app of this id, through its client id (undefined for an app created before the id led to it). */
export async function findAppById(appId: number): Promise<App | undefined> {
  const item = await getItem(appRequestedScopesKey(appId), false);
  return typeof item?.clientId === 'string' ? findAppByClientId(item.clientId) : undefined;
}
