import { advanceClock, resetClock } from '../../../shared/base/clock';
import { insertAppGrant } from '../../../shared/db/oauth-grants';
import { checkAppToken } from '../../../shared/http/app-token-auth';
import { bearer, signTestAccessToken, unique } from '../../support/harness';

/** checkAppToken, the webhooks journal's check of an app token, against real grant records. */
afterEach(() => {
  resetClock();
});

const unknownTokenMessage = 'The access token is invalid. Get a new one with the refresh token.';

/** An app token with its grant record, as the client-credentials grant writes them. */
async function appTokenWithGrant(
  appId: number,
  scopes: ('developer.webhooks_journal.read' | 'developer.webhooks_journal.snapshots.read')[],
) {
  const grantId = unique('app-grant');
  await insertAppGrant({
    grantId,
    appId,
    clientId: unique('client'),
    scopes,
    createdAt: new Date().toISOString(),
    expiresAtSeconds: Math.floor(Date.now() / 1000) + 1800,
  });
  return signTestAccessToken({ kind: 'app', appId, hubId: 0, userId: 0, scopes, grantId });
}

describe('checkAppToken', () => {
  it('answers the app and its scopes for an app token that holds one of the scopes asked for', async () => {
    const token = await appTokenWithGrant(41, ['developer.webhooks_journal.read']);

    const auth = await checkAppToken(bearer(token), [
      'developer.webhooks_journal.snapshots.read',
      'developer.webhooks_journal.read',
    ]);

    expect(auth).toEqual({ appId: 41, scopes: ['developer.webhooks_journal.read'] });
  });

  it('answers 403 MISSING_SCOPES naming the scopes for an app token without them', async () => {
    const token = await appTokenWithGrant(42, ['developer.webhooks_journal.read']);

    await expect(checkAppToken(bearer(token), ['developer.webhooks_journal.snapshots.read'])).rejects.toMatchObject({
      status: 403,
      category: 'MISSING_SCOPES',
      context: { requiredGranularScopes: ['developer.webhooks_journal.snapshots.read'] },
    });
  });

  it('answers 401 INVALID_AUTHENTICATION, as to an unknown token, to an account token with the scope', async () => {
    const token = signTestAccessToken({ appId: 43, hubId: 4_300_000, scopes: ['developer.webhooks_journal.read'] });

    await expect(checkAppToken(bearer(token), ['developer.webhooks_journal.read'])).rejects.toMatchObject({
      status: 401,
      category: 'INVALID_AUTHENTICATION',
      message: unknownTokenMessage,
    });
  });

  it('answers 401 to an app token whose grant record is gone (revoked) and to no token at all', async () => {
    const revoked = signTestAccessToken({
      kind: 'app',
      appId: 44,
      hubId: 0,
      userId: 0,
      scopes: ['developer.webhooks_journal.read'],
      grantId: unique('no-such-grant'),
    });

    await expect(checkAppToken(bearer(revoked), ['developer.webhooks_journal.read'])).rejects.toMatchObject({
      status: 401,
      message: unknownTokenMessage,
    });
    await expect(checkAppToken({}, ['developer.webhooks_journal.read'])).rejects.toMatchObject({ status: 401 });
  });

  it('answers 401 EXPIRED_AUTHENTICATION to an expired app token', async () => {
    const token = await appTokenWithGrant(45, ['developer.webhooks_journal.read']);
    advanceClock(1801 * 1000);

    await expect(checkAppToken(bearer(token), ['developer.webhooks_journal.read'])).rejects.toMatchObject({
      status: 401,
      category: 'EXPIRED_AUTHENTICATION',
    });
  });
});
