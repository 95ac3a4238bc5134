import type { RunningGateway } from '../../../local/local-gateway';
import type { LocalWebhooks } from '../../../local/local-webhooks';
import { startTestStream } from '../../support/test-stream';
import {
  clientCredentialsToken,
  install,
  journalAppScopes,
  startTestGateway,
  type InstalledTokens,
} from '../../support/harness';
import { sandboxControl } from '../../support/sandbox-control';

/**
 * A test account's reset and delete take its entries out of every journal of the developer's app
 * (the app's journal and the install's), and leave the other accounts' entries where they are.
 */
let gateway: RunningGateway;
let stream: LocalWebhooks;
let developer: InstalledTokens;
let appToken: string;
const hubs = new Set<number>();

beforeAll(async () => {
  gateway = await startTestGateway();
  stream = await startTestStream(hubs);
  developer = await install(gateway, { scopes: [...journalAppScopes] });
  hubs.add(developer.hubId);
  appToken = await clientCredentialsToken(gateway, developer);
});

afterAll(async () => {
  await stream.stop();
  await gateway.close();
});

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
  sandboxControl<T>(gateway, developer.developerApiKey, method, path, body);

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
}

/** A test account with the app installed, a journal subscription of its contact creates, and two contacts created. */
async function accountWithEntries(): Promise<number> {
  const created = await control<{ hubId: number }>('POST', '/test-accounts', {});
  expect(created.status).toBe(201);
  const hubId = created.body.hubId;
  hubs.add(hubId);
  const installed = await control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
    appId: developer.appId,
    scopes: developer.scopes.filter((scope) => !scope.startsWith('developer.')),
  });
  expect(installed.status).toBe(201);
  const subscribed = await call(appToken, 'POST', '/webhooks-journal/subscriptions/2026-03', {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-1',
    portalId: hubId,
    actions: ['CREATE'],
  });
  expect(subscribed.status).toBe(200);
  for (const name of ['First', 'Second']) {
    const contact = await call(installed.body.access_token, 'POST', '/crm/v3/objects/contacts', {
      properties: { firstname: name },
    });
    expect(contact.status).toBe(201);
  }
  return hubId;
}

/** The offsets of the install's journal, read with `next` from its earliest entry (none: []). */
async function installOffsets(hubId: number): Promise<string[]> {
  const base = '/webhooks-journal/journal-local/2026-03';
  const offsets: string[] = [];
  let answer = await call(appToken, 'GET', `${base}/earliest?installPortalId=${hubId}`);
  for (let read = 0; answer.status === 200 && read < 100; read += 1) {
    const offset = String(answer.body.currentOffset);
    offsets.push(offset);
    answer = await call(appToken, 'GET', `${base}/offset/${offset}/next?installPortalId=${hubId}`);
  }
  expect([200, 204, 404]).toContain(answer.status);
  return offsets;
}

/** Which of these offsets the app's journal (every install) still answers. */
async function inAppJournal(offsets: readonly string[]): Promise<string[]> {
  const read = await call(appToken, 'POST', '/webhooks-journal/journal/2026-03/batch/read', { inputs: offsets });
  expect([200, 207]).toContain(read.status);
  return ((read.body.results ?? []) as { currentOffset: string }[]).map((entry) => entry.currentOffset);
}

describe("a test account's journal entries", () => {
  it('go from both journals with a reset, and with a delete, and the other accounts keep theirs', async () => {
    const [reset, deleted, kept] = [await accountWithEntries(), await accountWithEntries(), await accountWithEntries()];
    await stream.settle();
    const before = {
      reset: await installOffsets(reset),
      deleted: await installOffsets(deleted),
      kept: await installOffsets(kept),
    };
    expect([before.reset.length, before.deleted.length, before.kept.length]).toEqual([2, 2, 2]);
    expect(await inAppJournal(before.reset)).toEqual(before.reset);

    expect((await control('POST', `/test-accounts/${reset}/reset`)).status).toBe(204);
    expect((await control('DELETE', `/test-accounts/${deleted}`)).status).toBe(204);
    await stream.settle();

    expect(await installOffsets(reset)).toEqual([]);
    expect(await inAppJournal([...before.reset, ...before.deleted])).toEqual([]);
    expect(await installOffsets(kept)).toEqual(before.kept);
    expect(await inAppJournal(before.kept)).toEqual(before.kept);
    expect((await control('DELETE', `/test-accounts/${reset}`)).status).toBe(204);
    expect((await control('DELETE', `/test-accounts/${kept}`)).status).toBe(204);
  });
});
