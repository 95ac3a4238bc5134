import { loadFixtures, maxFixtureLists, maxFixtureMembers, maxFixtureRecords } from '../../../shared/sandbox/fixtures';
import { AppError, ServiceUnavailableError } from '../../../shared/base/errors';
import { dynamoCallCounter } from '../../../shared/db/client';
import { queryPage } from '../../../shared/db/core';
import { hubPartition, listMembersPartition } from '../../../shared/db/keys';
import * as memberships from '../../../shared/lists/change-memberships';
import { bearer, install, useTestGateway, type InstalledTokens } from '../../support/harness';
import { sandboxControl } from '../../support/sandbox-control';

/**
 * The fixtures loader against its deadline (shared/sandbox/fixtures.ts): a load that cannot finish in the
 * function's time stops writing while removing its writes still fits, and answers 503 with Retry-After
 * with nothing of it left; the documented maximum loads within the deployed function's time. Each
 * record is checked once, and a write refused after the checks answers its own status.
 */
const gateway = useTestGateway();
let developer: InstalledTokens;

beforeAll(async () => {
  developer = await install(gateway);
});

const control = (method: string, path: string, body?: unknown) =>
  sandboxControl<never>(gateway, developer.developerApiKey, method, path, body);

async function testAccount(): Promise<{ hubId: number; token: string }> {
  const created = await control('POST', '/test-accounts', {});
  expect(created.status).toBe(201);
  const hubId = (created.body as { hubId: number }).hubId;
  const tokens = await control('POST', `/test-accounts/${hubId}/installs`, {
    appId: developer.appId,
    scopes: developer.scopes,
  });
  expect(tokens.status).toBe(201);
  return { hubId, token: (tokens.body as { access_token: string }).access_token };
}

/** Every contact of the account, paged through the API. */
async function contactCount(token: string): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const response = await fetch(
      `${gateway.baseUrl}/crm/v3/objects/contacts?limit=100${after ? `&after=${after}` : ''}`,
      { headers: bearer(token) },
    );
    const body = (await response.json()) as { results: unknown[]; paging?: { next?: { after: string } } };
    count += body.results.length;
    after = body.paging?.next?.after;
    if (!after) return count;
  }
  return count;
}

/** The account's lists, through the lists API's search. */
async function listCount(token: string): Promise<number> {
  const response = await fetch(`${gateway.baseUrl}/crm/v3/lists/search`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({}),
  });
  return ((await response.json()) as { total: number }).total;
}

/** The account's items of lists and memberships: lists, name claims and records' reverse items in its partition. */
async function listItemsOf(hubId: number): Promise<string[]> {
  const found: string[] = [];
  for (const skPrefix of ['LIST#', 'LIST_NAME#', 'LIST_OF#']) {
    const page = await queryPage({ pk: hubPartition(hubId), skPrefix, projection: 'pk, sk' });
    found.push(...page.items.map((item) => String(item.sk)));
  }
  return found;
}

/** The maximum of lists, each holding the first `count` contacts. */
const everyContactListed = (count: number) =>
  Array.from({ length: maxFixtureLists }, (_, index) => ({
    ref: `l${index}`,
    name: `List ${index}`,
    objectTypeId: '0-1',
    processingType: 'MANUAL',
    members: Array.from({ length: count }, (_, member) => `c${member}`),
  }));

const contacts = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => ({
    ref: `c${index}`,
    objectType: 'contacts',
    properties: { email: `${prefix}${index}@fixtures.example` },
  }));

