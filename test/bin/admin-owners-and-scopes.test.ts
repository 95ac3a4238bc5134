import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { findAppByClientId } from '../../shared/db/apps';
import { findOwner, findOwnerOfUser } from '../../shared/db/owners';
import { findUserByEmail } from '../../shared/db/users';
import { unique } from '../support/harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');

/** Runs `npm run admin -- ...` as a user would, against the test run's DynamoDB Local. */
async function admin(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bin/admin.ts', ...args],
      { cwd: root, env: process.env },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('admin CLI: the object engine scopes and owners', () => {
  it('creates an app asking for the scopes of deals, tickets, pipelines, owners and the types planned next', async () => {
    const scopes = [
      'oauth',
      'crm.objects.contacts.read',
      'crm.objects.deals.write',
      'tickets',
      'crm.objects.tickets.read',
      'crm.schemas.deals.write',
      'crm.schemas.tickets.write',
      'crm.objects.owners.read',
      'crm.objects.custom.read',
      'crm.schemas.custom.write',
    ];

    const result = await admin(
      'app',
      'create',
      '--name',
      'Engine app',
      '--redirect-uri',
      'https://engine.example.com/cb',
      '--scopes',
      scopes.join(','),
      '--optional-scopes',
      'e-commerce,crm.objects.products.read,crm.objects.line_items.write',
    );

    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { clientId: string };
    expect(await findAppByClientId(printed.clientId)).toMatchObject({
      scopes,
      optionalScopes: ['e-commerce', 'crm.objects.products.read', 'crm.objects.line_items.write'],
    });
  });

  it('creates a user with --first-name and --last-name, an owner of each of its accounts', async () => {
    const hubs = await Promise.all(
      [1, 2].map(
        async () =>
          JSON.parse((await admin('account', 'create', '--domain', `${unique('owner')}.example`)).stdout) as {
            hubId: number;
          },
      ),
    );
    const email = `${unique('owner')}@example.com`;

    const result = await admin(
      'user',
      'create',
      '--email',
      email,
      '--password',
      'a long password',
      '--hub',
      String(hubs[0]?.hubId),
      '--hub',
      String(hubs[1]?.hubId),
      '--first-name',
      'Grace',
      '--last-name',
      'Hopper',
    );

    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { userId: number; owners: { hubId: number; ownerId: number }[] };
    expect(await findUserByEmail(email)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect(printed.owners.map((owner) => owner.hubId)).toEqual(hubs.map((hub) => hub.hubId));
    expect(new Set(printed.owners.map((owner) => owner.ownerId)).size).toBe(2);
    for (const { hubId, ownerId } of printed.owners) {
      expect(await findOwner(hubId, ownerId)).toMatchObject({
        ownerId,
        userId: printed.userId,
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        archived: false,
      });
      expect((await findOwnerOfUser(hubId, printed.userId))?.ownerId).toBe(ownerId);
    }
  });

  it('refuses a name with control characters, writing no user', async () => {
    const hub = JSON.parse((await admin('account', 'create', '--domain', `${unique('bad-name')}.example`)).stdout) as {
      hubId: number;
    };
    const email = `${unique('bad-name')}@example.com`;

    const result = await admin(
      'user',
      'create',
      '--email',
      email,
      '--password',
      'a long password',
      '--hub',
      String(hub.hubId),
      '--first-name',
      'Bell\u0007',
    );

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ status: 'error', context: { firstName: ['Bell\u0007'] } });
    expect(await findUserByEmail(email)).toBeUndefined();
  });
});
