import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { cancellationReasons, isConditionalCheckFailed, withoutKeys } from './item';
import { appByClientKey, authCodeKey, grantKey, installKey, refreshTokenKey, usedCodeKey } from './keys';
import type { App } from './apps';

export interface AuthCode {
  clientId: string;
  appId: number;
  redirectUri: string;
  hubId: number;
  hubDomain: string;
  userId: number;
  userEmail: string;
  scopes: string[];
  expiresAtSeconds: number;
  /** PKCE S256 challenge, when the install URL carried one. */
  codeChallenge?: string;
}

/** What an install grants; the refresh token and every access token minted from it point here. */
export interface Grant {
  grantId: string;
  appId: number;
  clientId: string;
  hubId: number;
  hubDomain: string;
  userId: number;
  userEmail: string;
  scopes: string[];
  createdAt: string;
}

/** The refresh token item carries its grant's fields, so the refresh grant needs no second read. */
export type RefreshToken = Omit<Grant, 'createdAt'>;

/** How long a used code's tombstone is kept to detect replays. */
const usedCodeRetentionSeconds = 24 * 3600;

export async function insertAuthCode(codeHash: string, code: AuthCode): Promise<void> {
  try {
    await db.send(new PutCommand({
      TableName: tableName,
      Item: { ...authCodeKey(codeHash), ...code, ttl: code.expiresAtSeconds },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  } catch (error) {
    // The hash of 256 random bits is found only by the SDK's retry of this same put, after the
    // first attempt succeeded and its answer was lost.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export async function findAuthCode(codeHash: string): Promise<AuthCode | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: authCodeKey(codeHash), ConsistentRead: true }));
  return result.Item ? withoutKeys<AuthCode>(result.Item) : undefined;
}

export type RedeemOutcome = 'redeemed' | 'already-used';

/**
 * Consumes a code and records its grant in one transaction. The conditional delete makes a
 * code single use even when requests race: exactly one transaction can delete it.
 */
export async function redeemAuthCode(
  codeHash: string, nowSeconds: number, grant: Grant, refreshTokenHash: string,
): Promise<RedeemOutcome> {
  const refresh: RefreshToken = {
    grantId: grant.grantId, appId: grant.appId, clientId: grant.clientId, hubId: grant.hubId,
    hubDomain: grant.hubDomain, userId: grant.userId, userEmail: grant.userEmail, scopes: grant.scopes,
  };
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        { Delete: {
          TableName: tableName, Key: authCodeKey(codeHash),
          ConditionExpression: 'attribute_exists(pk) AND expiresAtSeconds > :now AND clientId = :clientId',
          ExpressionAttributeValues: { ':now': nowSeconds, ':clientId': grant.clientId },
        } },
        { Put: { TableName: tableName, Item: { ...grantKey(grant.grantId), ...grant, refreshTokenHash }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: { ...refreshTokenKey(refreshTokenHash), ...refresh }, ConditionExpression: 'attribute_not_exists(pk)' } },
        // The tombstone remembers its client: only that client's replay may revoke what the code granted.
        { Put: { TableName: tableName, Item: { ...usedCodeKey(codeHash), refreshTokenHash, clientId: grant.clientId, ttl: nowSeconds + usedCodeRetentionSeconds } } },
        { Put: { TableName: tableName, Item: { ...installKey(grant.hubId, grant.appId), appId: grant.appId, hubId: grant.hubId, installedAt: grant.createdAt, scopes: grant.scopes } } },
      ],
    }));
    return 'redeemed';
  } catch (error) {
    const reasons = cancellationReasons(error);
    // ConditionalCheckFailed: gone or expired. TransactionConflict: another request is redeeming it now.
    if (reasons && reasons.some((reason) => reason === 'ConditionalCheckFailed' || reason === 'TransactionConflict')) return 'already-used';
    throw error;
  }
}

/**
 * RFC 6749 4.1.2: a replayed code revokes the refresh token issued from it, but only when the
 * client the code was issued to replays it. Another client holding the code (it passed through
 * the browser) must not be able to cut off the app; its replay changes nothing.
 */
export async function revokeTokensOfUsedCode(codeHash: string, clientId: string): Promise<boolean> {
  const used = await db.send(new GetCommand({ TableName: tableName, Key: usedCodeKey(codeHash), ConsistentRead: true }));
  const refreshTokenHash = used.Item?.refreshTokenHash;
  if (typeof refreshTokenHash !== 'string' || used.Item?.clientId !== clientId) return false;
  try {
    await db.send(new DeleteCommand({
      TableName: tableName, Key: refreshTokenKey(refreshTokenHash),
      ConditionExpression: 'clientId = :clientId', ExpressionAttributeValues: { ':clientId': clientId },
    }));
  } catch (error) {
    // Already revoked (deleted), or somehow another client's token: nothing to revoke.
    if (!isConditionalCheckFailed(error)) throw error;
  }
  return true;
}

/** One round trip for the refresh grant: the token and the app whose secret must match. */
export async function findRefreshTokenWithApp(tokenHash: string, clientId: string): Promise<{ refreshToken?: RefreshToken; app?: App }> {
  const tokenKey = refreshTokenKey(tokenHash);
  const clientKey = appByClientKey(clientId);
  let keys: Record<string, unknown>[] = [{ ...tokenKey }, { ...clientKey }];
  const found: Record<string, unknown>[] = [];
  // BatchGetItem may return unprocessed keys under load; retry them with a short backoff.
  for (let attempt = 0; keys.length > 0 && attempt < 5; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }));
    found.push(...(result.Responses?.[tableName] ?? []));
    keys = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  if (keys.length > 0) throw Object.assign(new Error('unprocessed keys after retries'), { name: 'ThrottlingException' });
  const tokenItem = found.find((item) => item.pk === tokenKey.pk);
  const appItem = found.find((item) => item.pk === clientKey.pk);
  return {
    refreshToken: tokenItem ? withoutKeys<RefreshToken>(tokenItem) : undefined,
    app: appItem ? withoutKeys<App>(appItem) : undefined,
  };
}

export async function findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: refreshTokenKey(tokenHash), ConsistentRead: true }));
  return result.Item ? withoutKeys<RefreshToken>(result.Item) : undefined;
}

/** Returns false when there was no such token. */
export async function deleteRefreshToken(tokenHash: string): Promise<boolean> {
  const result = await db.send(new DeleteCommand({ TableName: tableName, Key: refreshTokenKey(tokenHash), ReturnValues: 'ALL_OLD' }));
  return result.Attributes !== undefined;
}

/** The grant item also names its refresh token's hash, so revoking by access token can delete both. */
export type StoredGrant = Grant & { refreshTokenHash?: string };

export async function findGrant(grantId: string): Promise<StoredGrant | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: grantKey(grantId), ConsistentRead: true }));
  return result.Item ? withoutKeys<StoredGrant>(result.Item) : undefined;
}

/**
 * RFC 7009 revocation of a whole grant: its refresh token and the grant record go together, so the
 * refresh grant fails and every access token of the grant introspects inactive. Idempotent.
 */
export async function revokeGrant(grantId: string, refreshTokenHash: string | undefined): Promise<void> {
  await db.send(new TransactWriteCommand({
    TransactItems: [
      { Delete: { TableName: tableName, Key: grantKey(grantId) } },
      ...(refreshTokenHash ? [{ Delete: { TableName: tableName, Key: refreshTokenKey(refreshTokenHash) } }] : []),
    ],
  }));
}

export async function isAppInstalled(hubId: number, appId: number): Promise<boolean> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: installKey(hubId, appId) }));
  return result.Item !== undefined;
}
