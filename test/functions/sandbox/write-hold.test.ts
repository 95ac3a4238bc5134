import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { installRecorder, recordCommands } from '../../../bench/dynamo-recorder';
import { db, tableName } from '../../../shared/db/client';
import { batchPutAll, conditionalWrite, transact } from '../../../shared/db/core';
import { holdAccountWrites } from '../../../shared/db/account-purge';
import { WriteHeldError } from '../../../shared/db/repository-errors';
import { hubPartition, writeHoldKey, writeHoldShards } from '../../../shared/db/keys';
import { getItem } from '../../../shared/db/core';
import { withWriteGuard } from '../../../shared/db/write-guard';
import { useTestGateway } from '../../support/harness';
import { tokenCall, useSandboxDeveloper } from '../../support/sandbox-control';

/**
 * A reset or delete of a test account first puts the account's write hold (shared/db/write-guard.ts):
 * from then on no write made for the account's callers commits, every call of its tokens answers 503
 * (a reset, with Retry-After) or 401 (a delete), and the purge finds every record whole. Writers
 * racing a reset leave either whole records or nothing.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);
const { control, newTestAccount } = sandbox;
beforeAll(() => installRecorder());

async function tokenOf(hubId: number): Promise<string> {
  const answer = await control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
    appId: sandbox.developer.appId,
    scopes: sandbox.developer.scopes,
  });
  expect(answer.status).toBe(201);
  return answer.body.access_token;
}

const api = (method: string, path: string, token: string, body?: unknown) =>
  tokenCall(gateway, token, method, path, body);

const probeItem = (hubId: number, name: string) => ({ pk: hubPartition(hubId), sk: `WRITE_HOLD_PROBE#${name}` });

describe('the write hold', () => {
  it('refuses every kind of write made inside the guard, and none outside it', async () => {
    const hubId = await newTestAccount();
    await holdAccountWrites(hubId, 'reset');
    const guarded = <T>(work: () => Promise<T>) => withWriteGuard(hubId, work);

    await expect(
      guarded(() =>
        transact([{ role: 'probe', write: { Put: { TableName: tableName, Item: probeItem(hubId, 'tx') } } }]),
      ),
    ).rejects.toMatchObject({ name: 'WriteHeldError', mode: 'reset', hubId });
    await expect(
      guarded(() =>
        conditionalWrite(
          new PutCommand({
            TableName: tableName,
            Item: probeItem(hubId, 'single'),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),
    ).rejects.toBeInstanceOf(WriteHeldError);
    await expect(guarded(() => batchPutAll([probeItem(hubId, 'batch')]))).rejects.toBeInstanceOf(WriteHeldError);
    for (const name of ['tx', 'single', 'batch']) expect(await getItem(probeItem(hubId, name))).toBeUndefined();

    // Outside the guard (the purge's own writes, a standard account's) the hold costs nothing.
    await db.send(new PutCommand({ TableName: tableName, Item: probeItem(hubId, 'outside') }));
    expect(await getItem(probeItem(hubId, 'outside'))).toBeDefined();
  });

  it('writes a guarded batch of large items in as many transactions as hold them (4 MB each at most)', async () => {
    const hubId = await newTestAccount();
    // 12 items of about 330 KB: one 25-item transaction would be over DynamoDB's 4 MB.
    const items = Array.from({ length: 12 }, (_, index) => ({
      ...probeItem(hubId, `large-${index}`),
      payload: 'x'.repeat(330_000),
    }));
    const { commands } = await recordCommands(() => withWriteGuard(hubId, () => batchPutAll(items)));
    // DynamoDB Local does not enforce the 4 MB: the transactions' sizes are read from what was sent.
    const transactions = commands.filter((command) => command.commandClass.name === 'TransactWriteCommand');
    expect(transactions.length).toBeGreaterThanOrEqual(2);
    for (const transaction of transactions) expect(JSON.stringify(transaction.input).length).toBeLessThan(4_000_000);
    for (const item of items) expect(await getItem(item)).toMatchObject({ sk: item.sk });
  });

  it("answers the account's calls 503 with Retry-After while a reset holds it, 401 while a delete does", async () => {
    const hubId = await newTestAccount();
    const token = await tokenOf(hubId);
    expect((await api('GET', '/crm/v3/objects/contacts', token)).status).toBe(200);

    await holdAccountWrites(hubId, 'reset');
    const held = await api('POST', '/crm/v3/objects/contacts', token, { properties: { email: 'held@example.com' } });
    expect(held).toMatchObject({ status: 503, body: { category: 'SERVICE_UNAVAILABLE' } });
    expect(held.headers.get('retry-after')).toBe('1');
    expect(typeof held.body.correlationId).toBe('string');
    expect((await api('GET', '/crm/v3/objects/contacts', token)).status).toBe(503);

    // A reset call finishes the reset and takes the hold away.
    expect((await control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);
    expect(await getItem(writeHoldKey(hubId, 0))).toBeUndefined();
    expect(
      (await api('POST', '/crm/v3/objects/contacts', token, { properties: { email: 'held@example.com' } })).status,
    ).toBe(201);

    await holdAccountWrites(hubId, 'delete');
    expect(await api('GET', '/crm/v3/objects/contacts', token)).toMatchObject({
      status: 401,
      body: { category: 'INVALID_AUTHENTICATION' },
    });
  });

  it('refuses an install that found the account before its delete started (404), and the delete leaves no install', async () => {
    const hubId = await newTestAccount();
    // The install's read of the link came before the delete's mark; its writes come after the hold.
    await holdAccountWrites(hubId, 'delete');
    const during = await control('POST', `/test-accounts/${hubId}/installs`, {
      appId: sandbox.developer.appId,
      scopes: sandbox.developer.scopes,
    });
    expect(during.status).toBe(404);
    expect((await control('DELETE', `/test-accounts/${hubId}`)).status).toBe(204);
    // Every shard of a delete's hold stays (until its TTL), so a late write still finds it.
    for (let shard = 0; shard < writeHoldShards; shard += 1)
      expect(await getItem(writeHoldKey(hubId, shard))).toMatchObject({ mode: 'delete', ttl: expect.any(Number) });
  });
});

interface Page {
  results: { id: string; properties: Record<string, string | null> }[];
  paging?: { next?: { after: string } };
  total?: number;
}

/** Every contact the list answers (ids and emails), every page. */
async function listedContacts(token: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let after: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const answer = await api(
      'GET',
      `/crm/v3/objects/contacts?limit=100&properties=email${after ? `&after=${after}` : ''}`,
      token,
    );
    expect(answer.status).toBe(200);
    const body = answer.body as unknown as Page;
    for (const record of body.results) found.set(record.id, record.properties.email ?? '');
    after = body.paging?.next?.after;
    if (!after) return found;
  }
  throw new Error('more than 50 pages of contacts');
}

