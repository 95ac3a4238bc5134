import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { findAccount } from '../../shared/db/accounts';
import { findAppByClientId } from '../../shared/db/apps';
import { findUserByEmail } from '../../shared/db/users';
import { secretMatchesHash } from '../../shared/oauth/secrets';
import { verifyPassword } from '../../shared/oauth/passwords';
import { unique } from '../support/harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');

/** Runs `npm run admin -- ...` as a user would, against the test run's DynamoDB Local. */
async function admin(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bin/admin.ts', ...args], { cwd: root, env: process.env });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('admin CLI', () => {
  it('creates an app, prints its secret once and stores only its hash', async () => {
    const result = await admin('app', 'create', '--name', 'CLI App', '--redirect-uri', 'https://cli.example.com/cb',
      '--redirect-uri', 'http://localhost:8080/cb', '--scopes', 'oauth,crm.objects.companies.read', '--optional-scopes', 'timeline');

    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { appId: number; clientId: string; clientSecret: string };
    expect(Object.keys(printed).sort()).toEqual(['appId', 'clientId', 'clientSecret']);
    const stored = await findAppByClientId(printed.clientId);
    expect(stored).toMatchObject({ appId: printed.appId, redirectUris: ['https://cli.example.com/cb', 'http://localhost:8080/cb'], scopes: ['oauth', 'crm.objects.companies.read'], optionalScopes: ['timeline'] });
    expect(JSON.stringify(stored)).not.toContain(printed.clientSecret);
    expect(secretMatchesHash(printed.clientSecret, stored?.clientSecretHash ?? '')).toBe(true);
  });

  it('creates an account and a user of it with a scrypt password hash', async () => {
    const domain = `${unique('cli')}.example`;
    const email = `${unique('cli')}@example.com`;

    const account = JSON.parse((await admin('account', 'create', '--domain', domain)).stdout) as { hubId: number; domain: string };
    const user = JSON.parse((await admin('user', 'create', '--email', email, '--password', 'a long password', '--hub', String(account.hubId))).stdout) as { userId: number; email: string };

    expect(account.domain).toBe(domain);
    expect(user.email).toBe(email);
    const stored = await findUserByEmail(email);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('a long password', stored?.passwordHash ?? '')).toBe(true);
    expect(stored?.hubIds).toEqual([account.hubId]);
  });

  it('sets and updates an account\'s rate limits (0 = no limit), and refuses a bad value or an unknown account', async () => {
    const created = await admin('account', 'create', '--domain', `${unique('limits')}.example`, '--ten-secondly-limit', '0', '--search-per-second-limit', '9');
    const account = JSON.parse(created.stdout) as { hubId: number; tenSecondlyLimit: number; searchPerSecondLimit: number };

    const updated = await admin('account', 'update', '--hub', String(account.hubId), '--ten-secondly-limit', '50');
    const bad = await admin('account', 'update', '--hub', String(account.hubId), '--ten-secondly-limit', '-3');
    const unknown = await admin('account', 'update', '--hub', '99999999999', '--search-per-second-limit', '2');

    expect(account).toMatchObject({ tenSecondlyLimit: 0, searchPerSecondLimit: 9 });
    expect(JSON.parse(updated.stdout)).toMatchObject({ hubId: account.hubId, tenSecondlyLimit: 50, searchPerSecondLimit: 9 });
    expect(await findAccount(account.hubId)).toMatchObject({ tenSecondlyLimit: 50, searchPerSecondLimit: 9 });
    expect(bad.code).toBe(1);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ status: 'error', context: { hub: ['99999999999'] } });
  });

  it('refuses an unknown scope with a JSON error and exit code 1', async () => {
    const result = await admin('app', 'create', '--name', 'Bad', '--redirect-uri', 'https://x.example/cb', '--scopes', 'oauth,not.a.scope');

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ status: 'error', context: { scopes: ['not.a.scope'] } });
  });

  it('refuses a user of an account that does not exist', async () => {
    const result = await admin('user', 'create', '--email', `${unique('x')}@example.com`, '--password', 'long enough', '--hub', '999999999');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no account with hub id 999999999');
  });
});
