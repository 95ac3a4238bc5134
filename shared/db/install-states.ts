import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import {
  ExpressionPlaceholders,
  getItem,
  transact,
  type Item,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { installKey, installStateKey } from './keys';

/**
 * Whether the install of an app in an account stands, and which install it is. The item exists only
 * once something happened to the first install: it was ended (uninstalled), or a grant of it was
 * revoked for a replayed code. No item means the first install, never ended.
 *
 * An ended install: this item has `endedAt`, and the install record in the account's partition
 * (installKey, which the webhook pipeline and isAppInstalled read) is deleted in the same transaction.
 * Installing again writes a new `generation`; the ended generation's tokens never match it.
 */
export interface InstallState {
  hubId: number;
  appId: number;
  /**
   * '' for the first install of the app in the account, a new random id for each install after an end.
   * Access tokens, grants and refresh tokens carry the generation they were issued in.
   */
  generation: string;
  /** When the install was ended: no token of this generation works any more. */
  endedAt?: string;
  /**
   * Grants revoked for a replayed code (RFC 6749 4.1.2), each to the epoch second after which none of
   * its access tokens can still be unexpired (the entry may go then).
   */
  revokedGrants?: Record<string, number>;
}

const stateItem: Entity<InstallState> = {
  key: (state) => installStateKey(state.hubId, state.appId),
  read: (item) => ({
    hubId: Number(item.hubId),
    appId: Number(item.appId),
    generation: typeof item.generation === 'string' ? item.generation : '',
    ...(typeof item.endedAt === 'string' ? { endedAt: item.endedAt } : {}),
    ...(typeof item.revokedGrants === 'object' && item.revokedGrants !== null
      ? { revokedGrants: item.revokedGrants as Record<string, number> }
      : {}),
  }),
};

/** Strongly consistent: a token minted a moment ago must find the install it was minted for. */
export async function findInstallState(hubId: number, appId: number): Promise<InstallState | undefined> {
  const item = await getItem(installStateKey(hubId, appId));
  return item ? recordOf(stateItem, item) : undefined;
}

/**
 * The write that binds a code redemption to the install state it read: the state must still be what
 * was read (no end, no new install in between), and an ended install starts `generation`. Fails its
 * condition when the state changed; the redemption then reads it again.
 */
export function installGenerationWrite(
  hubId: number,
  appId: number,
  read: InstallState | undefined,
  generation: string,
): TransactItem {
  const key = installStateKey(hubId, appId);
  if (!read)
    return { ConditionCheck: { TableName: tableName, Key: key, ConditionExpression: 'attribute_not_exists(pk)' } };
  if (read.endedAt === undefined) {
    return {
      ConditionCheck: {
        TableName: tableName,
        Key: key,
        ConditionExpression: '#generation = :generation AND attribute_not_exists(endedAt)',
        ExpressionAttributeNames: { '#generation': 'generation' },
        ExpressionAttributeValues: { ':generation': read.generation },
      },
    };
  }
  return {
    Put: {
      TableName: tableName,
      Item: itemOf(stateItem, { hubId, appId, generation }),
      ConditionExpression: 'endedAt = :endedAt',
      ExpressionAttributeValues: { ':endedAt': read.endedAt },
    },
  };
}

export type EndOutcome = 'ended' | 'not-live';

/**
 * Ends the install of `generation`, in one transaction: the state says ended (so every token of the
 * generation fails, refresh tokens at once) and the install record goes (so webhooks stop and the
 * account no longer lists the app). 'not-live' when that generation had already ended or been replaced.
 */
export async function endInstall(
  hubId: number,
  appId: number,
  generation: string,
  endedAt: string,
): Promise<EndOutcome> {
  const live = '#generation = :generation AND attribute_not_exists(endedAt)';
  const outcome = await transact<'state' | 'install'>([
    {
      role: 'state',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(stateItem, { hubId, appId, generation, endedAt }),
          // The first generation has no item until something happens to it.
          ConditionExpression: generation === '' ? `attribute_not_exists(pk) OR (${live})` : live,
          ExpressionAttributeNames: { '#generation': 'generation' },
          ExpressionAttributeValues: { ':generation': generation },
        },
      },
    },
    { role: 'install', write: { Delete: { TableName: tableName, Key: installKey(hubId, appId) } } },
  ]);
  if (outcome.committed) return 'ended';
  if (outcome.reasons.some((reason) => reason.role === 'state' && reason.code === 'ConditionalCheckFailed'))
    return 'not-live';
  throw outcome.error;
}

/** At most this many expired entries are dropped per revocation (each names one map entry in the update). */
const maxPrunedPerRevocation = 50;

/**
 * Marks a grant revoked in its install's state, so API calls with its unexpired access tokens fail;
 * drops entries whose tokens have all expired. Two updates: the map must exist before an entry can
 * be set in it (the first is idempotent and returns what is there), then the entry.
 */
export async function revokeInstallGrant(
  hubId: number,
  appId: number,
  grantId: string,
  untilSeconds: number,
  nowSeconds: number,
): Promise<void> {
  const key = installStateKey(hubId, appId);
  const ensured = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression:
        'SET hubId = :hubId, appId = :appId, #generation = if_not_exists(#generation, :first), revokedGrants = if_not_exists(revokedGrants, :none)',
      ExpressionAttributeNames: { '#generation': 'generation' },
      ExpressionAttributeValues: { ':hubId': hubId, ':appId': appId, ':first': '', ':none': {} },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const current = (ensured.Attributes?.revokedGrants ?? {}) as Item;
  const expired = Object.entries(current)
    .filter(([id, until]) => id !== grantId && typeof until === 'number' && until <= nowSeconds)
    .slice(0, maxPrunedPerRevocation)
    .map(([id]) => id);
  const placeholders = new ExpressionPlaceholders();
  const removes = expired.map((id) => `revokedGrants.${placeholders.name(id)}`);
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET revokedGrants.#grant = :until${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ...placeholders.attributes({ names: { '#grant': grantId }, values: { ':until': untilSeconds } }),
    }),
  );
}
