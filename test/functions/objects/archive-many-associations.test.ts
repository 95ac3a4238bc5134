import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';

/**
 * Archiving a record whose associations do not all fit its transaction (DynamoDB takes 100 items):
 * the associated records past what fits lose their side right after it, and the archive answers 204.
 */
const gateway = useTestGateway();
let api: CrmClient;

beforeAll(async () => {
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

describe('archiving a company with more associated contacts than one transaction holds', () => {
  it.each([96, 97, 150])(
    'archives a company with %i contacts and leaves none of them pointing at it',
    async (count) => {
      const company = await api.post<{ id: string }>('/crm/v3/objects/companies', {
        properties: { name: unique('many') },
      });
      const contactIds: string[] = [];
      for (let start = 0; start < count; start += 100) {
        const inputs = Array.from({ length: Math.min(100, count - start) }, (_unused, index) => ({
          properties: { email: `${unique(`c${start + index}`)}@example.com` },
          associations: [
            { to: { id: company.body.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }] },
          ],
        }));
        const created = await api.post<{ results: { id: string }[] }>('/crm/v3/objects/contacts/batch/create', {
          inputs,
        });
        expect(created.status).toBe(201);
        contactIds.push(...created.body.results.map((result) => result.id));
      }

      const archived = await api.delete(`/crm/v3/objects/companies/${company.body.id}`);
      const first = await api.get<{ results: unknown[] }>(
        `/crm/v4/objects/contacts/${contactIds[0]}/associations/companies`,
      );
      const last = await api.get<{ results: unknown[] }>(
        `/crm/v4/objects/contacts/${contactIds[contactIds.length - 1]}/associations/companies`,
      );

      expect(archived.status).toBe(204);
      expect([first.body.results, last.body.results]).toEqual([[], []]);
    },
  );
});
