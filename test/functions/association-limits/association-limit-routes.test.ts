import type { CrmClient } from '../../support/crm-client';
import { freshCrmAccount } from '../../support/fresh-crm-account';
import { useTestGateway } from '../../support/harness';

/**
 * The association limit configurations (HubSpot's "Limits" of the associations schema API) on v4
 * and on a dated path: shapes and statuses per the published specs, and the requests they refuse.
 */
const gateway = useTestGateway();

const v4 = '/crm/associations/v4/definitions/configurations';
const dated = '/crm/associations/2026-03/definitions/configurations';

interface LimitJson {
  category: string;
  typeId: number;
  label?: string;
  userEnforcedMaxToObjectIds?: number;
}

interface BatchJson {
  status: string;
  results: LimitJson[];
  startedAt: string;
  completedAt: string;
  numErrors?: number;
  errors?: { category: string; message: string }[];
}

interface ErrorJson {
  status: string;
  category: string;
  message: string;
  context?: Record<string, string[]>;
}

const unlabeledContactToCompany = { category: 'HUBSPOT_DEFINED', typeId: 279 };
const primaryContactToCompany = { category: 'HUBSPOT_DEFINED', typeId: 1 };

const createLimits = (api: CrmClient, base: string, inputs: unknown[]) =>
  api.post<BatchJson>(`${base}/contacts/companies/batch/create`, { inputs });

describe.each([
  ['v4', v4],
  ['2026-03', dated],
])('association limits on %s', (_version, base) => {
  it('creates limits with 201 and answers each as configured, the label when the type has one', async () => {
    const { api } = await freshCrmAccount(gateway);

    const response = await createLimits(api, base, [
      { ...unlabeledContactToCompany, maxToObjectIds: 2 },
      { ...primaryContactToCompany, maxToObjectIds: 1 },
    ]);

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      status: 'COMPLETE',
      results: [
        { category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 2 },
        { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary', userEnforcedMaxToObjectIds: 1 },
      ],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
  });

  it('lists the limits of one pair and of the whole account', async () => {
    const { api } = await freshCrmAccount(gateway);
    await createLimits(api, base, [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }]);
    await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 280, maxToObjectIds: 5 }],
    });

    const pair = await api.get<{ results: LimitJson[] }>(`${base}/contacts/companies`);
    const inverse = await api.get<{ results: LimitJson[] }>(`${base}/companies/contacts`);
    const other = await api.get<{ results: LimitJson[] }>(`${base}/contacts/deals`);
    const all = await api.get<{ results: LimitJson[] }>(`${base}/all`);

    expect(pair).toMatchObject({
      status: 200,
      body: { results: [{ category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 2 }] },
    });
    expect(inverse.body.results).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 280, userEnforcedMaxToObjectIds: 5 }]);
    expect(other.body).toEqual({ results: [] });
    expect(all.status).toBe(200);
    expect(all.body.results.map((limit) => limit.typeId).sort()).toEqual([279, 280]);
  });

  it('updates a configured limit with 200; a type without one is a 207 error', async () => {
    const { api } = await freshCrmAccount(gateway);
    await createLimits(api, base, [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }]);

    const updated = await api.post<BatchJson>(`${base}/contacts/companies/batch/update`, {
      inputs: [{ ...unlabeledContactToCompany, maxToObjectIds: 7 }],
    });
    const partly = await api.post<BatchJson>(`${base}/contacts/companies/batch/update`, {
      inputs: [
        { ...unlabeledContactToCompany, maxToObjectIds: 8 },
        { ...primaryContactToCompany, maxToObjectIds: 1 },
      ],
    });

    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      status: 'COMPLETE',
      results: [{ category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 7 }],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect(partly.status).toBe(207);
    expect(partly.body).toMatchObject({
      results: [{ typeId: 279, userEnforcedMaxToObjectIds: 8 }],
      numErrors: 1,
      errors: [{ category: 'OBJECT_NOT_FOUND' }],
    });
    const listed = await api.get<{ results: LimitJson[] }>(`${base}/contacts/companies`);
    expect(listed.body.results).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 8 }]);
  });

  it('answers 207 for an input whose type is not one of the pair, and configures the others', async () => {
    const { api } = await freshCrmAccount(gateway);

    const response = await createLimits(api, base, [
      { ...unlabeledContactToCompany, maxToObjectIds: 3 },
      { category: 'HUBSPOT_DEFINED', typeId: 280, maxToObjectIds: 3 },
      { category: 'USER_DEFINED', typeId: 279, maxToObjectIds: 3 },
    ]);

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({
      results: [{ typeId: 279 }],
      numErrors: 2,
      errors: [{ category: 'VALIDATION_ERROR' }, { category: 'VALIDATION_ERROR' }],
    });
  });

  it.each([
    [0, 'maxToObjectIds'],
    [1001, 'maxToObjectIds'],
    [1.5, 'maxToObjectIds'],
  ])('refuses maxToObjectIds %s with 400 naming the field, configuring nothing', async (max, field) => {
    const { api } = await freshCrmAccount(gateway);

    const response = await createLimits(api, base, [{ ...unlabeledContactToCompany, maxToObjectIds: max }]);

    expect(response.status).toBe(400);
    const error = response.body as unknown as ErrorJson;
    expect(error.category).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(error)).toContain(field);
    expect((await api.get<{ results: LimitJson[] }>(`${base}/all`)).body.results).toEqual([]);
  });

  it('refuses an input without maxToObjectIds, or with an unknown category, with 400', async () => {
    const { api } = await freshCrmAccount(gateway);

    const missing = await createLimits(api, base, [unlabeledContactToCompany]);
    const category = await createLimits(api, base, [{ category: 'OTHER', typeId: 279, maxToObjectIds: 2 }]);

    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('maxToObjectIds');
    expect(category.status).toBe(400);
    expect(JSON.stringify(category.body)).toContain('category');
  });

  it('refuses an unknown object type with 400 naming it', async () => {
    const { api } = await freshCrmAccount(gateway);

    const response = await api.post<ErrorJson>(`${base}/contacts/widgets/batch/create`, {
      inputs: [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }],
    });

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('widgets');
  });

  it("takes a limit on one of the account's own labels, listed with its label", async () => {
    const { api } = await freshCrmAccount(gateway);
    const label = await api.post<{ results: { typeId: number }[] }>('/crm/v4/associations/contacts/companies/labels', {
      name: 'advisor',
      label: 'Advisor',
    });
    const typeId = label.body.results[0]?.typeId;

    const response = await createLimits(api, base, [{ category: 'USER_DEFINED', typeId, maxToObjectIds: 4 }]);

    expect(response.status).toBe(201);
    expect(response.body.results).toEqual([
      { category: 'USER_DEFINED', typeId, label: 'Advisor', userEnforcedMaxToObjectIds: 4 },
    ]);
  });
});

