import { entity, getItem, type TransactItem } from './core';
import { tableName } from './client';
import { appByClientKey } from './keys';

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
export const appItem = /* @__PURE__ */ entity<App>({ key: (app) => appByClientKey(app.clientId) });

/** The put that creates an app; callers write it in one transaction with its owner. */
export function appRecordWrite(app: App): TransactItem {
  return { Put: { TableName: tableName, Item: appItem.item(app), ConditionExpression: 'attribute_not_exists(pk)' } };
}

export async function findAppByClientId(clientId: string): Promise<App | undefined> {
  const item = await getItem(appByClientKey(clientId), false);
  return item ? appItem.read(item) : undefined;
}
