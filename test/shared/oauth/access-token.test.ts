import { advanceClock, freezeClock, resetClock } from '../../../shared/base/clock';
import { sign } from 'node:crypto';
import { verifyAccessToken } from '../../../shared/oauth/access-token';
import { signTestAccessToken, testSigningKey } from '../../support/harness';

const wireClaimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** A token of these wire claims, signed with the run's real key: only its claims can make it invalid. */
function signedWire(wire: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `${payload}.${sign(null, Buffer.from(payload), testSigningKey().privateKey).toString('base64url')}`;
}

/** Verified tokens are remembered per instance; these pin down that remembering changes no answer. */
describe('verifyAccessToken', () => {
  afterEach(() => {
    resetClock();
  });

  it('reports a token expired on a later call although its signature was verified before', () => {
    // Held, so that no second passes between the signing and the advance (it would make the answer 2).
    freezeClock();
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'], expiresInSeconds: 60 });
    expect(verifyAccessToken(token).outcome).toBe('valid');

    advanceClock(61_000);

    expect(verifyAccessToken(token)).toMatchObject({ outcome: 'expired', expiredForSeconds: 1 });
  });

  it('rejects a token whose payload was altered after the genuine token was verified', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] });
    const [payload = '', signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...claims, h: 3 })).toString('base64url')}.${signature}`;
    expect(verifyAccessToken(token).outcome).toBe('valid');

    expect(verifyAccessToken(forged).outcome).toBe('invalid');
  });

  it("accepts one spelling of a token only: the unused low bits of the signature's last character must be zero", () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.slice(-1));
    // 64 bytes take 86 characters: the last one carries 2 bits of the signature and 4 unused ones.
    const respellings = Array.from(
      { length: 15 },
      (_unused, bits) => `${token.slice(0, -1)}${alphabet[(last & ~15) | ((last + bits + 1) & 15)]}`,
    );
    const signature = token.split('.')[1] ?? '';
    expect(
      respellings.every((variant) =>
        Buffer.from(variant.split('.')[1] ?? '', 'base64url').equals(Buffer.from(signature, 'base64url')),
      ),
    ).toBe(true);
    expect(verifyAccessToken(token).outcome).toBe('valid');

    expect(respellings.map((variant) => verifyAccessToken(variant).outcome)).toEqual(
      Array.from({ length: 15 }, () => 'invalid'),
    );
  });

  it('returns claims that callers cannot change for the next request', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] });
    const first = verifyAccessToken(token);
    if (first.outcome !== 'valid') throw new Error('expected a valid token');

    expect(() => (first.claims.scopes as string[]).push('timeline')).toThrow(TypeError);
  });

  it('verifies an account token as version 1 without a kind field, the format older deployments read', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] });

    expect(wireClaimsOf(token)).toMatchObject({ v: 1 });
    expect(wireClaimsOf(token)).not.toHaveProperty('c');
    expect(verifyAccessToken(token)).toMatchObject({ outcome: 'valid', claims: { kind: 'account', hubId: 2 } });
  });

  it("verifies an app token as version 2 of kind 'app', which a version-1 verifier refuses", () => {
    const token = signTestAccessToken({
      kind: 'app',
      appId: 1,
      hubId: 0,
      userId: 0,
      scopes: ['developer.webhooks_journal.read'],
    });

    expect(wireClaimsOf(token)).toMatchObject({ v: 2, c: 'app' });
    expect(verifyAccessToken(token)).toMatchObject({
      outcome: 'valid',
      claims: { kind: 'app', appId: 1, hubId: 0, userId: 0, scopes: ['developer.webhooks_journal.read'] },
    });
  });

  it('refuses a kind on a version-1 token, a version-2 token without one and an unknown kind', () => {
    const wire = wireClaimsOf(signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] }));

    const outcomes = [
      { ...wire, c: 'app' },
      { ...wire, v: 2 },
      { ...wire, v: 2, c: 'account' },
      { ...wire, v: 3, c: 'app' },
    ].map((claims) => verifyAccessToken(signedWire(claims)).outcome);

    expect(verifyAccessToken(signedWire(wire)).outcome).toBe('valid');
    expect(outcomes).toEqual(['invalid', 'invalid', 'invalid', 'invalid']);
  });
});
