import type { LocalWebhooks } from '../../../local/local-webhooks';
import { startTestStream } from '../../support/test-stream';
import type { RunningGateway } from '../../../local/local-gateway';
import { advanceClock, resetClock } from '../../../shared/base/clock';
import { journalRetentionMs } from '../../../shared/webhooks-journal/journal-events';
import type { JournalFile } from '../../../shared/webhooks-journal/journal-file-format';
import {
  clientCredentialsToken,
  install,
  installInto,
  journalAppScopes,
  startTestGateway,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';

/**
 * The webhooks journal's entries over HTTP: two apps subscribed in the accounts they are installed
 * in, CRM writes, the table's stream settled (the local stream consumer, which runs the deployed
 * consumer's code), and each app reading its journal from `earliest` with `next` to the end,
 * fetching every entry's file through its URL with no Authorization header.
 */
let gateway: RunningGateway;
let stream: LocalWebhooks;
const hubs = new Set<number>();

interface Answer<T = unknown> {
  status: number;
  body: T;
}

interface FetchJson {
  currentOffset: string;
  expiresAt: string;
  url: string;
}

interface BatchJson {
  status: string;
  results: FetchJson[];
  errors?: ErrorJson[];
  numErrors?: number;
}

async function call<T = ErrorJson>(
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

async function ok<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(token, method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const journal = (kind: 'journal' | 'journal-local', path: string) => `/webhooks-journal/${kind}/2026-03${path}`;

/** Every entry of the journal from `earliest`, following `next` until it answers 204 (bounded by `max`). */
async function walk(token: string, query = '', kind: 'journal' | 'journal-local' = 'journal', max = 200) {
  const entries: FetchJson[] = [];
  const first = await call<FetchJson>(token, 'GET', journal(kind, `/earliest${query}`));
  if (first.status === 404) return entries;
  expect(first.status).toBe(200);
  entries.push(first.body);
  for (let step = 0; step < max; step += 1) {
    const last = entries.at(-1) as FetchJson;
    const next = await call<FetchJson>(token, 'GET', journal(kind, `/offset/${last.currentOffset}/next${query}`));
    if (next.status === 204) return entries;
    expect(next.status).toBe(200);
    entries.push(next.body);
  }
  throw new Error(`the journal did not end within ${max} entries`);
}

/** The entry's file, fetched as a client would: the URL alone, no Authorization header. */
async function fileOf(entry: FetchJson): Promise<JournalFile> {
  const response = await fetch(entry.url);
  expect(response.status).toBe(200);
  return (await response.json()) as JournalFile;
}

const filesOf = (entries: readonly FetchJson[]) => Promise.all(entries.map(fileOf));

async function settled(): Promise<void> {
  await stream.settle();
  await stream.settle();
}

let appA: InstalledTokens;
let appB: InstalledTokens;
/** An app installed in account 1 without the contacts scopes, subscribed to contacts and companies there. */
let appC: InstalledTokens;
let tokenC: string;
/** An app alone in account 3, subscribed to contact merges and GDPR deletes there. */
let appD: InstalledTokens;
let tokenD: string;
let mergedId: string;
let mergedFrom: string[];
let erasedId: string;
let tokenA: string;
let tokenB: string;
/** Account 1 (app A's, where app B is installed too) and account 2 (app B's alone). */
let hub1: number;
let hub2: number;
let hub1Token: string;
let hub2Token: string;
let contactId: string;
let otherContactId: string;
let acmeId: string;
let otherCompanyId: string;
let listId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  stream = await startTestStream(hubs);
  appA = await install(gateway, { scopes: [...journalAppScopes] });
  appB = await install(gateway, { scopes: [...journalAppScopes] });
  hub1 = appA.hubId;
  hub2 = appB.hubId;
  hubs.add(hub1).add(hub2);
  hub1Token = appA.accessToken;
  hub2Token = appB.accessToken;
  await installInto(gateway, appB, appA);
  appC = await install(gateway, {
    scopes: journalAppScopes.filter((scope) => !scope.startsWith('crm.objects.contacts')),
  });
  await installInto(gateway, appC, appA);
  tokenA = await clientCredentialsToken(gateway, appA);
  tokenB = await clientCredentialsToken(gateway, appB);
  tokenC = await clientCredentialsToken(gateway, appC);
  appD = await install(gateway, { scopes: [...journalAppScopes] });
  hubs.add(appD.hubId);
  tokenD = await clientCredentialsToken(gateway, appD);

  const subscriptions = '/webhooks-journal/subscriptions/2026-03';
  await ok(tokenA, 'POST', subscriptions, {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-1',
    portalId: hub1,
    actions: ['CREATE', 'UPDATE', 'DELETE'],
    properties: ['firstname', 'email'],
  });
  await ok(tokenA, 'POST', subscriptions, {
    subscriptionType: 'ASSOCIATION',
    objectTypeId: '0-1',
    associatedObjectTypeIds: ['0-2'],
    portalId: hub1,
    actions: ['ASSOCIATION_ADDED', 'ASSOCIATION_REMOVED'],
  });
  const list = await ok<{ list: { listId: string } }>(hub1Token, 'POST', '/crm/v3/lists', {
    name: `Journal list ${hub1}`,
    objectTypeId: '0-1',
    processingType: 'MANUAL',
  });
  listId = list.list.listId;
  await ok(tokenA, 'POST', subscriptions, {
    subscriptionType: 'LIST_MEMBERSHIP',
    portalId: hub1,
    listIds: [Number(listId)],
    actions: ['ADDED_TO_LIST', 'REMOVED_FROM_LIST'],
  });
  const companies = await ok<{ id: number }>(tokenB, 'POST', subscriptions, {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-2',
    portalId: hub1,
    actions: ['CREATE'],
  });
  await ok(tokenB, 'POST', `${subscriptions}/filters`, {
    subscriptionId: companies.id,
    filter: {
      conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: 'name', operator: 'CONTAINS', value: 'acme' }],
    },
  });
  await ok(tokenB, 'POST', subscriptions, {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-1',
    portalId: hub2,
    actions: ['CREATE'],
  });
  for (const objectTypeId of ['0-1', '0-2'])
    await ok(tokenC, 'POST', subscriptions, {
      subscriptionType: 'OBJECT',
      objectTypeId,
      portalId: hub1,
      actions: ['CREATE'],
    });
  await ok(tokenD, 'POST', subscriptions, {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-1',
    portalId: appD.hubId,
    actions: ['MERGE'],
  });
  await ok(tokenD, 'POST', subscriptions, {
    subscriptionType: 'GDPR_PRIVACY_DELETION',
    objectTypeId: '0-1',
    portalId: appD.hubId,
    actions: ['GDPR_DELETE'],
  });

  // The writes, in commit order.
  const contact = await ok<{ id: string }>(hub1Token, 'POST', '/crm/v3/objects/contacts', {
    properties: { email: `journal-${hub1}@example.com`, firstname: 'Ada' },
  });
  contactId = contact.id;
  await ok(hub1Token, 'PATCH', `/crm/v3/objects/contacts/${contactId}`, { properties: { firstname: 'Grace' } });
  await ok(hub1Token, 'PATCH', `/crm/v3/objects/contacts/${contactId}`, { properties: { lastname: 'Hopper' } });
  acmeId = (
    await ok<{ id: string }>(hub1Token, 'POST', '/crm/v3/objects/companies', { properties: { name: 'Acme One' } })
  ).id;
  otherCompanyId = (
    await ok<{ id: string }>(hub1Token, 'POST', '/crm/v3/objects/companies', { properties: { name: 'Globex' } })
  ).id;
  await ok(hub1Token, 'PUT', `/crm/v4/objects/contacts/${contactId}/associations/default/companies/${acmeId}`);
  await ok(hub1Token, 'DELETE', `/crm/v4/objects/contacts/${contactId}/associations/companies/${acmeId}`);
  await ok(hub1Token, 'PUT', `/crm/v3/lists/${listId}/memberships/add`, [contactId]);
  await ok(hub1Token, 'PUT', `/crm/v3/lists/${listId}/memberships/remove`, [contactId]);
  await ok(hub1Token, 'DELETE', `/crm/v3/objects/contacts/${contactId}`);
  otherContactId = (
    await ok<{ id: string }>(hub2Token, 'POST', '/crm/v3/objects/contacts', {
      properties: { email: `journal-${hub2}@example.com` },
    })
  ).id;
  const hub3Contact = (email: string) =>
    ok<{ id: string }>(appD.accessToken, 'POST', '/crm/v3/objects/contacts', { properties: { email } });
  const primary = await hub3Contact(`primary-${appD.hubId}@example.com`);
  const merging = await hub3Contact(`merging-${appD.hubId}@example.com`);
  mergedFrom = [primary.id, merging.id];
  mergedId = (
    await ok<{ id: string }>(appD.accessToken, 'POST', '/crm/v3/objects/contacts/merge', {
      primaryObjectId: primary.id,
      objectIdToMerge: merging.id,
    })
  ).id;
  erasedId = (await hub3Contact(`erased-${appD.hubId}@example.com`)).id;
  await ok(appD.accessToken, 'POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: erasedId });
  await settled();
}, 60_000);

