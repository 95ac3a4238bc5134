import type { RunningGateway } from '../../../local/local-gateway';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import { recordKey } from '../../../shared/db/keys';
import { companyKeys } from '../../../shared/companies/company-keys';
import { crmClient, type CrmClient, type Json } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';
import { sendRaw } from '../../support/route-world';

let accessToken: string;

/** node:http (sendRaw), because fetch will not send a Host header of the caller's choosing. */
async function sendWithForgedHost(
  method: string,
  pathName: string,
  body?: unknown,
): Promise<{ status: number; location?: string; body: Json }> {
  const response = await sendRaw(
    gateway.baseUrl,
    method,
    pathName,
    {
      host: 'attacker.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'attacker.example',
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body === undefined ? undefined : JSON.stringify(body),
  );
  const location = response.headers.location;
  return {
    status: response.status,
    location: typeof location === 'string' ? location : undefined,
    body: JSON.parse(response.text) as Json,
  };
}

let gateway: RunningGateway;
let api: CrmClient;
const createdIds: string[] = [];

beforeAll(async () => {
  gateway = await startTestGateway();
  const installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
  accessToken = installed.accessToken;
  for (let chunk = 0; chunk < 105; chunk += 15) {
    const responses = await Promise.all(
      Array.from({ length: Math.min(15, 105 - chunk) }, (_, index) =>
        api.post('/crm/v3/objects/companies', { properties: { name: `Listed ${chunk + index}` } }),
      ),
    );
    createdIds.push(...responses.map((response) => String(response.body.id)));
  }
});

afterAll(async () => {
  await gateway.close();
});

async function walk(limit: number): Promise<string[]> {
  const seen: string[] = [];
  let path = `/crm/v3/objects/companies?limit=${limit}`;
  for (let pages = 0; pages < 1000; pages += 1) {
    const response = await api.get<Json>(path);
    expect(response.status).toBe(200);
    seen.push(...(response.body.results ?? []).map((company) => company.id));
    const next = response.body.paging?.next;
    if (!next) return seen;
    path = `/crm/v3/objects/companies?limit=${limit}&after=${encodeURIComponent(next.after)}`;
  }
  throw new Error('paging did not end');
}

describe('GET /crm/v3/objects/companies', () => {
  it.each([1, 7, 100])('walks every record exactly once with pages of %i', async (limit) => {
    const seen = await walk(limit);

    expect(seen).toHaveLength(createdIds.length);
    expect([...seen].sort()).toEqual([...createdIds].sort());
  });

  it('returns 10 records by default', async () => {
    const response = await api.get('/crm/v3/objects/companies');

    expect(response.body.results).toHaveLength(10);
  });

  it('omits paging on the last page', async () => {
    const response = await api.get('/crm/v3/objects/companies?limit=100');
    const last = await api.get(`/crm/v3/objects/companies?limit=100&after=${response.body.paging?.next.after}`);

    expect(last.body.results).toHaveLength(5);
    expect(last.body).not.toHaveProperty('paging');
  });

  it("builds the next link from the gateway's own address, not from the Host and X-Forwarded-* headers the client sent", async () => {
    const response = await sendWithForgedHost('GET', '/crm/v3/objects/companies?limit=2');

    expect(response.status).toBe(200);
    expect(
      (response.body.paging as { next: { link: string } }).next.link.startsWith(
        `${gateway.baseUrl}/crm/v3/objects/companies?`,
      ),
    ).toBe(true);
  });

  it("builds the Location of a created company from the gateway's own address, whatever Host the client sent", async () => {
    const response = await sendWithForgedHost('POST', '/crm/v3/objects/companies', { properties: { name: 'Located' } });

    expect(response.status).toBe(201);
    expect(response.location).toBe(`${gateway.baseUrl}/crm/v3/objects/companies/${String(response.body.id)}`);
  });

  it('gives a next link that repeats the query with the cursor and can be followed', async () => {
    const response = await api.get('/crm/v3/objects/companies?limit=2&properties=name');
    const link = response.body.paging?.next.link ?? '';

    const followed = await api.get(link.replace(gateway.baseUrl, ''));

    expect(link).toBe(
      `${gateway.baseUrl}/crm/v3/objects/companies?limit=2&properties=name&after=${response.body.paging?.next.after}`,
    );
    expect(followed.body.results?.[0]?.id).not.toBe(response.body.results?.[1]?.id);
    expect(Object.keys(followed.body.results?.[0]?.properties ?? {})).toEqual(['name']);
  });

  it('costs one Query per page', async () => {
    dynamoCallCounter.reset();

    await api.get('/crm/v3/objects/companies?limit=100');

    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ QueryCommand: 1 });
  });

  it('reads a stored company item that lacks its history, properties and association maps (200, never 500)', async () => {
    const bare = await install(gateway);
    const id = '1091000000000001';
    const now = new Date().toISOString();
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...recordKey(companyKeys, bare.hubId, id),
          id,
          createdAt: now,
          updatedAt: now,
          archived: false,
          version: 1,
        },
      }),
    );
    const bareApi = crmClient(gateway, bare.accessToken);

    const listed = await bareApi.get('/crm/v3/objects/companies?propertiesWithHistory=name,true&properties=name');
    const read = await bareApi.get(`/crm/v3/objects/companies/${id}?propertiesWithHistory=name&associations=contacts`);

    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      results: [{ id, properties: { name: null }, propertiesWithHistory: { name: [] } }],
    });
    expect(read.status).toBe(200);
  });

  it('answers 400 for a limit above 100', async () => {
    const response = await api.get('/crm/v3/objects/companies?limit=101');

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
  });

  it('answers 400 for a cursor it did not issue', async () => {
    const response = await api.get('/crm/v3/objects/companies?after=garbage');

    expect(response.status).toBe(400);
  });

  it('lists only archived records with archived=true', async () => {
    const victim = createdIds[0] ?? '';
    await api.delete(`/crm/v3/objects/companies/${victim}`);

    const archived = await api.get('/crm/v3/objects/companies?archived=true');
    const active = await api.get('/crm/v3/objects/companies?limit=100');

    expect(archived.body.results?.map((company) => company.id)).toEqual([victim]);
    expect(active.body.results?.map((company) => company.id)).not.toContain(victim);
    createdIds.shift();
  });
});
