import { bearer, install, useTestGateway, type InstalledTokens } from '../../support/harness';
import { uniqueUnderscored } from '../../support/fresh-crm-account';

/**
 * The CRM limits tracking API (`/crm/v3/limits/...` and `/crm/limits/{version}/...`): each usage is
 * the account's own counters, so it follows the account's changes at once.
 */
const gateway = useTestGateway();
let installed: InstalledTokens;

beforeAll(async () => {
  installed = await install(gateway);
});

interface Answer<T> {
  status: number;
  body: T;
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  token = installed.accessToken,
): Promise<Answer<T>> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T };
}

const limits = <T>(path: string, token?: string) => call<T>('GET', `/crm/v3/limits${path}`, undefined, token);

interface TypeUsage {
  objectTypeId: string;
  singularLabel: string;
  pluralLabel: string;
  usage: number;
  limit?: number;
  percentage?: number;
}
interface PerTypeLimits {
  hubspotDefinedObjectTypes: TypeUsage[];
  customObjectTypes: {
    byObjectType: TypeUsage[];
    overallLimit: number;
    overallUsage: number;
    overallPercentage: number;
  };
}
interface PropertyLimits {
  byObjectType: TypeUsage[];
  overallLimit: number;
  overallUsage: number;
  overallPercentage: number;
}
interface LabelLimits {
  results: {
    fromObjectType: { objectTypeId: string };
    toObjectType: { objectTypeId: string };
    allLabels: string[];
    limit: number;
    usage: number;
    percentage: number;
  }[];
}

const usageOf = (entries: readonly TypeUsage[], objectTypeId: string): number | undefined =>
  entries.find((entry) => entry.objectTypeId === objectTypeId)?.usage;

async function createSchema(token = installed.accessToken, name = uniqueUnderscored('limits_object')): Promise<string> {
  const created = await call<{ objectTypeId: string }>(
    'POST',
    '/crm-object-schemas/v3/schemas',
    {
      name,
      labels: { singular: 'Gadget', plural: 'Gadgets' },
      properties: [{ name: 'serial', label: 'Serial', type: 'string', fieldType: 'text' }],
      requiredProperties: ['serial'],
      primaryDisplayProperty: 'serial',
    },
    token,
  );
  expect(created.status).toBe(201);
  return created.body.objectTypeId;
}

/** Every limits path, as the numbered and the dated spellings name it. */
const everyPath = [
  '/records',
  '/custom-object-types',
  '/custom-properties',
  '/calculated-properties',
  '/pipelines',
  '/associations/labels',
  '/associations/labels?fromObjectTypeId=0-1',
  '/associations/labels?fromObjectTypeId=0-1&toObjectTypeId=0-2',
  '/associations/records/from',
  '/associations/records/0-1/to',
  '/associations/records/0-1/0-2',
];