/** Every contact id a search with no filter answers, every page. */
async function searchedContacts(token: string): Promise<Set<string>> {
  const found = new Set<string>();
  let after: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const answer = await api('POST', '/crm/v3/objects/contacts/search', token, {
      limit: 100,
      ...(after ? { after } : {}),
    });
    expect(answer.status).toBe(200);
    const body = answer.body as unknown as Page;
    for (const record of body.results) found.add(record.id);
    after = body.paging?.next?.after;
    if (!after) return found;
  }
  throw new Error('more than 50 pages of search results');
}

describe('a reset racing writers', () => {
  it('leaves every record whole or gone: list and search agree, every hit reads, every email stays claimed', async () => {
    const hubId = await newTestAccount();
    const token = await tokenOf(hubId);
    // Enough data that the purge takes a while, so writers run during it.
    const loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: Array.from({ length: 150 }, (_, index) => ({
        ref: `c${index}`,
        objectType: 'contacts',
        properties: { email: `before-${index}@example.com` },
      })),
    });
    expect(loaded.status).toBe(201);

    let isResetDone = false;
    const statuses: number[] = [];
    const writer = async (writerIndex: number) => {
      // Bounded: each writer makes at most 200 calls, and stops a few calls after the reset's answer.
      let afterReset = 0;
      for (let call = 0; call < 200 && afterReset < 3; call += 1) {
        if (isResetDone) afterReset += 1;
        const answer = await api('POST', '/crm/v3/objects/contacts', token, {
          properties: { email: `w${writerIndex}-${call}@example.com` },
        });
        statuses.push(answer.status);
      }
    };
    const writers = Array.from({ length: 4 }, (_, index) => writer(index));
    // The reset starts once the writers are under way.
    while (statuses.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
    // A reset that cannot finish in one call answers 503 and goes on at the next (bounded here).
    let reset = await control('POST', `/test-accounts/${hubId}/reset`);
    for (let call = 1; reset.status === 503 && call < 20; call += 1)
      reset = await control('POST', `/test-accounts/${hubId}/reset`);
    isResetDone = true;
    await Promise.all(writers);

    expect(reset.status).toBe(204);
    // Created, held (503) or over the account's rate limit (429): nothing else, and never a 5xx of a failure.
    expect(statuses.filter((status) => ![201, 429, 503].includes(status))).toEqual([]);
    const listed = await listedContacts(token);
    const searched = await searchedContacts(token);
    expect([...searched].sort()).toEqual([...listed.keys()].sort());
    for (const id of searched) expect((await api('GET', `/crm/v3/objects/contacts/${id}`, token)).status).toBe(200);
    // No record loaded before the reset survived it, and every survivor's email is still claimed.
    expect([...listed.values()].filter((email) => email.startsWith('before-'))).toEqual([]);
    for (const email of listed.values())
      expect((await api('POST', '/crm/v3/objects/contacts', token, { properties: { email } })).status).toBe(409);
  });
});
