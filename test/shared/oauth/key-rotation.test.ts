import { generateSigningKey, publicKeysOf } from '../../../shared/oauth/key-generation';
import {
  newKeyId,
  parseSecretsDocument,
  retainedSigningKeys,
  withNewSigningKey,
} from '../../../shared/oauth/key-rotation';

describe('signing key rotation', () => {
  it('makes the new key the active one (newest last)', () => {
    const first = generateSigningKey('k-1');
    const second = generateSigningKey('k-2');

    const rotated = withNewSigningKey({ signingKeys: [first] }, second);

    expect(rotated.signingKeys?.at(-1)?.kid).toBe('k-2');
  });

  it('keeps the previous key so tokens it signed verify until they expire', () => {
    const rotated = withNewSigningKey({ signingKeys: [generateSigningKey('k-1')] }, generateSigningKey('k-2'));

    expect(Object.keys(publicKeysOf(rotated))).toEqual(['k-1', 'k-2']);
  });

  it(`keeps no more than ${retainedSigningKeys} keys`, () => {
    let document = { signingKeys: [generateSigningKey('k-1')] };
    for (const kid of ['k-2', 'k-3', 'k-4'])
      document = { signingKeys: withNewSigningKey(document, generateSigningKey(kid)).signingKeys ?? [] };

    expect(document.signingKeys.map((key) => key.kid)).toEqual(['k-3', 'k-4']);
  });

  it('keeps the other fields of the document', () => {
    const rotated = withNewSigningKey({ sessionSecret: 'c2VjcmV0' }, generateSigningKey('k-1'));

    expect(rotated.sessionSecret).toBe('c2VjcmV0');
  });

  it('reads the placeholder Secrets Manager generates at creation as an empty document', () => {
    expect(parseSecretsDocument('x7#Qp!2^zr9Lm0vT')).toEqual({});
    expect(parseSecretsDocument(undefined)).toEqual({});
    expect(parseSecretsDocument('[1,2]')).toEqual({});
  });

  it('reads back a stored document and drops malformed keys', () => {
    const key = generateSigningKey('k-1');

    const parsed = parseSecretsDocument(JSON.stringify({ signingKeys: [key, { kid: 3 }], sessionSecret: 'c2VjcmV0' }));

    expect(parsed).toEqual({ signingKeys: [key], sessionSecret: 'c2VjcmV0' });
  });

  it('gives every key a distinct id that starts with its creation date', () => {
    const now = new Date('2026-11-21T12:00:00Z');

    const ids = new Set(Array.from({ length: 50 }, () => newKeyId(now)));

    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^k20261121-[0-9a-f]{8}$/);
  });
});
