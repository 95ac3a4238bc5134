import { createRecords, type CrmClient } from '../../support/crm-client';
import { freshCrmAccount } from '../../support/fresh-crm-account';
import { useTestGateway } from '../../support/harness';
import { tokenCall, useSandboxDeveloper } from '../../support/sandbox-control';

/**
 * Every association write keeps a configured limit, on both ends: with contact -> company
 * (type 279, unlabeled) at 2, a contact holds at most 2 companies through it, however the
 * association is written, from either record, and however many writers race.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);

const limitsBase = '/crm/associations/v4/definitions/configurations';
const contactToCompany = { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 };
const companyToContact = { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 };

interface ErrorJson {
  category: string;
  message: string;
  errors?: { code: string }[];
}

interface BatchJson {
  results: unknown[];
  numErrors?: number;
  errors?: { category: string; errors?: { code: string }[] }[];
}

async function setLimit(api: CrmClient, from: string, to: string, typeId: number, max: number): Promise<void> {
  const response = await api.post(`${limitsBase}/${from}/${to}/batch/create`, {
    inputs: [{ category: 'HUBSPOT_DEFINED', typeId, maxToObjectIds: max }],
  });
  expect(response.status).toBe(201);
}

/** A fresh account with contact -> company (279) limited to 2, a contact and `companies` companies. */
async function limitedAccount(companies = 3): Promise<{ api: CrmClient; contact: string; companyIds: string[] }> {
  const { api } = await freshCrmAccount(gateway);
  await setLimit(api, 'contacts', 'companies', 279, 2);
  const [contact = ''] = await createRecords(api, 'contacts', 1);
  return { api, contact, companyIds: await createRecords(api, 'companies', companies) };
}

const putContactCompany = (api: CrmClient, contact: string, company: string) =>
  api.put<ErrorJson>(`/crm/v4/objects/contacts/${contact}/associations/companies/${company}`, [contactToCompany]);

const putCompanyContact = (api: CrmClient, company: string, contact: string) =>
  api.put<ErrorJson>(`/crm/v4/objects/companies/${company}/associations/contacts/${contact}`, [companyToContact]);

async function companiesOf(api: CrmClient, contact: string): Promise<string[]> {
  const page = await api.get<{ results: { toObjectId: number }[] }>(
    `/crm/v4/objects/contacts/${contact}/associations/companies`,
  );
  return page.body.results.map((result) => String(result.toObjectId));
}

function expectLimitError(response: { status: number; body: unknown }): void {
  expect(response.status).toBe(400);
  const error = response.body as ErrorJson;
  expect(error.category).toBe('VALIDATION_ERROR');
  expect(error.message).toContain('at most 2');
  expect(error.errors?.[0]?.code).toBe('TOO_MANY_ASSOCIATIONS');
}

