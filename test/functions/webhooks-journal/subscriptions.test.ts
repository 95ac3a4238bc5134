import { advanceClock, freezeClock, nowMs } from '../../../shared/base/clock';
import {
  clientCredentialsToken,
  install,
  installInto,
  journalAppScopes,
  provision,
  signTestAccessToken,
  useTestGateway,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';

/**
 * The webhooks journal's subscriptions and filters (2026-03) over HTTP, with the app's own
 * client-credentials token: upserts of every type, their checks, the app's limits, filters and the
 * deletes that take them along, each app apart from the others.
 */
const gateway = useTestGateway();
const base = '/webhooks-journal/subscriptions/2026-03';

interface Answer<T = unknown> {
  status: number;
  body: T;
}

interface SubscriptionJson {
  id: number;
  appId: number;
  subscriptionType: string;
  objectTypeId: string;
  actions: string[];
  portalId?: number;
  properties?: string[];
  objectIds?: number[];
  listIds?: number[];
  associatedObjectTypeIds?: string[];
  createdAt: string;
  updatedAt: string;
}

interface FilterJson {
  id: number;
  filter: { conditions: Record<string, unknown>[] };
  createdAt: number;
}

async function call<T = ErrorJson>(
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const response = await fetch(`${gateway.baseUrl}${base}${path}`, {
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

/** An app that lists the journal scopes, installed in one account, and its client-credentials token. */
async function journalApp(): Promise<{ app: InstalledTokens; token: string }> {
  const app = await install(gateway, { scopes: [...journalAppScopes] });
  return { app, token: await clientCredentialsToken(gateway, app) };
}

const objectSubscription = (portalId: number, overrides: Record<string, unknown> = {}) => ({
  subscriptionType: 'OBJECT',
  objectTypeId: '0-1',
  portalId,
  actions: ['CREATE', 'UPDATE'],
  properties: ['email', 'firstname'],
  ...overrides,
});

const upsert = (token: string, body: unknown) => call<SubscriptionJson>(token, 'POST', '', body);

const contextOf = (answer: Answer) => (answer.body as ErrorJson).context;

describe('upserting a subscription', () => {
  it('creates an OBJECT subscription that reads back and lists the same', async () => {
    const { app, token } = await journalApp();

    const created = await upsert(token, objectSubscription(app.hubId, { objectIds: [11, 12] }));
    const read = await call<SubscriptionJson>(token, 'GET', `/${created.body.id}`);
    const listed = await call<{ results: SubscriptionJson[] }>(token, 'GET', '');

    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      appId: app.appId,
      subscriptionType: 'OBJECT',
      objectTypeId: '0-1',
      portalId: app.hubId,
      actions: ['CREATE', 'UPDATE'],
      properties: ['email', 'firstname'],
      objectIds: [11, 12],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: created.body.createdAt,
    });
    expect(read).toEqual({ status: 200, body: created.body });
    expect(listed).toEqual({ status: 200, body: { results: [created.body] } });
  });

  it('updates the subscription of the same type, object type and account: same id, a new update time', async () => {
    const { app, token } = await journalApp();
    freezeClock();
    const first = await upsert(token, objectSubscription(app.hubId));
    advanceClock(5_000);

    const second = await upsert(token, objectSubscription(app.hubId, { actions: ['DELETE'], properties: undefined }));
    const listed = await call<{ results: SubscriptionJson[] }>(token, 'GET', '');

    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.createdAt).toBe(first.body.createdAt);
    expect(Date.parse(second.body.updatedAt) - Date.parse(first.body.updatedAt)).toBe(5_000);
    expect(second.body.actions).toEqual(['DELETE']);
    expect(second.body).not.toHaveProperty('properties');
    expect(listed.body.results).toEqual([second.body]);
  });

  it('keeps subscriptions of another object type or another account apart', async () => {
    const { app, token } = await journalApp();
    const other = await provision();
    await installInto(gateway, app, other);

    const contacts = await upsert(token, objectSubscription(app.hubId));
    const companies = await upsert(token, objectSubscription(app.hubId, { objectTypeId: 'companies' }));
    const otherAccount = await upsert(token, objectSubscription(other.hubId));

    expect(new Set([contacts.body.id, companies.body.id, otherAccount.body.id]).size).toBe(3);
    expect(companies.body.objectTypeId).toBe('0-2');
    expect(otherAccount.body.portalId).toBe(other.hubId);
  });

  it('makes one subscription of one key under concurrent upserts', async () => {
    const { app, token } = await journalApp();

    const answers = await Promise.all(Array.from({ length: 8 }, () => upsert(token, objectSubscription(app.hubId))));
    const listed = await call<{ results: SubscriptionJson[] }>(token, 'GET', '');

    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(listed.body.results).toHaveLength(1);
  });

  it('creates ASSOCIATION, LIST_MEMBERSHIP, GDPR_PRIVACY_DELETION and APP_LIFECYCLE_EVENT subscriptions', async () => {
    const { app, token } = await journalApp();

    const association = await upsert(token, {
      subscriptionType: 'ASSOCIATION',
      objectTypeId: '0-1',
      associatedObjectTypeIds: ['0-2', 'deals'],
      portalId: app.hubId,
      actions: ['ASSOCIATION_ADDED', 'ASSOCIATION_REMOVED'],
    });
    const list = await upsert(token, {
      subscriptionType: 'LIST_MEMBERSHIP',
      listIds: [7, 8],
      portalId: app.hubId,
      actions: ['ADDED_TO_LIST'],
    });
    const gdpr = await upsert(token, {
      subscriptionType: 'GDPR_PRIVACY_DELETION',
      objectTypeId: '0-1',
      portalId: app.hubId,
      actions: ['GDPR_DELETE'],
    });
    const lifecycle = await upsert(token, { subscriptionType: 'APP_LIFECYCLE_EVENT', eventTypeId: '4-1909196' });

    expect([association.status, list.status, gdpr.status, lifecycle.status]).toEqual([200, 200, 200, 200]);
    expect(association.body).toMatchObject({ objectTypeId: '0-1', associatedObjectTypeIds: ['0-2', '0-3'] });
    expect(list.body).toMatchObject({ objectTypeId: '0-45', listIds: [7, 8], actions: ['ADDED_TO_LIST'] });
    expect(gdpr.body).toMatchObject({ objectTypeId: '0-1', actions: ['GDPR_DELETE'] });
    expect(lifecycle.body).toMatchObject({ objectTypeId: '4-1909196', actions: ['APP_INSTALL', 'APP_UNINSTALL'] });
    expect(lifecycle.body).not.toHaveProperty('portalId');
  });

  it('keys an APP_LIFECYCLE_EVENT subscription by its event type', async () => {
    const { token } = await journalApp();

    const first = await upsert(token, {
      subscriptionType: 'APP_LIFECYCLE_EVENT',
      eventTypeId: '4-1',
      actions: ['APP_INSTALL'],
    });
    const again = await upsert(token, {
      subscriptionType: 'APP_LIFECYCLE_EVENT',
      eventTypeId: '4-1',
      actions: ['APP_UNINSTALL'],
    });
    const other = await upsert(token, { subscriptionType: 'APP_LIFECYCLE_EVENT', eventTypeId: '4-2' });

    expect(again.body.id).toBe(first.body.id);
    expect(again.body.actions).toEqual(['APP_UNINSTALL']);
    expect(other.body.id).not.toBe(first.body.id);
  });
});

describe('checks of an upsert (400 naming the field)', () => {
  let token: string;
  let hubId: number;
  beforeAll(async () => {
    const journal = await journalApp();
    token = journal.token;
    hubId = journal.app.hubId;
  });

  it.each([
    [
      'an unknown subscription type',
      () => objectSubscription(hubId, { subscriptionType: 'EVENT' }),
      'body.subscriptionType',
    ],
    [
      'an action of another type',
      () => objectSubscription(hubId, { actions: ['CREATE', 'GDPR_DELETE'] }),
      'body.actions.1',
    ],
    ['an action twice', () => objectSubscription(hubId, { actions: ['CREATE', 'CREATE'] }), 'body.actions'],
    ['no actions', () => objectSubscription(hubId, { actions: [] }), 'body.actions'],
    ['an action outside the enum', () => objectSubscription(hubId, { actions: ['EXPLODE'] }), 'body.actions.0'],
    ['an unknown object type', () => objectSubscription(hubId, { objectTypeId: '0-9999' }), 'body.objectTypeId'],
    ['a missing portal', () => objectSubscription(hubId, { portalId: undefined }), 'body.portalId'],
    ['a field of another type', () => objectSubscription(hubId, { listIds: [1] }), 'body.listIds'],
    [
      '101 object ids',
      () => objectSubscription(hubId, { objectIds: Array.from({ length: 101 }, (_, i) => i + 1) }),
      'body.objectIds',
    ],
    [
      '101 properties',
      () => objectSubscription(hubId, { properties: Array.from({ length: 101 }, (_, i) => `p${i}`) }),
      'body.properties',
    ],
    [
      '21 associated object types',
      () => ({
        subscriptionType: 'ASSOCIATION',
        objectTypeId: '0-1',
        portalId: hubId,
        actions: ['ASSOCIATION_ADDED'],
        associatedObjectTypeIds: Array(21).fill('0-2'),
      }),
      'body.associatedObjectTypeIds',
    ],
    [
      'an unknown associated object type',
      () => ({
        subscriptionType: 'ASSOCIATION',
        objectTypeId: '0-1',
        portalId: hubId,
        actions: ['ASSOCIATION_ADDED'],
        associatedObjectTypeIds: ['0-2', 'widgets'],
      }),
      'body.associatedObjectTypeIds.1',
    ],
    [
      '101 list ids',
      () => ({
        subscriptionType: 'LIST_MEMBERSHIP',
        portalId: hubId,
        actions: ['ADDED_TO_LIST'],
        listIds: Array.from({ length: 101 }, (_, i) => i + 1),
      }),
      'body.listIds',
    ],
    [
      'a lifecycle subscription without its event type',
      () => ({ subscriptionType: 'APP_LIFECYCLE_EVENT' }),
      'body.eventTypeId',
    ],
  ])('refuses %s', async (_label, body, field) => {
    const answer = await upsert(token, body());

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(JSON.stringify(answer.body)).toContain(`"${field}"`);
  });

  it('refuses an account where the app is not installed, naming portalId', async () => {
    const stranger = await provision();

    const answer = await upsert(token, objectSubscription(stranger.hubId));

    expect(answer.status).toBe(400);
    expect(contextOf(answer)).toEqual({ field: ['body.portalId'], portalId: [String(stranger.hubId)] });
  });
});

describe('auth', () => {
  it('answers 401 without a token, with the body every route gives', async () => {
    const journal = await call(undefined, 'GET', '');
    const crm = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`);
    const crmBody = (await crm.json()) as ErrorJson;

    expect(journal.status).toBe(401);
    expect({ ...(journal.body as ErrorJson), correlationId: 'C' }).toEqual({ ...crmBody, correlationId: 'C' });
  });

  it("answers 401 to an account's access token, even one holding the scope", async () => {
    const { app } = await journalApp();
    const accountToken = signTestAccessToken({
      appId: app.appId,
      hubId: app.hubId,
      scopes: ['developer.webhooks_journal.subscriptions.read'],
    });

    const withScope = await call(accountToken, 'GET', '');
    const installToken = await call(app.accessToken, 'GET', '');

    expect([withScope.status, installToken.status]).toEqual([401, 401]);
    expect(withScope.body).toMatchObject({ category: 'INVALID_AUTHENTICATION' });
  });

  it('answers 403 MISSING_SCOPES to a read-only token that writes, and lets it read', async () => {
    const { app } = await journalApp();
    const readOnly = await clientCredentialsToken(gateway, app, ['developer.webhooks_journal.subscriptions.read']);

    const write = await upsert(readOnly, objectSubscription(app.hubId));
    const read = await call(readOnly, 'GET', '');
    const deleteFilter = await call(readOnly, 'DELETE', '/filters/1');

    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      category: 'MISSING_SCOPES',
      context: { requiredGranularScopes: ['developer.webhooks_journal.subscriptions.write'] },
    });
    expect(deleteFilter.status).toBe(403);
    expect(read.status).toBe(200);
  });

  it('answers 403 to a token of the journal data scope alone on the subscription routes', async () => {
    const { app } = await journalApp();
    const dataOnly = await clientCredentialsToken(gateway, app, ['developer.webhooks_journal.read']);

    expect((await call(dataOnly, 'GET', '')).status).toBe(403);
  });
});

describe("an app's subscriptions are its own", () => {
  it("answers another app's subscription and filter as missing ones (404), and lists none of them", async () => {
    const owner = await journalApp();
    const stranger = await journalApp();
    const subscription = await upsert(owner.token, objectSubscription(owner.app.hubId));
    const filter = await call<{ filterId: number }>(owner.token, 'POST', '/filters', {
      subscriptionId: subscription.body.id,
      filter: { conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: 'email', operator: 'IS_NOT_EMPTY' }] },
    });
    const id = subscription.body.id;

    const answers = [
      await call(stranger.token, 'GET', `/${id}`),
      await call(stranger.token, 'DELETE', `/${id}`),
      await call(stranger.token, 'GET', `/filters/${filter.body.filterId}`),
      await call(stranger.token, 'DELETE', `/filters/${filter.body.filterId}`),
      await call(stranger.token, 'GET', `/filters/subscription/${id}`),
      await call(stranger.token, 'POST', '/filters', {
        subscriptionId: id,
        filter: { conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: 'email', operator: 'IS_EMPTY' }] },
      }),
    ];
    const strangerList = await call<{ results: SubscriptionJson[] }>(stranger.token, 'GET', '');
    await call(stranger.token, 'DELETE', `/portals/${owner.app.hubId}`);
    const ownerRead = await call<SubscriptionJson>(owner.token, 'GET', `/${id}`);
    const ownerFilters = await call<FilterJson[]>(owner.token, 'GET', `/filters/subscription/${id}`);

    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(strangerList.body).toEqual({ results: [] });
    expect(ownerRead).toEqual({ status: 200, body: subscription.body });
    expect(ownerFilters.body.map((one) => one.id)).toEqual([filter.body.filterId]);
  });
});

describe('deleting subscriptions', () => {
  it('deletes one (204), then answers 404 for it', async () => {
    const { app, token } = await journalApp();
    const subscription = await upsert(token, objectSubscription(app.hubId));

    const deleted = await call(token, 'DELETE', `/${subscription.body.id}`);
    const read = await call(token, 'GET', `/${subscription.body.id}`);
    const again = await call(token, 'DELETE', `/${subscription.body.id}`);

    expect(deleted).toEqual({ status: 204, body: undefined });
    expect([read.status, again.status]).toEqual([404, 404]);
    expect(contextOf(read)).toEqual({ subscriptionId: [String(subscription.body.id)] });
  });

  it('answers 404 for ids no subscription can have', async () => {
    const { token } = await journalApp();

    expect((await call(token, 'GET', '/not-a-number')).status).toBe(404);
    expect((await call(token, 'GET', '/0')).status).toBe(404);
  });

  it("deletes every subscription of one account and their filters, leaving the other account's", async () => {
    const { app, token } = await journalApp();
    const other = await provision();
    await installInto(gateway, app, other);
    const contacts = await upsert(token, objectSubscription(app.hubId));
    const companies = await upsert(token, objectSubscription(app.hubId, { objectTypeId: '0-2' }));
    const kept = await upsert(token, objectSubscription(other.hubId));
    const lifecycle = await upsert(token, { subscriptionType: 'APP_LIFECYCLE_EVENT', eventTypeId: '4-7' });
    const filter = await call<{ filterId: number }>(token, 'POST', '/filters', {
      subscriptionId: contacts.body.id,
      filter: { conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: 'email', operator: 'IS_NOT_EMPTY' }] },
    });

    const deleted = await call(token, 'DELETE', `/portals/${app.hubId}`);
    const listed = await call<{ results: SubscriptionJson[] }>(token, 'GET', '');
    const filterRead = await call(token, 'GET', `/filters/${filter.body.filterId}`);
    const none = await call(token, 'DELETE', `/portals/${app.hubId}`);

    expect(deleted.status).toBe(204);
    expect(listed.body.results.map((one) => one.id).sort()).toEqual([kept.body.id, lifecycle.body.id].sort());
    expect(listed.body.results.map((one) => one.id)).not.toContain(companies.body.id);
    expect(filterRead.status).toBe(404);
    expect(none.status).toBe(204);
  });

  it('answers 400 naming portalId for a portal id that is not a number', async () => {
    const { token } = await journalApp();

    const answer = await call(token, 'DELETE', '/portals/abc');

    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('path.portalId');
  });
});

describe('the limit of subscriptions per app', () => {
  it('holds at 100 under concurrent creates, and a delete frees a place', async () => {
    const { token } = await journalApp();
    const eventTypes = Array.from({ length: 110 }, (_, index) => `4-${index + 1}`);
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let index = next++; index < eventTypes.length; index = next++) {
          const answer = await upsert(token, {
            subscriptionType: 'APP_LIFECYCLE_EVENT',
            eventTypeId: eventTypes[index],
          });
          statuses.push(answer.status);
        }
      }),
    );
    const listed = await call<{ results: SubscriptionJson[] }>(token, 'GET', '');
    const refused = await upsert(token, { subscriptionType: 'APP_LIFECYCLE_EVENT', eventTypeId: '4-999' });
    const update = await upsert(token, {
      subscriptionType: 'APP_LIFECYCLE_EVENT',
      eventTypeId: listed.body.results[0]?.objectTypeId,
      actions: ['APP_INSTALL'],
    });
    await call(token, 'DELETE', `/${listed.body.results[1]?.id}`);
    const afterDelete = await upsert(token, { subscriptionType: 'APP_LIFECYCLE_EVENT', eventTypeId: '4-999' });

    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(listed.body.results).toHaveLength(100);
    expect(refused.status).toBe(400);
    expect(update.status).toBe(200);
    expect(afterDelete.status).toBe(200);
  });
});

describe('filters', () => {
  const condition = (overrides: Record<string, unknown>) => ({
    filterType: 'CRM_OBJECT_PROPERTY',
    property: 'lifecyclestage',
    operator: 'EQ',
    value: 'customer',
    ...overrides,
  });

  async function subscribed(): Promise<{ token: string; subscriptionId: number }> {
    const { app, token } = await journalApp();
    return { token, subscriptionId: (await upsert(token, objectSubscription(app.hubId))).body.id };
  }

  it('creates, reads, lists and deletes a filter', async () => {
    const { token, subscriptionId } = await subscribed();
    const conditions = [
      condition({}),
      condition({ property: 'email', operator: 'IN', value: undefined, values: ['a@x.example', 'b@x.example'] }),
      condition({ property: 'phone', operator: 'IS_EMPTY', value: undefined }),
    ];
    freezeClock();

    const created = await call<{ filterId: number }>(token, 'POST', '/filters', {
      subscriptionId,
      filter: { conditions },
    });
    const read = await call<FilterJson>(token, 'GET', `/filters/${created.body.filterId}`);
    const listed = await call<FilterJson[]>(token, 'GET', `/filters/subscription/${subscriptionId}`);
    const deleted = await call(token, 'DELETE', `/filters/${created.body.filterId}`);
    const gone = await call(token, 'GET', `/filters/${created.body.filterId}`);
    const listedAfter = await call<FilterJson[]>(token, 'GET', `/filters/subscription/${subscriptionId}`);

    expect(created).toEqual({ status: 200, body: { filterId: expect.any(Number) } });
    expect(read).toEqual({
      status: 200,
      body: {
        id: created.body.filterId,
        filter: {
          conditions: [
            { filterType: 'CRM_OBJECT_PROPERTY', property: 'lifecyclestage', operator: 'EQ', value: 'customer' },
            {
              filterType: 'CRM_OBJECT_PROPERTY',
              property: 'email',
              operator: 'IN',
              values: ['a@x.example', 'b@x.example'],
            },
            { filterType: 'CRM_OBJECT_PROPERTY', property: 'phone', operator: 'IS_EMPTY' },
          ],
        },
        createdAt: nowMs(),
      },
    });
    expect(listed).toEqual({ status: 200, body: [read.body] });
    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(listedAfter).toEqual({ status: 200, body: [] });
  });

  it.each([
    ['a single-value operator without value', condition({ value: undefined }), 'body.filter.conditions.0.value'],
    ['a single-value operator with values', condition({ values: ['a'] }), 'body.filter.conditions.0.values'],
    ['IN without values', condition({ operator: 'IN', value: undefined }), 'body.filter.conditions.0.values'],
    ['NOT_IN with value', condition({ operator: 'NOT_IN', values: ['a'] }), 'body.filter.conditions.0.value'],
    ['IS_EMPTY with a value', condition({ operator: 'IS_EMPTY' }), 'body.filter.conditions.0.value'],
    ['an unknown operator', condition({ operator: 'LIKE' }), 'body.filter.conditions.0.operator'],
    ['an unknown filter type', condition({ filterType: 'ASSOCIATION' }), 'body.filter.conditions.0.filterType'],
    [
      '101 values',
      condition({ operator: 'IN', value: undefined, values: Array(101).fill('v') }),
      'body.filter.conditions.0.values',
    ],
  ])('refuses %s (400 naming the field)', async (_label, bad, field) => {
    const { token, subscriptionId } = await subscribed();

    const answer = await call(token, 'POST', '/filters', { subscriptionId, filter: { conditions: [bad] } });

    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(`"${field}"`);
  });

  it('refuses a filter of 26 conditions and one of none', async () => {
    const { token, subscriptionId } = await subscribed();

    const many = await call(token, 'POST', '/filters', {
      subscriptionId,
      filter: { conditions: Array.from({ length: 26 }, () => condition({})) },
    });
    const none = await call(token, 'POST', '/filters', { subscriptionId, filter: { conditions: [] } });

    expect([many.status, none.status]).toEqual([400, 400]);
    expect(JSON.stringify(many.body)).toContain('"body.filter.conditions"');
  });

  it('answers 404 for a filter of a subscription that does not exist', async () => {
    const { token } = await journalApp();

    const answer = await call(token, 'POST', '/filters', {
      subscriptionId: 999_999_999,
      filter: { conditions: [condition({})] },
    });

    expect(answer.status).toBe(404);
    expect(contextOf(answer)).toEqual({ subscriptionId: ['999999999'] });
  });

  it('holds a subscription to 10 filters', async () => {
    const { token, subscriptionId } = await subscribed();

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        call(token, 'POST', '/filters', {
          subscriptionId,
          filter: { conditions: [condition({ value: `v${index}` })] },
        }),
      ),
    );
    const listed = await call<FilterJson[]>(token, 'GET', `/filters/subscription/${subscriptionId}`);

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(2);
    expect(listed.body).toHaveLength(10);
  });

  it('goes with its subscription when the subscription is deleted', async () => {
    const { token, subscriptionId } = await subscribed();
    const filters = [
      await call<{ filterId: number }>(token, 'POST', '/filters', {
        subscriptionId,
        filter: { conditions: [condition({})] },
      }),
      await call<{ filterId: number }>(token, 'POST', '/filters', {
        subscriptionId,
        filter: { conditions: [condition({ value: 'lead' })] },
      }),
    ];

    await call(token, 'DELETE', `/${subscriptionId}`);
    const reads = await Promise.all(filters.map((filter) => call(token, 'GET', `/filters/${filter.body.filterId}`)));
    const listed = await call(token, 'GET', `/filters/subscription/${subscriptionId}`);

    expect(reads.map((read) => read.status)).toEqual([404, 404]);
    expect(listed.status).toBe(404);
  });
});
