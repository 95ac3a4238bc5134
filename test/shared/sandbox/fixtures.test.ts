import { loadFixtures, maxFixtureRecords } from '../../../shared/sandbox/fixtures';
import { AppError } from '../../../shared/base/errors';
import { dynamoCallCounter } from '../../../shared/db/client';
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