describe('association limit purge', () => {
  it('answers 204 without a body on v4, and the limit is gone', async () => {
    const { api } = await freshCrmAccount(gateway);
    await createLimits(api, v4, [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }]);

    const response = await api.post(`${v4}/contacts/companies/batch/purge`, { inputs: [unlabeledContactToCompany] });

    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect((await api.get<{ results: LimitJson[] }>(`${v4}/contacts/companies`)).body.results).toEqual([]);
  });

  it('answers 200 with a BatchResponse on a dated path, and the limit is gone', async () => {
    const { api } = await freshCrmAccount(gateway);
    await createLimits(api, dated, [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }]);

    const response = await api.post(`${dated}/contacts/companies/batch/purge`, { inputs: [unlabeledContactToCompany] });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'COMPLETE',
      results: [],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect((await api.get<{ results: LimitJson[] }>(`${dated}/all`)).body.results).toEqual([]);
  });

  it('refuses a type that is not one of the pair with 400, removing nothing', async () => {
    const { api } = await freshCrmAccount(gateway);
    await createLimits(api, v4, [{ ...unlabeledContactToCompany, maxToObjectIds: 2 }]);

    const response = await api.post(`${v4}/contacts/companies/batch/purge`, {
      inputs: [unlabeledContactToCompany, { category: 'HUBSPOT_DEFINED', typeId: 280 }],
    });

    expect(response.status).toBe(400);
    expect((await api.get<{ results: LimitJson[] }>(`${v4}/contacts/companies`)).body.results).toHaveLength(1);
  });

  it('answers 404 on a version that is not served', async () => {
    const { api } = await freshCrmAccount(gateway);

    const response = await api.get('/crm/associations/2025-01/definitions/configurations/all');

    expect(response.status).toBe(404);
  });
});
