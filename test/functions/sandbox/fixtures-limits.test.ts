import { AppError } from '../../../shared/base/errors';
import { loadFixtures, maxFixtureAssociations } from '../../../shared/sandbox/fixtures';
import { bearer, install, useTestGateway, type InstalledTokens } from '../../support/harness';
import { sandboxControl } from '../../support/sandbox-control';

/**
 * The fixtures' documented maximum of associations per call (shared/sandbox/fixtures.ts
 * maxFixtureAssociations): one more is refused with a 400 naming `associations`, before anything is written.
 */
const gateway = useTestGateway();
let developer: InstalledTokens;

beforeAll(async () => {
  developer = await install(gateway);
});

const control = <T>(method: string, path: string, body?: unknown) =>
  sandboxControl<T>(gateway, developer.developerApiKey, method, path, body);

async function testAccount(): Promise<{ hubId: number; token: string }> {
  const created = await control<{ hubId: number }>('POST', '/test-accounts', {});
  expect(created.status).toBe(201);
  const tokens = await control<{ access_token: string }>('POST', `/test-accounts/${created.body.hubId}/installs`, {
    appId: developer.appId,
    scopes: developer.scopes,
  });
  expect(tokens.status).toBe(201);
  return { hubId: created.body.hubId, token: tokens.body.access_token };
}

async function listedCount(token: string, type: string): Promise<number> {
  const response = await fetch(`${gateway.baseUrl}/crm/v3/objects/${type}?limit=100`, { headers: bearer(token) });
  return ((await response.json()) as { results: unknown[] }).results.length;
}

/** Companies and contacts with one more distinct company-contact pair than the maximum, every pair a valid association. */
function overTheMaximum(prefix: string) {
  const companies = 50;
  const contacts = Math.ceil((maxFixtureAssociations + 1) / companies);
  const records = [
    ...Array.from({ length: companies }, (_, index) => ({
      ref: `k${index}`,
      objectType: 'companies',
      properties: { name: `K${index}` },
    })),
    ...Array.from({ length: contacts }, (_, index) => ({
      ref: `p${index}`,
      objectType: 'contacts',
      properties: { email: `${prefix}${index}@limits.example` },
    })),
  ];
  const associations = Array.from({ length: maxFixtureAssociations + 1 }, (_, index) => ({
    from: `p${Math.floor(index / companies)}`,
    to: `k${index % companies}`,
    types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }],
  }));
  return { records, associations };
}

describe('fixtures at their maximum of associations', () => {
  it('answer 400 VALIDATION_ERROR naming associations over HTTP and write nothing', async () => {
    const { hubId, token } = await testAccount();

    const answer = await control<{ category: string }>(
      'POST',
      `/test-accounts/${hubId}/fixtures`,
      overTheMaximum(`http-${hubId}-`),
    );

    expect(answer).toMatchObject({ status: 400, body: { status: 'error', category: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(answer.body)).toContain('associations');
    expect([await listedCount(token, 'contacts'), await listedCount(token, 'companies')]).toEqual([0, 0]);
  });

  it('are refused by the loader itself with the count in context.associations, before any write', async () => {
    const { hubId, token } = await testAccount();
    const developerOf = { developerId: developer.developerId, appIds: [developer.appId] };

    const refused = await loadFixtures(
      developerOf,
      String(hubId),
      overTheMaximum(`loader-${hubId}-`),
      Number.POSITIVE_INFINITY,
    ).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(AppError);
    expect({
      status: (refused as AppError).status,
      category: (refused as AppError).category,
      context: (refused as AppError).context,
    }).toEqual({
      status: 400,
      category: 'VALIDATION_ERROR',
      context: { associations: [String(maxFixtureAssociations + 1)] },
    });
    expect([await listedCount(token, 'contacts'), await listedCount(token, 'companies')]).toEqual([0, 0]);
  });
});
