// A jest suite for your integration, run against `npm start` (or a stage deployed with
// `-c sandboxControls=true`): BASE is the service's URL, HAPIKEY your developer API key and
// APP_ID your app (after `npm start`: eval "$(npm run -s admin -- demo env)").
import { Client } from '@hubspot/api-client';

const base = () => process.env.BASE ?? 'http://127.0.0.1:3000';

/** Calls a control of the sandbox API with the developer API key; throws on anything but 2xx. */
async function sandbox<T = Record<string, never>>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base()}/sandbox/v1${path}?hapikey=${process.env.HAPIKEY}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as T;
}

describe('my integration against a test account', () => {
  let hubId: number;
  let client: Client;

  beforeAll(async () => {
    ({ hubId } = await sandbox<{ hubId: number }>('POST', '/test-accounts', { name: 'CI run' }));
    const tokens = await sandbox<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
      appId: Number(process.env.APP_ID),
      scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.companies.read'],
    });
    // Retries: the SDK waits out a 429 (1 s for SECONDLY, 10 s for TEN_SECONDLY_ROLLING) and a 5xx (200 ms).
    client = new Client({ accessToken: tokens.access_token, basePath: base(), numberOfApiCallRetries: 3 });
  });

  beforeEach(() => sandbox('POST', `/test-accounts/${hubId}/reset`));
  afterAll(() => sandbox('DELETE', `/test-accounts/${hubId}`));

  it('reads a contact and its company through a rate limit', async () => {
    const { ids } = await sandbox<{ ids: Record<string, string> }>('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'acme', objectType: 'companies', properties: { name: 'Acme', domain: 'acme.example' } },
        { ref: 'jane', objectType: 'contacts', properties: { email: 'jane@acme.example', firstname: 'Jane' } },
      ],
      associations: [
        { from: 'jane', to: 'acme', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] },
      ],
    });
    await sandbox('POST', `/test-accounts/${hubId}/faults`, {
      method: 'GET',
      path: '/crm/v3/objects/contacts',
      status: 429,
      policyName: 'SECONDLY',
      count: 1,
    });

    const jane = await client.crm.contacts.basicApi.getById(`${ids.jane}`, ['email'], undefined, ['companies']);

    expect(jane.properties.email).toBe('jane@acme.example');
    expect(jane.associations?.companies?.results.map((company) => company.id)).toEqual([ids.acme]);
    const { results } = await sandbox<{ results: unknown[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(results).toEqual([]);
  });
});