afterAll(async () => {
  await stream.stop();
  await gateway.close();
});

afterEach(() => resetClock());

const summary = (file: JournalFile) => `${file.subscriptionType} ${file.action} ${file.objectTypeId}/${file.objectId}`;

describe("reading an app's journal", () => {
  it("holds exactly the app's subscribed events, each once, in commit order, with what each subscription promises", async () => {
    const files = await filesOf(await walk(tokenA));

    expect(files.map(summary)).toEqual([
      `OBJECT CREATE 0-1/${contactId}`,
      `OBJECT UPDATE 0-1/${contactId}`,
      `ASSOCIATION ASSOCIATION_ADDED 0-1/${contactId}`,
      `ASSOCIATION ASSOCIATION_REMOVED 0-1/${contactId}`,
      `LIST_MEMBERSHIP ADDED_TO_LIST 0-1/${contactId}`,
      `LIST_MEMBERSHIP REMOVED_FROM_LIST 0-1/${contactId}`,
      `OBJECT DELETE 0-1/${contactId}`,
    ]);
    expect(new Set(files.map((file) => file.offset)).size).toBe(files.length);
    expect(files.every((file) => file.appId === appA.appId && file.portalId === hub1)).toBe(true);
    expect(files[0]?.changedProperties).toEqual({ email: `journal-${hub1}@example.com`, firstname: 'Ada' });
    // The lastname change is no UPDATE of a subscription naming firstname and email only.
    expect(files[1]?.changedProperties).toEqual({ firstname: 'Grace' });
    expect(files[2]?.association).toEqual({
      associatedObjectTypeId: '0-2',
      associatedObjectId: acmeId,
      associationTypeId: expect.any(Number),
    });
    expect(files[4]?.listId).toBe(listId);
    expect(files.every((file) => file.subscriptionIds.length === 1 && typeof file.occurredAt === 'number')).toBe(true);
  });

  it("gives the other app only its own subscriptions' events: a filter's condition on the values, another account", async () => {
    const files = await filesOf(await walk(tokenB));

    expect(files.map(summary).sort()).toEqual(
      [`OBJECT CREATE 0-2/${acmeId}`, `OBJECT CREATE 0-1/${otherContactId}`].sort(),
    );
    expect(files.some((file) => file.objectId === otherCompanyId)).toBe(false);
  });

  it("holds no event of an object type the app's install cannot read, whatever its subscriptions", async () => {
    const files = await filesOf(await walk(tokenC));

    expect(files.map(summary).sort()).toEqual(
      [`OBJECT CREATE 0-2/${acmeId}`, `OBJECT CREATE 0-2/${otherCompanyId}`].sort(),
    );
  });

  it('holds a merge with the merged ids, and a GDPR delete, for the subscriptions of those types', async () => {
    const files = await filesOf(await walk(tokenD));

    expect(files.map(summary)).toEqual([
      `OBJECT MERGE 0-1/${mergedId}`,
      `GDPR_PRIVACY_DELETION GDPR_DELETE 0-1/${erasedId}`,
    ]);
    expect(files[0]?.primaryObjectId).toBe(mergedFrom[0]);
    expect([...(files[0]?.mergedObjectIds ?? [])].sort()).toEqual([...mergedFrom].sort());
  });

  it('narrows either spelling to one install with installPortalId', async () => {
    const local = await filesOf(await walk(tokenB, `?installPortalId=${hub2}`, 'journal-local'));
    const global = await filesOf(await walk(tokenB, `?installPortalId=${hub1}`));

    expect(local.map(summary)).toEqual([`OBJECT CREATE 0-1/${otherContactId}`]);
    expect(global.map(summary)).toEqual([`OBJECT CREATE 0-2/${acmeId}`]);
  });

  it('answers the batches in journal order: earliest, next after an offset, latest, and a read of offsets', async () => {
    const walked = await walk(tokenA);
    const offsets = walked.map((entry) => entry.currentOffset);

    const earliest = await ok<BatchJson>(tokenA, 'GET', journal('journal', '/batch/earliest/100'));
    const next = await ok<BatchJson>(tokenA, 'GET', journal('journal', `/batch/${offsets[0]}/next/100`));
    const latest = await ok<BatchJson>(tokenA, 'GET', journal('journal-local', '/batch/latest/2'));
    const latestOne = await ok<FetchJson>(tokenA, 'GET', journal('journal', '/latest'));

    expect(earliest.status).toBe('COMPLETE');
    expect(earliest.results.map((entry) => entry.currentOffset)).toEqual(offsets);
    expect(next.results.map((entry) => entry.currentOffset)).toEqual(offsets.slice(1));
    expect(latest.results.map((entry) => entry.currentOffset)).toEqual(offsets.slice(-2));
    expect(latestOne.currentOffset).toBe(offsets.at(-1));
    expect(Date.parse(latestOne.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('answers a read of offsets with 207 naming the unknown ones, and 200 when every one is known', async () => {
    const [first, second] = (await walk(tokenA)).map((entry) => entry.currentOffset);
    const unknown = '00000000-0001-7000-8000-000000000001';

    const mixed = await call<BatchJson>(tokenA, 'POST', journal('journal', '/batch/read'), {
      inputs: [second, unknown, first],
    });
    const known = await call<BatchJson>(tokenA, 'POST', journal('journal-local', '/batch/read'), { inputs: [first] });

    expect(mixed.status).toBe(207);
    expect(mixed.body.results.map((entry) => entry.currentOffset)).toEqual([second, first]);
    expect(mixed.body.numErrors).toBe(1);
    expect(mixed.body.errors?.[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { offset: [unknown] } });
    expect(known.status).toBe(200);
    expect(known.body.results.map((entry) => entry.currentOffset)).toEqual([first]);
  });

  it("404s an offset the journal does not hold, and another app's offset", async () => {
    const [entryOfA] = await walk(tokenA);

    const unknown = await call(tokenA, 'GET', journal('journal', '/offset/00000000-0001-7000-8000-000000000001/next'));
    const foreign = await call(tokenB, 'GET', journal('journal', `/offset/${entryOfA?.currentOffset}/next`));
    const notAnOffset = await call(tokenA, 'GET', journal('journal', '/batch/not-an-offset/next/5'));

    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ category: 'OBJECT_NOT_FOUND', correlationId: expect.any(String) });
    expect(foreign.status).toBe(404);
    expect(notAnOffset.status).toBe(404);
  });

  it('refuses a count outside 1 to 100 and an installPortalId that is no account id (400 naming it)', async () => {
    const zero = await call(tokenA, 'GET', journal('journal', '/batch/earliest/0'));
    const tooMany = await call(tokenA, 'GET', journal('journal', '/batch/latest/101'));
    const portal = await call(tokenA, 'GET', journal('journal-local', '/earliest?installPortalId=abc'));

    expect(zero).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR', context: { count: ['0'] } } });
    expect(tooMany).toMatchObject({ status: 400, body: { context: { count: ['101'] } } });
    expect(portal).toMatchObject({ status: 400, body: { context: { installPortalId: ['abc'] } } });
  });
});

describe("an entry's file URL", () => {
  it('refuses a URL whose signature was changed, or that has expired (403, the error object)', async () => {
    const [entry] = await walk(tokenA);
    const url = new URL(entry?.url ?? '');
    const forged = new URL(url);
    forged.searchParams.set('signature', `${url.searchParams.get('signature')?.slice(0, -2)}AA`);

    const refused = await fetch(forged);
    advanceClock(16 * 60 * 1000);
    const expired = await fetch(url);

    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ category: 'FORBIDDEN', context: { field: ['query.signature'] } });
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ category: 'FORBIDDEN', context: { field: ['query.expires'] } });
  });
});