describe('GET /crm/v3/limits/records', () => {
  it('lists the stored HubSpot-defined types with their limit and usage', async () => {
    const answer = await limits<PerTypeLimits>('/records');

    expect(answer.status).toBe(200);
    expect(answer.body.hubspotDefinedObjectTypes).toContainEqual({
      objectTypeId: '0-1',
      singularLabel: 'Contact',
      pluralLabel: 'Contacts',
      limit: 15_000_000,
      usage: expect.any(Number),
      percentage: expect.any(Number),
    });
    expect(answer.body.hubspotDefinedObjectTypes.map((entry) => entry.objectTypeId)).toEqual(
      expect.arrayContaining(['0-1', '0-2', '0-3', '0-5', '0-7', '0-8']),
    );
    expect(answer.body.customObjectTypes).toMatchObject({ overallLimit: 15_000_000 });
  });

  it('counts 3 more contacts after 3 contacts are created, and 1 fewer after one is archived', async () => {
    const before = usageOf((await limits<PerTypeLimits>('/records')).body.hubspotDefinedObjectTypes, '0-1') ?? -1;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await call<{ id: string }>('POST', '/crm/v3/objects/contacts', {
        properties: { email: `limits-${n}-${Date.now()}@example.com` },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }

    const afterCreates = (await limits<PerTypeLimits>('/records')).body.hubspotDefinedObjectTypes;
    expect(await call('DELETE', `/crm/v3/objects/contacts/${ids[0]}`)).toMatchObject({ status: 204 });
    const afterArchive = (await limits<PerTypeLimits>('/records')).body.hubspotDefinedObjectTypes;

    expect(usageOf(afterCreates, '0-1')).toBe(before + 3);
    expect(usageOf(afterArchive, '0-1')).toBe(before + 2);
  });

  it('lists a custom type under customObjectTypes and counts its records', async () => {
    const typeId = await createSchema();
    const listed = (await limits<PerTypeLimits>('/records')).body.customObjectTypes;
    expect(listed.byObjectType).toContainEqual({
      objectTypeId: typeId,
      singularLabel: 'Gadget',
      pluralLabel: 'Gadgets',
      usage: 0,
    });

    expect((await call('POST', `/crm/v3/objects/${typeId}`, { properties: { serial: 'A-1' } })).status).toBe(201);
    const after = (await limits<PerTypeLimits>('/records')).body.customObjectTypes;

    expect(usageOf(after.byObjectType, typeId)).toBe(1);
    expect(after.overallUsage).toBe(listed.overallUsage + 1);
  });
});

describe('GET /crm/v3/limits/custom-object-types', () => {
  it('counts the account schemas against the limit of 10', async () => {
    const { body: before } = await limits<{ limit: number; usage: number; percentage: number }>('/custom-object-types');

    await createSchema();
    const after = await limits<{ limit: number; usage: number; percentage: number }>('/custom-object-types');

    expect(after).toEqual({
      status: 200,
      body: { limit: 10, usage: before.usage + 1, percentage: expect.closeTo(((before.usage + 1) / 10) * 100, 3) },
    });
  });
});

describe('GET /crm/v3/limits/custom-properties', () => {
  it('counts a new custom company property, per type and overall', async () => {
    const { body: before } = await limits<PropertyLimits>('/custom-properties');
    const created = await call('POST', '/crm/v3/properties/companies', {
      name: uniqueUnderscored('limits_prop'),
      label: `Limits property ${Date.now()}`,
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });
    expect(created.status).toBe(201);

    const after = await limits<PropertyLimits>('/custom-properties');

    expect(after.status).toBe(200);
    expect(usageOf(after.body.byObjectType, '0-2')).toBe((usageOf(before.byObjectType, '0-2') ?? 0) + 1);
    expect(after.body.overallUsage).toBe(before.overallUsage + 1);
    expect(after.body.byObjectType.find((entry) => entry.objectTypeId === '0-2')).toMatchObject({ limit: 1000 });
    expect(after.body.overallLimit).toBe(1000 * after.body.byObjectType.length);
  });
});

describe('GET /crm/v3/limits/calculated-properties', () => {
  it('lists every type with no calculated properties', async () => {
    const answer = await limits<PropertyLimits>('/calculated-properties');

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ overallLimit: 200, overallUsage: 0, overallPercentage: 0 });
    expect(answer.body.byObjectType).toContainEqual({
      objectTypeId: '0-2',
      singularLabel: 'Company',
      pluralLabel: 'Companies',
      usage: 0,
    });
  });
});

describe('GET /crm/v3/limits/pipelines', () => {
  it("counts deals' default pipeline, then one more after a pipeline is created", async () => {
    const fresh = await install(gateway);
    const before = await limits<PerTypeLimits>('/pipelines', fresh.accessToken);
    expect(before.status).toBe(200);
    expect(before.body.hubspotDefinedObjectTypes.map((entry) => entry.objectTypeId)).toEqual(['0-3', '0-5']);

    const created = await call(
      'POST',
      '/crm/v3/pipelines/deals',
      {
        label: 'Limits pipeline',
        displayOrder: 1,
        stages: [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }],
      },
      fresh.accessToken,
    );
    expect(created.status).toBe(201);
    const after = await limits<PerTypeLimits>('/pipelines', fresh.accessToken);

    expect(usageOf(before.body.hubspotDefinedObjectTypes, '0-3')).toBe(1);
    expect(usageOf(after.body.hubspotDefinedObjectTypes, '0-3')).toBe(2);
    expect(after.body.hubspotDefinedObjectTypes.find((entry) => entry.objectTypeId === '0-3')).toMatchObject({
      limit: 100,
      percentage: 2,
    });
  });
});

