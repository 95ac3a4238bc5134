import { advanceClock, freezeClock, nowMs, nowSeconds, resetClock } from '../../../shared/base/clock';
import { dynamoCallCounter } from '../../../shared/db/client';
import { transactAll } from '../../../shared/db/core';
import {
  endInstall,
  findInstallState,
  installGenerationWrite,
  revokeInstallGrant,
} from '../../../shared/db/install-states';
import {
  forgetInstallState,
  installStateMaxAgeMs,
  standingIn,
  standingOfAccessToken,
} from '../../../shared/oauth/install-status';
import '../../support/harness';

/**
 * The install check of every access-token call (shared/http/auth.ts) reads the install state through
 * a per-instance cache. "Another instance" here is a write to the table that this process's cache
 * did not see: the end, the new install or the revocation goes straight to DynamoDB Local.
 */
let nextHub = 900_000_000 + (process.pid % 10_000) * 1000;
/** An app in an account no other test uses (no install record needed: the state alone decides). */
const freshInstall = () => {
  nextHub += 1;
  return { hubId: nextHub, appId: 7 };
};
const tokenOf = (
  install: { hubId: number; appId: number },
  fields: { grantId?: string; installGeneration?: string; issuedAtSeconds?: number } = {},
) => ({
  ...install,
  grantId: fields.grantId ?? 'grant-a',
  issuedAtSeconds: fields.issuedAtSeconds ?? nowSeconds(),
  ...(fields.installGeneration === undefined ? {} : { installGeneration: fields.installGeneration }),
});
const getItemCalls = () => dynamoCallCounter.calls.get('GetItemCommand') ?? 0;

beforeEach(() => {
  freezeClock();
  forgetInstallState();
  dynamoCallCounter.reset();
});

afterEach(() => {
  resetClock();
});

describe('standingIn', () => {
  const state = { hubId: 1, appId: 2, generation: 'gen1' };

  it.each([
    ['no state, first-generation token', undefined, '', 'grant-a', 'live'],
    ['no state, token of a later generation', undefined, 'gen1', 'grant-a', 'ended'],
    ['the current generation', state, 'gen1', 'grant-a', 'live'],
    ['an earlier generation', state, '', 'grant-a', 'ended'],
    ['the current generation, ended', { ...state, endedAt: '2026-01-01T00:00:00.000Z' }, 'gen1', 'grant-a', 'ended'],
    ['a revoked grant', { ...state, revokedGrants: { 'grant-a': 1 } }, 'gen1', 'grant-a', 'revoked'],
    ['another grant of it', { ...state, revokedGrants: { 'grant-a': 1 } }, 'gen1', 'grant-b', 'live'],
    ['a grant named like an Object.prototype member', { ...state, revokedGrants: {} }, 'gen1', 'constructor', 'live'],
  ] as const)('%s', (_label, given, installGeneration, grantId, expected) => {
    expect(standingIn(given, { grantId, installGeneration })).toBe(expected);
  });
});

describe('standingOfAccessToken', () => {
  it('reads the state once per install per instance per minute', async () => {
    const install = freshInstall();

    for (let call = 0; call < 100; call += 1) expect(await standingOfAccessToken(tokenOf(install))).toBe('live');
    const firstMinute = getItemCalls();
    advanceClock(installStateMaxAgeMs);
    await standingOfAccessToken(tokenOf(install));

    expect(firstMinute).toBe(1);
    expect(getItemCalls()).toBe(2);
  });

  it('lets a token of an install ended on another instance work until the state it read is a minute old', async () => {
    const install = freshInstall();
    const token = tokenOf(install);
    expect(await standingOfAccessToken(token)).toBe('live');

    expect(await endInstall(install.hubId, install.appId, '', new Date(nowMs()).toISOString())).toBe('ended');
    advanceClock(installStateMaxAgeMs - 1);
    const justBefore = await standingOfAccessToken(token);
    advanceClock(1);
    const after = await standingOfAccessToken(token);

    expect([justBefore, after]).toEqual(['live', 'ended']);
  });

  it('stops a grant revoked on another instance within a minute, and no other grant of the install', async () => {
    const install = freshInstall();
    expect(await standingOfAccessToken(tokenOf(install))).toBe('live');

    await revokeInstallGrant(install.hubId, install.appId, 'grant-a', nowSeconds() + 1860, nowSeconds());
    advanceClock(installStateMaxAgeMs);

    expect(await standingOfAccessToken(tokenOf(install, { grantId: 'grant-a' }))).toBe('revoked');
    expect(await standingOfAccessToken(tokenOf(install, { grantId: 'grant-b' }))).toBe('live');
  });

  it('reads again at once for a token issued after the refusing state was read (installed again elsewhere)', async () => {
    const install = freshInstall();
    await endInstall(install.hubId, install.appId, '', new Date(nowMs()).toISOString());
    const oldToken = tokenOf(install, { issuedAtSeconds: nowSeconds() - 60 });
    expect(await standingOfAccessToken(oldToken)).toBe('ended');
    advanceClock(10_000);
    const ended = await findInstallState(install.hubId, install.appId);
    await transactAll([installGenerationWrite(install.hubId, install.appId, ended, 'gen2')]);
    const before = getItemCalls();

    const newToken = await standingOfAccessToken(tokenOf(install, { installGeneration: 'gen2' }));
    const oldAgain = await standingOfAccessToken(oldToken);

    expect([newToken, oldAgain]).toEqual(['live', 'ended']);
    expect(getItemCalls() - before).toBe(1);
  });

  it('does not read again for a token older than the state that refuses it', async () => {
    const install = freshInstall();
    await endInstall(install.hubId, install.appId, '', new Date(nowMs()).toISOString());
    const oldToken = tokenOf(install, { issuedAtSeconds: nowSeconds() - 60 });
    expect(await standingOfAccessToken(oldToken)).toBe('ended');
    const before = getItemCalls();

    for (let call = 0; call < 50; call += 1) expect(await standingOfAccessToken(oldToken)).toBe('ended');

    expect(getItemCalls() - before).toBe(0);
  });
});

describe('revokeInstallGrant', () => {
  it('keeps the state of the first install and drops grants whose tokens have all expired', async () => {
    const install = freshInstall();
    const now = nowSeconds();
    await revokeInstallGrant(install.hubId, install.appId, 'old', now + 10, now);

    await revokeInstallGrant(install.hubId, install.appId, 'new', now + 2000, now + 11);

    expect(await findInstallState(install.hubId, install.appId)).toEqual({
      ...install,
      generation: '',
      revokedGrants: { new: now + 2000 },
    });
  });
});
