import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { appItem, type App } from './apps';
import { db, tableName } from './client';
import {
  batchGetAll,
  conditionalWrite,
  getItem,
  transact,
  transactAll,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { appByClientKey, appGrantKey, authCodeKey, grantKey, installKey, refreshTokenKey, usedCodeKey } from './keys';

export interface AuthCode {
  clientId: string;
  appId: number;
  redirectUri: string;
  hubId: number;
  hubDomain: string;
  userId: number;
  userEmail: string;
  scopes: string[];
  /** When consent was given (absent on codes issued before it was recorded): a code older than an install's end cannot install again. */
  issuedAtMs?: number;
  expiresAtSeconds: number;
  /** PKCE S256 challenge, when the install URL carried one. */
  codeChallenge?: string;
  /** A shorter access-token lifetime (an install made by the sandbox controls); the grant keeps it. */
  accessTokenLifetimeSeconds?: number;
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
  /** The install generation it was issued in (shared/db/install-states.ts); absent for the first. */
  installGeneration?: string;
  /** Access tokens minted from this grant live this long (absent: the standard 1800 s). */
  accessTokenLifetimeSeconds?: number;
}

/** The refresh token item carries its grant's fields, so the refresh grant needs no second read. */
export type RefreshToken = Omit<Grant, 'createdAt'>;

/** The code item is keyed by the code's hash (the code itself is never stored) and expires with it. */
const authCodeItem: Entity<AuthCode, string> = { key: (_, codeHash) => authCodeKey(codeHash) };
const grantItem: Entity<StoredGrant> = { key: (grant) => grantKey(grant.grantId) };
const refreshTokenItem: Entity<RefreshToken, string> = {
  key: (_, tokenHash) => refreshTokenKey(tokenHash),
};

/** How long a used code's tombstone is kept to detect replays. */
const usedCodeRetentionSeconds = 24 * 3600;

export async function insertAuthCode(codeHash: string, code: AuthCode): Promise<void> {
  // A failed condition: the hash of 256 random bits is found only by the SDK's retry of this same
  // put, after the first attempt succeeded and its answer was lost.
  await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: { ...itemOf(authCodeItem, code, codeHash), ttl: code.expiresAtSeconds },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findAuthCode(codeHash: string): Promise<AuthCode | undefined> {
  const item = await getItem(authCodeKey(codeHash));
  return item ? recordOf(authCodeItem, item) : undefined;
}

/** 'install-changed': the install's state changed since it was read (ended, or installed again); nothing was written. */
export type RedeemOutcome = 'redeemed' | 'already-used' | 'install-changed';

/**
 * Consumes a code and records its grant in one transaction. The conditional delete makes a
 * code single use even when requests race: exactly one transaction can delete it.
 * `installState` (installGenerationWrite) holds the install to the state the grant's generation was chosen from.
 */
export async function redeemAuthCode(
  codeHash: string,
  nowSeconds: number,
  grant: Grant,
  refreshTokenHash: string,
  installState: TransactItem,
): Promise<RedeemOutcome> {
  const { createdAt, ...refresh } = grant;
  void createdAt;
  const outcome = await transact([
    {
      role: 'code',
      write: {
        Delete: {
          TableName: tableName,
          Key: authCodeKey(codeHash),
          ConditionExpression: 'attribute_exists(pk) AND expiresAtSeconds > :now AND clientId = :clientId',
          ExpressionAttributeValues: { ':now': nowSeconds, ':clientId': grant.clientId },
        },
      },
    },
    {
      role: 'grant',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(grantItem, { ...grant, refreshTokenHash }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'refreshToken',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(refreshTokenItem, refresh, refreshTokenHash),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    // The tombstone remembers its client: only that client's replay may revoke what the code granted.
    {
      role: 'tombstone',
      write: {
        Put: {
          TableName: tableName,
          Item: {
            ...usedCodeKey(codeHash),
            refreshTokenHash,
            clientId: grant.clientId,
            grantId: grant.grantId,
            hubId: grant.hubId,
            appId: grant.appId,
            ttl: nowSeconds + usedCodeRetentionSeconds,
          },
        },
      },
    },
    {
      role: 'install',
      write: {
        Put: {
          TableName: tableName,
          Item: {
            ...installKey(grant.hubId, grant.appId),
            appId: grant.appId,
            hubId: grant.hubId,
            installedAt: grant.createdAt,
            scopes: grant.scopes,
          },
        },
      },
    },
    { role: 'installState', write: installState },
  ]);
  if (outcome.committed) return 'redeemed';
  // ConditionalCheckFailed: gone or expired. TransactionConflict: another request is redeeming it now.
  const failed = (role: string) =>
    outcome.reasons.some(
      (reason) =>
        reason.role === role && (reason.code === 'ConditionalCheckFailed' || reason.code === 'TransactionConflict'),
    );
  if (failed('code')) return 'already-used';
  if (failed('installState')) return 'install-changed';
  throw outcome.error;
}

/** What a used code was redeemed for, as its tombstone remembers it. */
export interface UsedCode {
  refreshTokenHash: string;
  /** Absent for a tombstone written before it named its grant, once that grant's refresh token is gone too. */
  grant?: { grantId: string; hubId: number; appId: number };
}

/**
 * RFC 6749 4.1.2: a replayed code revokes what was issued from it, but only when the client the
 * code was issued to replays it. Another client holding the code (it passed through the browser)
 * must not be able to cut off the app: for it, as for an unknown code, this is undefined.
 */
export async function findUsedCode(codeHash: string, clientId: string): Promise<UsedCode | undefined> {
  const used = await getItem(usedCodeKey(codeHash));
  const refreshTokenHash = used?.refreshTokenHash;
  if (typeof refreshTokenHash !== 'string' || used?.clientId !== clientId) return undefined;
  if (typeof used.grantId === 'string' && typeof used.hubId === 'number' && typeof used.appId === 'number') {
    return { refreshTokenHash, grant: { grantId: used.grantId, hubId: used.hubId, appId: used.appId } };
  }
  // A tombstone written before it named its grant: the refresh token names it, while it lives.
  const refresh = await findRefreshToken(refreshTokenHash);
  return refresh && refresh.clientId === clientId
    ? { refreshTokenHash, grant: { grantId: refresh.grantId, hubId: refresh.hubId, appId: refresh.appId } }
    : { refreshTokenHash };
}

/** One round trip for the refresh grant: the token and the app whose secret must match. */
export async function findRefreshTokenWithApp(
  tokenHash: string,
  clientId: string,
): Promise<{ refreshToken?: RefreshToken; app?: App }> {
  const tokenKey = refreshTokenKey(tokenHash);
  const clientKey = appByClientKey(clientId);
  const found = await batchGetAll([tokenKey, clientKey]);
  const tokenItem = found.find((item) => item.pk === tokenKey.pk);
  const clientItem = found.find((item) => item.pk === clientKey.pk);
  return {
    refreshToken: tokenItem ? recordOf(refreshTokenItem, tokenItem) : undefined,
    app: clientItem ? recordOf(appItem, clientItem) : undefined,
  };
}

export async function findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined> {
  const item = await getItem(refreshTokenKey(tokenHash));
  return item ? recordOf(refreshTokenItem, item) : undefined;
}

/** Returns false when there was no such token. */
export async function deleteRefreshToken(tokenHash: string): Promise<boolean> {
  const result = await db.send(
    new DeleteCommand({ TableName: tableName, Key: refreshTokenKey(tokenHash), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes !== undefined;
}

/** The grant item also names its refresh token's hash, so revoking by access token can delete both. */
export type StoredGrant = Grant & { refreshTokenHash?: string };

export async function findGrant(grantId: string): Promise<StoredGrant | undefined> {
  const item = await getItem(grantKey(grantId));
  return item ? recordOf(grantItem, item) : undefined;
}

/**
 * RFC 7009 revocation of a whole grant: its refresh token and the grant record go together, so the
 * refresh grant fails and every access token of the grant introspects inactive. Idempotent.
 */
export async function revokeGrant(grantId: string, refreshTokenHash: string | undefined): Promise<void> {
  await transactAll([
    { Delete: { TableName: tableName, Key: grantKey(grantId) } },
    ...(refreshTokenHash ? [{ Delete: { TableName: tableName, Key: refreshTokenKey(refreshTokenHash) } }] : []),
  ]);
}

export async function isAppInstalled(hubId: number, appId: number): Promise<boolean> {
  return (await getItem(installKey(hubId, appId), false)) !== undefined;
}

/** What the client-credentials grant issued one app token for: the app itself, no account. */
export interface AppGrant {
  grantId: string;
  appId: number;
  clientId: string;
  scopes: string[];
  createdAt: string;
  expiresAtSeconds: number;
}

const appGrantItem: Entity<AppGrant> = { key: (grant) => appGrantKey(grant.grantId) };

/** Kept until its token expires (TTL removes it a while later; readers check the expiry themselves). */
export async function insertAppGrant(grant: AppGrant): Promise<void> {
  await db.send(
    new PutCommand({ TableName: tableName, Item: { ...itemOf(appGrantItem, grant), ttl: grant.expiresAtSeconds } }),
  );
}

export async function findAppGrant(grantId: string): Promise<AppGrant | undefined> {
  const item = await getItem(appGrantKey(grantId));
  return item ? recordOf(appGrantItem, item) : undefined;
}

/** RFC 7009 revocation of an app token: its record goes, so it introspects inactive and is refused. Idempotent. */
export async function deleteAppGrant(grantId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: appGrantKey(grantId) }));
}
