import { randomUUID } from 'node:crypto';
import { db } from '../../../shared/db/client';
import { issueTokens } from '../../../shared/oauth/token-grants';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import type { ChangeRecord } from '../../../shared/webhooks/record-changes';
import { generateEvents } from '../../../shared/webhooks/generate-events';
import { configureWebhookSettings, createWebhookSubscription } from '../../../shared/webhooks/webhook-management';
import { authorizationCodeFor, provision, unique, type Installation } from '../../support/harness';
import { recordingQueue } from '../../support/recording-queue';

/**
 * Event generation against the real DynamoDB Local: installs, scopes and webhook configuration are
 * written through the same domain functions the routes call; the stream records are built here, as
 * the stream hands them out, and the queue only records what it is given.
 */

const at = '2026-05-01T10:00:00.000Z';

/** A company created in `hubId`, as the stream's INSERT record carries it. */
function companyCreated(hubId: number, companyId: string): ChangeRecord {
  return {
    recordId: randomUUID(),
    eventName: 'INSERT',
    approximateAtMs: 0,
    newImage: {
      pk: `HUB#${hubId}`,
      sk: `COMPANY#${companyId}`,
      id: companyId,
      properties: { name: 'Acme', annualrevenue: '1000000' },
      history: {},
      associations: {},
      uniqueValues: [],
      createdAt: at,
      updatedAt: at,
      archived: false,
      version: 1,
    },
  };
}

/** Installs the app in `account` as its user, granting `scopes`, through the token endpoint's own code. */
async function installInto(
  app: Installation,
  account: Pick<Installation, 'hubId' | 'userId' | 'userEmail'>,
  scopes: string[],
): Promise<void> {
  const code = await authorizationCodeFor(
    { ...app, hubId: account.hubId, userId: account.userId, userEmail: account.userEmail },
    scopes,
  );
  await issueTokens(
    {
      grant_type: 'authorization_code',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: app.redirectUri,
      code,
    },
    undefined,
  );
}

/** Every app listens for company.creation, name and annualrevenue changes, with a target. */
async function subscribeToCompanies(app: Installation): Promise<void> {
  const caller = { appId: app.appId };
  await configureWebhookSettings(caller, app.appId, { targetUrl: 'http://127.0.0.1:9/hooks' });
  await createWebhookSubscription(caller, app.appId, { eventType: 'company.creation', active: true });
  for (const propertyName of ['name', 'annualrevenue']) {
    await createWebhookSubscription(caller, app.appId, {
      eventType: 'company.propertyChange',
      propertyName,
      active: true,
    });
  }
}

describe('generateEvents and scopes', () => {
  let reader: Installation;
  let narrow: Installation;
  let otherAccount: Pick<Installation, 'hubId' | 'userId' | 'userEmail'>;

  beforeAll(async () => {
    // `reader` holds crm.objects.companies.read in its account; `narrow` requests it only as an optional
    // scope and is installed there with `oauth` alone, and in another account with the scope granted.
    reader = await provision();
    narrow = await provision({ scopes: ['oauth'], optionalScopes: ['crm.objects.companies.read'] });
    await installInto(reader, reader, reader.scopes);
    await installInto(narrow, reader, ['oauth']);
    const account = await createAccount(`${unique('hub')}.example`);
    const user = await createUser(`${unique('user')}@example.com`, 'correct horse battery staple', [account.hubId]);
    otherAccount = { hubId: account.hubId, userId: user.userId, userEmail: user.email };
    await installInto(narrow, otherAccount, ['oauth', 'crm.objects.companies.read']);
    await subscribeToCompanies(reader);
    await subscribeToCompanies(narrow);
  });

  it("queues a company's events only for apps whose install in its account holds crm.objects.companies.read", async () => {
    const queue = recordingQueue();

    await generateEvents([companyCreated(reader.hubId, '1000000000009001')], queue);

    expect(queue.batches.map((batch) => [batch.appId, batch.portalId])).toEqual([[reader.appId, reader.hubId]]);
    expect(queue.batches[0]?.events.map((event) => event.subscriptionType).sort()).toEqual([
      'company.creation',
      'company.propertyChange',
      'company.propertyChange',
    ]);
  });

  it('decides per install: the same app gets the events of an account where its install holds the scope', async () => {
    const queue = recordingQueue();

    await generateEvents(
      [companyCreated(reader.hubId, '1000000000009002'), companyCreated(otherAccount.hubId, '1000000000009003')],
      queue,
    );

    expect(queue.batches.map((batch) => [batch.appId, batch.portalId]).sort()).toEqual(
      [
        [reader.appId, reader.hubId],
        [narrow.appId, otherAccount.hubId],
      ].sort(),
    );
  });

  it('reads the installs of each account in a stream batch once, however many changes it holds', async () => {
    const installQueries: unknown[] = [];
    const name = `countInstallQueries-${randomUUID()}`;
    type Next = (args: { input: Record<string, unknown> }) => Promise<unknown>;
    const count = (next: Next) => async (args: { input: Record<string, unknown> }) => {
      const values = args.input.ExpressionAttributeValues as Record<string, unknown> | undefined;
      // The placeholders of the core's partition queries (shared/db/core.ts queryPage).
      if (values?.[':querySkPrefix'] === 'INSTALL#') installQueries.push(values[':queryPk']);
      return next(args);
    };
    (db.middlewareStack as unknown as { add: (m: typeof count, o: object) => void }).add(count, {
      step: 'initialize',
      name,
    });
    try {
      const records = Array.from({ length: 40 }, (_, index) =>
        companyCreated(index % 2 === 0 ? reader.hubId : otherAccount.hubId, String(1000000000009100 + index)),
      );

      await generateEvents(records, recordingQueue());
    } finally {
      db.middlewareStack.remove(name);
    }

    expect(installQueries.sort()).toEqual([`HUB#${reader.hubId}`, `HUB#${otherAccount.hubId}`].sort());
  });
});
