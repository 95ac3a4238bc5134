import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { withoutKeys } from './item';
import { appByClientKey, appByIdKey } from './keys';

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

/** The two puts that create an app (by client id and by app id); callers write them in one transaction with their owner. */
export function appRecordWrites(app: App) {
  return [
    { Put: { TableName: tableName, Item: { ...appByClientKey(app.clientId), ...app }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: {
      TableName: tableName, Item: { ...appByIdKey(app.appId), appId: app.appId, clientId: app.clientId, ...(app.developerId === undefined ? {} : { developerId: app.developerId }) },
      ConditionExpression: 'attribute_not_exists(pk)',
    } },
  ];
}


export async function findAppByClientId(clientId: string): Promise<App | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: appByClientKey(clientId) }));
  return result.Item ? withoutKeys<App>(result.Item) : undefined;
}

export async function findAppById(appId: number): Promise<App | undefined> {
  const pointer = await db.send(new GetCommand({ TableName: tableName, Key: appByIdKey(appId) }));
  const clientId = pointer.Item?.clientId;
  return typeof clientId === 'string' ? findAppByClientId(clientId) : undefined;
}
