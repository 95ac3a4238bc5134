import type { RunningGateway } from '../../local/local-gateway';
import { install, startTestGateway, type InstalledTokens } from '../support/harness';

/**
 * The dated spellings (`/crm/objects/2026-03/...`, docs/versions.md) answer as their numbered twins,
 * but for the listed differences; an unknown version is an unknown path.
 */
let gateway: RunningGateway;
let installed: InstalledTokens;

beforeAll(async () => {
  gateway = await startTestGateway();
  installed = await install(gateway);
});

afterAll(async () => {
  await gateway.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${installed.accessToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Correlation ids differ per request. */
const masked = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body ?? null).replace(/"correlationId":"[^"]+"/g, '"correlationId":"*"'));

describe('dated versions', () => {
  it('serves a record on 2026-03 and 2026-09 as on v3, with paging links on the path it was asked on', async () => {
    const created = await call('POST', '/crm/objects/2026-03/companies', { properties: { name: 'Dated Co' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await call('POST', '/crm/v3/objects/companies', { properties: { name: 'Second Co' } });

    const numbered = await call('GET', `/crm/v3/objects/companies/${id}`);
    for (const version of ['2026-03', '2026-09']) {
      const dated = await call('GET', `/crm/objects/${version}/companies/${id}`);
      expect([dated.status, dated.body]).toEqual([numbered.status, numbered.body]);
      const page = await call('GET', `/crm/objects/${version}/companies?limit=1`);
      expect((page.body as { paging: { next: { link: string } } }).paging.next.link).toContain(
        `/crm/objects/${version}/companies?`,
      );
    }
  });

  it('answers an error on a dated path as on its numbered twin', async () => {
    const numbered = await call('POST', '/crm/v3/objects/companies/search', { limit: 'many' });
    const dated = await call('POST', '/crm/objects/2026-09/companies/search', { limit: 'many' });
    expect(dated.status).toBe(400);
    expect([dated.status, masked(dated.body)]).toEqual([numbered.status, masked(numbered.body)]);
  });

  it('answers an unknown version as an unknown path, before authentication', async () => {
    const unknownPath = await fetch(`${gateway.baseUrl}/crm/no-such-api/companies`);
    for (const version of ['2025-09', 'v3', '2026-3']) {
      const response = await fetch(`${gateway.baseUrl}/crm/objects/${version}/companies`);
      expect(response.status).toBe(404);
      expect(masked(await response.json())).toEqual(masked(await unknownPath.clone().json()));
    }
  });

  it('answers a batch archive of associations 200 with a BatchResponse on a dated path, 204 on v4', async () => {
    const company = await call('POST', '/crm/v3/objects/companies', { properties: { name: 'Holder' } });
    const contact = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'dated@example.com' } });
    const pair = {
      inputs: [
        { from: { id: (company.body as { id: string }).id }, to: [{ id: (contact.body as { id: string }).id }] },
      ],
    };
    const link = {
      inputs: [
        {
          ...pair.inputs[0],
          to: pair.inputs[0]?.to[0],
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }],
        },
      ],
    };
    expect((await call('POST', '/crm/v4/associations/companies/contacts/batch/create', link)).status).toBe(201);
    expect((await call('POST', '/crm/v4/associations/companies/contacts/batch/archive', pair)).status).toBe(204);

    expect((await call('POST', '/crm/associations/2026-03/companies/contacts/batch/create', link)).status).toBe(201);
    const dated = await call('POST', '/crm/associations/2026-03/companies/contacts/batch/archive', pair);
    expect(dated.status).toBe(200);
    expect(dated.body).toEqual({
      status: 'COMPLETE',
      results: [],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    const left = await call(
      'GET',
      `/crm/objects/2026-03/companies/${(company.body as { id: string }).id}/associations/contacts`,
    );
    expect((left.body as { results: unknown[] }).results).toEqual([]);

    const labels = await call('POST', '/crm/associations/2026-09/companies/contacts/batch/labels/archive', link);
    expect(labels.status).toBe(200);
    expect((labels.body as { status: string }).status).toBe('COMPLETE');
  });
});