describe('GET /crm/v3/limits/associations/labels', () => {
  it('lists a pair once it holds a custom label, by either filter and by both', async () => {
    const fresh = await install(gateway);
    const none = await limits<LabelLimits>('/associations/labels', fresh.accessToken);
    expect(none).toEqual({ status: 200, body: { results: [] } });

    const name = uniqueUnderscored('limits_label');
    const created = await call(
      'POST',
      '/crm/v4/associations/contacts/companies/labels',
      { name, label: 'Limits label' },
      fresh.accessToken,
    );
    expect(created.status).toBe(200);

    const all = await limits<LabelLimits>('/associations/labels', fresh.accessToken);
    const pair = all.body.results.find(
      (result) => result.fromObjectType.objectTypeId === '0-1' && result.toObjectType.objectTypeId === '0-2',
    );
    expect(pair).toEqual({
      fromObjectType: { objectTypeId: '0-1', singularLabel: 'Contact', pluralLabel: 'Contacts' },
      toObjectType: { objectTypeId: '0-2', singularLabel: 'Company', pluralLabel: 'Companies' },
      allLabels: [name],
      limit: 10,
      usage: 1,
      percentage: 10,
    });
    const filtered = await limits<LabelLimits>(
      '/associations/labels?fromObjectTypeId=contacts&toObjectTypeId=0-2',
      fresh.accessToken,
    );
    expect(filtered.body.results).toEqual([pair]);
  });

  it('answers a pair without labels with usage 0 when both types are given', async () => {
    const answer = await limits<LabelLimits>('/associations/labels?fromObjectTypeId=0-3&toObjectTypeId=0-5');

    expect(answer.body.results).toEqual([
      expect.objectContaining({ allLabels: [], usage: 0, limit: 10, percentage: 0 }),
    ]);
  });

  it('answers 400 naming the filter for a type the account does not have', async () => {
    const answer = await limits<{ category: string; context: unknown }>(
      '/associations/labels?toObjectTypeId=2-999999999',
    );

    expect(answer).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { toObjectTypeId: ['2-999999999'] } },
    });
  });
});

describe('GET /crm/v3/limits/associations/records/...', () => {
  it('answers the per-record limit and no records near or at it', async () => {
    const typeId = await createSchema();

    expect(await limits('/associations/records/from')).toEqual({ status: 200, body: { results: [] } });
    expect(await limits(`/associations/records/${typeId}/to`)).toEqual({ status: 200, body: { results: [] } });
    expect(await limits(`/associations/records/0-1/${typeId}`)).toEqual({
      status: 200,
      body: {
        limit: 1000,
        totalRecordsNearLimit: 0,
        totalRecordsAtLimit: 0,
        nearLimitFromRecordSamples: [],
        atLimitFromRecordSamples: [],
      },
    });
  });

  it('finds a custom type by its id, its fully qualified name and p_<name>', async () => {
    const name = uniqueUnderscored('named_object');
    const typeId = await createSchema(installed.accessToken, name);

    for (const token of [typeId, `p${installed.hubId}_${name}`, `p_${name}`]) {
      expect({ token, status: (await limits(`/associations/records/${token}/to`)).status }).toEqual({
        token,
        status: 200,
      });
    }
  });

  it('answers 400 naming the path parameter for an unknown type', async () => {
    const answer = await limits<{ category: string; context: unknown }>('/associations/records/0-1/no_such_type');

    expect(answer).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { toObjectTypeId: ['no_such_type'] } },
    });
  });
});

describe('numbered and dated spellings', () => {
  it('answer the same on /crm/v3/limits, /crm/limits/2026-03 and /crm/limits/2026-09', async () => {
    for (const path of everyPath) {
      const numbered = await call('GET', `/crm/v3/limits${path}`);
      expect({ path, status: numbered.status }).toEqual({ path, status: 200 });
      for (const version of ['2026-03', '2026-09']) {
        const dated = await call('GET', `/crm/limits/${version}${path}`);
        expect({ path, version, dated }).toEqual({ path, version, dated: numbered });
      }
    }
  });

  it('answers an unknown version 404', async () => {
    expect((await call('GET', '/crm/limits/2025-03/records')).status).toBe(404);
  });

  it('answers 403 to a token with none of the spec scopes', async () => {
    const narrow = await install(gateway, { scopes: ['oauth'] });

    expect((await limits('/records', narrow.accessToken)).status).toBe(403);
    expect((await limits('/custom-object-types', narrow.accessToken)).status).toBe(403);
  });
});