describe('a configured association limit', () => {
  it('stops the v4 PUT from the limited record at the limit', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;

    expect((await putContactCompany(api, contact, a)).status).toBe(201);
    expect((await putContactCompany(api, contact, b)).status).toBe(201);
    const third = await putContactCompany(api, contact, c);

    expectLimitError(third);
    expect((await companiesOf(api, contact)).sort()).toEqual([a, b].sort());
  });

  it('stops the v4 PUT from the other end: the contact gains the inverse association', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;

    expect((await putCompanyContact(api, a, contact)).status).toBe(201);
    expect((await putCompanyContact(api, b, contact)).status).toBe(201);
    const third = await putCompanyContact(api, c, contact);

    expectLimitError(third);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('stops the default association and the v3 company associate', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;

    const first = await api.put(`/crm/v4/objects/contacts/${contact}/associations/default/companies/${a}`);
    const second = await api.put(`/crm/v3/objects/companies/${b}/associations/contacts/${contact}/280`);
    const third = await api.put(`/crm/v3/objects/companies/${c}/associations/contacts/${contact}/280`);
    const fourth = await api.put(`/crm/v4/objects/contacts/${contact}/associations/default/companies/${c}`);

    expect([first.status, second.status]).toEqual([200, 200]);
    expectLimitError(third);
    expectLimitError(fourth);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('lets a v4 batch create write up to the limit from either end and answers 207 for the rest', async () => {
    const { api, contact, companyIds } = await limitedAccount(6);
    const [a = '', b = '', c = '', d = '', e = '', f = ''] = companyIds;

    const forward = await api.post<BatchJson>('/crm/v4/associations/contacts/companies/batch/create', {
      inputs: [a, b, c].map((id) => ({ from: { id: contact }, to: { id }, types: [contactToCompany] })),
    });
    const [second = ''] = await createRecords(api, 'contacts', 1);
    const reverse = await api.post<BatchJson>('/crm/v4/associations/companies/contacts/batch/create', {
      inputs: [d, e, f].map((id) => ({ from: { id }, to: { id: second }, types: [companyToContact] })),
    });

    expect(forward.status).toBe(207);
    expect(forward.body).toMatchObject({ numErrors: 1, errors: [{ category: 'VALIDATION_ERROR' }] });
    expect(forward.body.results).toHaveLength(2);
    expect(reverse.status).toBe(207);
    expect(reverse.body.numErrors).toBe(1);
    expect(await companiesOf(api, contact)).toHaveLength(2);
    expect(await companiesOf(api, second)).toHaveLength(2);
  });

  it('lets a v3 batch create write up to the limit', async () => {
    const { api, contact, companyIds } = await limitedAccount();

    const response = await api.post<BatchJson>('/crm/v3/associations/contacts/companies/batch/create', {
      inputs: companyIds.map((id) => ({ from: { id: contact }, to: { id }, type: 'contact_to_company_unlabeled' })),
    });

    expect(response.status).toBe(207);
    expect(response.body.numErrors).toBe(1);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('refuses a create whose inline associations pass the limit, on either end', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;
    const inline = (ids: string[]) => ids.map((id) => ({ to: { id }, types: [contactToCompany] }));

    const over = await api.post<ErrorJson>('/crm/v3/objects/contacts', {
      properties: { email: `over-${Date.now()}@limits.example` },
      associations: inline([a, b, c]),
    });
    const within = await api.post('/crm/v3/objects/contacts', {
      properties: { email: `within-${Date.now()}@limits.example` },
      associations: inline([a, b]),
    });
    await putContactCompany(api, contact, a);
    await putContactCompany(api, contact, b);
    const company = await api.post<ErrorJson>('/crm/v3/objects/companies', {
      properties: { name: 'Third' },
      associations: [{ to: { id: contact }, types: [companyToContact] }],
    });

    expectLimitError(over);
    expect(within.status).toBe(201);
    expectLimitError(company);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('refuses the batch create input that would pass the limit and writes the others', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = ''] = companyIds;
    await putContactCompany(api, contact, a);
    await putContactCompany(api, contact, b);

    const response = await api.post<BatchJson>('/crm/v3/objects/companies/batch/create', {
      inputs: [
        { properties: { name: 'Linked' }, associations: [{ to: { id: contact }, types: [companyToContact] }] },
        { properties: { name: 'Plain' } },
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ numErrors: 1, results: [{}] });
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('refuses a merge whose record would hold more than either did', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;
    const [other = ''] = await createRecords(api, 'contacts', 1);
    await putContactCompany(api, contact, a);
    await putContactCompany(api, contact, b);
    await putContactCompany(api, other, c);
    const [third = ''] = await createRecords(api, 'contacts', 1);
    await putContactCompany(api, third, a);

    const refused = await api.post<ErrorJson>('/crm/v3/objects/contacts/merge', {
      primaryObjectId: contact,
      objectIdToMerge: other,
    });
    const kept = await api.post('/crm/v3/objects/contacts/merge', { primaryObjectId: contact, objectIdToMerge: third });

    expectLimitError(refused);
    expect(kept.status).toBe(200);
  });

  it('bounds the other direction by its own configuration: company -> contact', async () => {
    const { api } = await freshCrmAccount(gateway);
    await setLimit(api, 'companies', 'contacts', 280, 2);
    const [company = ''] = await createRecords(api, 'companies', 1);
    const contacts = await createRecords(api, 'contacts', 3);

    const answers = [];
    for (const contact of contacts) answers.push(await putContactCompany(api, contact, company));
    const page = await api.get<{ results: unknown[] }>(`/crm/v4/objects/companies/${company}/associations/contacts`);

    expect(answers.slice(0, 2).map((answer) => answer.status)).toEqual([201, 201]);
    expectLimitError(answers[2] as { status: number; body: unknown });
    expect(page.body.results).toHaveLength(2);
  });

  it("holds for one of the account's own labels, counted apart from the unlabeled type", async () => {
    const { api } = await freshCrmAccount(gateway);
    const label = await api.post<{ results: { typeId: number }[] }>('/crm/v4/associations/contacts/companies/labels', {
      name: 'advisor',
      label: 'Advisor',
    });
    const typeId = label.body.results[0]?.typeId ?? 0;
    const configured = await api.post(`${limitsBase}/contacts/companies/batch/create`, {
      inputs: [{ category: 'USER_DEFINED', typeId, maxToObjectIds: 1 }],
    });
    const [contact = ''] = await createRecords(api, 'contacts', 1);
    const [a = '', b = ''] = await createRecords(api, 'companies', 2);
    const advisor = [{ associationCategory: 'USER_DEFINED', associationTypeId: typeId }];

    const first = await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/${a}`, advisor);
    const second = await api.put<ErrorJson>(`/crm/v4/objects/contacts/${contact}/associations/companies/${b}`, advisor);
    const unlabeled = await putContactCompany(api, contact, b);

    expect(configured.status).toBe(201);
    expect(first.status).toBe(201);
    expect(second.status).toBe(400);
    expect(second.body.errors?.[0]?.code).toBe('TOO_MANY_ASSOCIATIONS');
    expect(unlabeled.status).toBe(201);
  });

  it('holds under 10 concurrent writers to one record: exactly 2 written, the others refused', async () => {
    const { api, contact, companyIds } = await limitedAccount(10);

    const answers = await Promise.all(companyIds.map((company) => putContactCompany(api, contact, company)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, ...Array(8).fill(400)]);
    for (const answer of answers.filter((entry) => entry.status === 400)) expectLimitError(answer);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('holds under 10 concurrent writers from the other end', async () => {
    const { api, contact, companyIds } = await limitedAccount(10);

    const answers = await Promise.all(companyIds.map((company) => putCompanyContact(api, company, contact)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, ...Array(8).fill(400)]);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('is not retroactive: a record over a new limit keeps its associations, may lose and relabel them, not gain', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [contact = ''] = await createRecords(api, 'contacts', 1);
    const [a = '', b = '', c = '', d = ''] = await createRecords(api, 'companies', 4);
    for (const company of [a, b, c]) await putContactCompany(api, contact, company);
    await setLimit(api, 'contacts', 'companies', 279, 2);

    const relabeled = await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/${a}`, [
      contactToCompany,
      { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 },
    ]);
    const gained = await putContactCompany(api, contact, d);
    const removed = await api.delete(`/crm/v4/objects/contacts/${contact}/associations/companies/${c}`);

    expect(relabeled.status).toBe(201);
    expectLimitError(gained);
    expect(removed.status).toBe(204);
    expect(await companiesOf(api, contact)).toHaveLength(2);
  });

  it('no longer holds once purged', async () => {
    const { api, contact, companyIds } = await limitedAccount();
    const [a = '', b = '', c = ''] = companyIds;
    await putContactCompany(api, contact, a);
    await putContactCompany(api, contact, b);

    const purged = await api.post(`${limitsBase}/contacts/companies/batch/purge`, {
      inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279 }],
    });
    const third = await putContactCompany(api, contact, c);

    expect(purged.status).toBe(204);
    expect(third.status).toBe(201);
    expect(await companiesOf(api, contact)).toHaveLength(3);
  });

  it("stops a test account's fixtures at the limit and loads nothing", async () => {
    const hubId = await sandbox.newTestAccount();
    const tokens = await sandbox.control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
      appId: sandbox.developer.appId,
      scopes: sandbox.developer.scopes,
    });
    const token = tokens.body.access_token;
    const configured = await tokenCall(gateway, token, 'POST', `${limitsBase}/contacts/companies/batch/create`, {
      inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279, maxToObjectIds: 2 }],
    });
    const fixtures = (companies: number) => ({
      records: [
        { ref: 'jane', objectType: 'contacts', properties: { email: `jane-${hubId}-${companies}@limits.example` } },
        ...Array.from({ length: companies }, (_, index) => ({
          ref: `k${index}`,
          objectType: 'companies',
          properties: { name: `K${index}` },
        })),
      ],
      associations: Array.from({ length: companies }, (_, index) => ({
        from: 'jane',
        to: `k${index}`,
        types: [contactToCompany],
      })),
    });

    const over = await sandbox.control<ErrorJson>('POST', `/test-accounts/${hubId}/fixtures`, fixtures(3));
    const listed = await tokenCall<{ results: unknown[] }>(gateway, token, 'GET', '/crm/v3/objects/companies');
    const within = await sandbox.control('POST', `/test-accounts/${hubId}/fixtures`, fixtures(2));

    expect(configured.status).toBe(201);
    expectLimitError(over);
    expect(listed.body.results).toEqual([]);
    expect(within.status).toBe(201);
  });
});