describe('fixtures against the deadline', () => {
  it('answer 503 with Retry-After and leave nothing behind when the load cannot finish in time', async () => {
    const { hubId, token } = await testAccount();
    const records = contacts(200, `late-${hubId}-`);
    const developerOf = { developerId: developer.developerId, appIds: [developer.appId] };
    // Deadlines from tight to roomy, each a call that may stop at any point of its writes.
    const outcomes: string[] = [];
    for (const budgetMs of [1500, 2500, 4000, 6000]) {
      const error = await loadFixtures(developerOf, String(hubId), { records }, performance.now() + budgetMs).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (error === undefined) {
        outcomes.push('loaded');
        break;
      }
      expect(error).toBeInstanceOf(AppError);
      expect({
        status: (error as AppError).status,
        retryAfter: (error as AppError).headers?.['retry-after'],
        left: await contactCount(token),
      }).toEqual({ status: 503, retryAfter: '1', left: 0 });
      outcomes.push('refused');
    }
    expect(outcomes[0]).toBe('refused');
    // Nothing of the refused calls holds an email: the same records load in full with the function's time.
    const loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, { records });
    expect(outcomes.at(-1) === 'loaded' ? 409 : 201).toBe(loaded.status);
  });

  it('load the documented maximum within the function time: 200 contacts (a 503 left nothing, so it is sent again)', async () => {
    const { hubId, token } = await testAccount();
    const records = contacts(maxFixtureRecords, `max-${hubId}-`);
    // A loaded machine can be too slow for one call's time: the 503 removed what it wrote, and a
    // client sends the same call again (bounded here), as Retry-After asks.
    let loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, { records });
    for (let call = 1; loaded.status === 503 && call < 5; call += 1) {
      expect(await contactCount(token)).toBe(0);
      loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, { records });
    }
    expect(loaded.status).toBe(201);
    expect(Object.keys((loaded.body as { ids: object }).ids)).toHaveLength(maxFixtureRecords);
    expect(await contactCount(token)).toBe(maxFixtureRecords);
  });

  it('answer 503 with nothing of their lists left when lists and members cannot finish in time, and load the maximum of both', async () => {
    const { hubId, token } = await testAccount();
    // 100 contacts in each of 20 lists: the maximum of lists and of members.
    const records = contacts(maxFixtureMembers / maxFixtureLists, `lists-late-${hubId}-`);
    const lists = everyContactListed(maxFixtureMembers / maxFixtureLists);
    const developerOf = { developerId: developer.developerId, appIds: [developer.appId] };
    const outcomes: string[] = [];
    for (const budgetMs of [1500, 3000, 5000, 8000]) {
      const error = await loadFixtures(
        developerOf,
        String(hubId),
        { records, lists },
        performance.now() + budgetMs,
      ).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (error === undefined) {
        outcomes.push('loaded');
        break;
      }
      expect(error).toBeInstanceOf(AppError);
      expect({
        status: (error as AppError).status,
        contacts: await contactCount(token),
        lists: await listCount(token),
        items: await listItemsOf(hubId),
      }).toEqual({ status: 503, contacts: 0, lists: 0, items: [] });
      outcomes.push('refused');
    }
    expect(outcomes[0]).toBe('refused');
    if (outcomes.at(-1) === 'loaded') expect((await control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);
    // The maximum in the function's time (a 503 left nothing, so it is sent again, as Retry-After asks).
    let loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, { records, lists });
    for (let call = 1; loaded.status === 503 && call < 5; call += 1) {
      expect(await listItemsOf(hubId)).toEqual([]);
      loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, { records, lists });
    }
    expect(loaded.status).toBe(201);
    expect(Object.keys((loaded.body as { listIds: object }).listIds)).toHaveLength(maxFixtureLists);
    const listId = (loaded.body as { listIds: Record<string, string> }).listIds.l7;
    const members = await fetch(`${gateway.baseUrl}/crm/v3/lists/${listId}/memberships?limit=1`, {
      headers: bearer(token),
    });
    expect(((await members.json()) as { total: number }).total).toBe(maxFixtureMembers / maxFixtureLists);
  });

  it('remove their lists with their members and names when a membership write fails after others went in', async () => {
    const { hubId, token } = await testAccount();
    const real = memberships.changeMemberships;
    const listIds: string[] = [];
    // The last list's add writes its members, then fails as a concurrent change of the list would make it.
    const spy = jest.spyOn(memberships, 'changeMemberships').mockImplementation(async (hub, listId, request) => {
      listIds.push(listId);
      const answer = await real(hub, listId, request);
      if (listIds.length === 3)
        throw new ServiceUnavailableError('The list changed while this request ran. Retry the request.', {
          headers: { 'retry-after': '1' },
        });
      return answer;
    });
    const developerOf = { developerId: developer.developerId, appIds: [developer.appId] };

    const refused = await loadFixtures(
      developerOf,
      String(hubId),
      { records: contacts(40, `lists-undo-${hubId}-`), lists: everyContactListed(40).slice(0, 3) },
      performance.now() + 120_000,
    ).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    spy.mockRestore();

    expect(refused).toBeInstanceOf(AppError);
    expect({
      status: (refused as AppError).status,
      retryAfter: (refused as AppError).headers?.['retry-after'],
    }).toEqual({ status: 503, retryAfter: '1' });
    expect(listIds).toHaveLength(3);
    const partitions = await Promise.all(
      listIds.map(async (listId) => (await queryPage({ pk: listMembersPartition(hubId, listId) })).items.length),
    );
    expect({
      contacts: await contactCount(token),
      lists: await listCount(token),
      items: await listItemsOf(hubId),
      partitions,
    }).toEqual({ contacts: 0, lists: 0, items: [], partitions: [0, 0, 0] });
    // Names and emails are free again: the same call loads.
    const loaded = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: contacts(40, `lists-undo-${hubId}-`),
      lists: everyContactListed(40).slice(0, 3),
    });
    expect(loaded.status).toBe(201);
  });

  it('refuse more than the maximum with a 400 naming the field', async () => {
    const { hubId } = await testAccount();
    const tooMany = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: contacts(maxFixtureRecords + 1, `over-${hubId}-`),
    });
    expect(tooMany).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(tooMany.body)).toContain('records');
  });
});

describe('fixtures and their checks', () => {
  const developerOf = () => ({ developerId: developer.developerId, appIds: [developer.appId] });

  it("check each record once: 200 contacts' emails are looked up in the account in two reads of 100", async () => {
    const { hubId, token } = await testAccount();
    dynamoCallCounter.reset();

    const loaded = await loadFixtures(
      developerOf(),
      String(hubId),
      { records: contacts(maxFixtureRecords, `once-${hubId}-`) },
      performance.now() + 120_000,
    );

    expect(Object.keys(loaded.ids)).toHaveLength(maxFixtureRecords);
    expect(dynamoCallCounter.callsApartFromRetries().BatchGetItemCommand).toBe(2);
    expect(await contactCount(token)).toBe(maxFixtureRecords);
  });

  it('answer the load that loses a race for a unique value with 409 CONFLICT, whether its checks or its write lost', async () => {
    const { hubId, token } = await testAccount();
    const records = contacts(1, `race-${hubId}-`);

    // Both loads usually pass their checks before either writes: the loser's write is refused.
    const outcomes = await Promise.allSettled(
      [0, 1].map(() => loadFixtures(developerOf(), String(hubId), { records }, performance.now() + 120_000)),
    );

    const loaded = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(loaded).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(AppError);
    const error = refused[0] as AppError;
    expect({ status: error.status, category: error.category, message: error.message }).toEqual({
      status: 409,
      category: 'CONFLICT',
      message: `Contact already exists. Existing ID: ${loaded[0]?.ids.c0}`,
    });
    expect(await contactCount(token)).toBe(1);
  });
});