describe('retention', () => {
  it('drops entries older than three days: the journal is empty and their offsets 404', async () => {
    const [entry] = await walk(tokenA);
    advanceClock(journalRetentionMs + 60_000);
    const token = await clientCredentialsToken(gateway, appA);

    const earliest = await call(token, 'GET', journal('journal', '/earliest'));
    const next = await call(token, 'GET', journal('journal', `/offset/${entry?.currentOffset}/next`));
    const batch = await ok<BatchJson>(token, 'GET', journal('journal', '/batch/earliest/100'));
    const file = await fetch(entry?.url ?? '');

    expect(earliest.status).toBe(404);
    expect(next.status).toBe(404);
    expect(batch.results).toEqual([]);
    expect(file.status).toBe(403);
  });
});

describe('auth', () => {
  it('answers 401 without a token and with an account token, 403 for an app token without the read scope', async () => {
    const narrow = await clientCredentialsToken(gateway, appA, ['developer.webhooks_journal.subscriptions.read']);

    const none = await call(undefined, 'GET', journal('journal', '/earliest'));
    const account = await call(hub1Token, 'GET', journal('journal', '/earliest'));
    const scopeless = await call(narrow, 'GET', journal('journal-local', '/batch/earliest/10'));

    expect(none.status).toBe(401);
    expect(account.status).toBe(401);
    expect(scopeless).toMatchObject({ status: 403, body: { category: 'MISSING_SCOPES' } });
  });
});
