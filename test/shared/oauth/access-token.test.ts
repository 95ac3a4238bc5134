import { advanceClock, resetClock } from '../../../shared/base/clock';
import { verifyAccessToken } from '../../../shared/oauth/access-token';
import { signTestAccessToken } from '../../support/harness';

/** Verified tokens are remembered per instance; these pin down that remembering changes no answer. */
describe('verifyAccessToken', () => {
  afterEach(() => {
    resetClock();
  });

  it('reports a token expired on a later call although its signature was verified before', () => {
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
});
