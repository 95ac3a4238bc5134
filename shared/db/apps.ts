import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { withoutKeys } from './item';
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

/** The put that creates an app; callers write it in one transaction with its owner. */
export function appRecordWrite(app: App) {
  return { Put: { TableName: tableName, Item: { ...appByClientKey(app.clientId), ...app }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

export async function findAppByClientId(clientId: string): Promise<App | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: appByClientKey(clientId) }));
  return result.Item ? withoutKeys<App>(result.Item) : undefined;
}
