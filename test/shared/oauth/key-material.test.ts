import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSigningKey, publicKeysOf, type SecretsDocument } from '../../../shared/oauth/key-generation';

/** key-material reads its configuration once, at load: each case loads a fresh copy with its own environment. */
async function activeKeyIdWith(document: SecretsDocument, publishedKids: string[]): Promise<string> {
  const directory = mkdtempSync(path.join(tmpdir(), 'key-material-'));
  const saved = { SECRETS_FILE: process.env.SECRETS_FILE, TOKEN_PUBLIC_KEYS: process.env.TOKEN_PUBLIC_KEYS };
  try {
    const file = path.join(directory, 'secrets.json');
    writeFileSync(file, JSON.stringify(document));
    const stored = publicKeysOf(document);
    const published = Object.fromEntries(
      publishedKids.map((kid) => [kid, stored[kid] ?? generateSigningKey(kid).publicKey]),
    );
    process.env.SECRETS_FILE = file;
    process.env.TOKEN_PUBLIC_KEYS = JSON.stringify(published);
    let loadSigningKey: (() => Promise<{ kid: string }>) | undefined;
    jest.isolateModules(() => {
      ({ loadSigningKey } = jest.requireActual<typeof import('../../../shared/oauth/key-material')>(
        '../../../shared/oauth/key-material',
      ));
    });
    if (!loadSigningKey) throw new Error('key-material did not load');
    return (await loadSigningKey()).kid;
  } finally {
    process.env.SECRETS_FILE = saved.SECRETS_FILE;
    process.env.TOKEN_PUBLIC_KEYS = saved.TOKEN_PUBLIC_KEYS;
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('loadSigningKey', () => {
  const rotated: SecretsDocument = { signingKeys: [generateSigningKey('k-old'), generateSigningKey('k-new')] };

  it('signs with the newest key once the verifiers list it', async () => {
    expect(await activeKeyIdWith(rotated, ['k-old', 'k-new'])).toBe('k-new');
  });

  it('keeps signing with the previous key while the new one is not yet published (mid-rotation)', async () => {
    expect(await activeKeyIdWith(rotated, ['k-old'])).toBe('k-old');
  });

  it('refuses to sign when no stored key is published', async () => {
    await expect(activeKeyIdWith(rotated, ['k-other'])).rejects.toThrow(/no key listed in TOKEN_PUBLIC_KEYS/);
  });
});
