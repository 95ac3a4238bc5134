import type { RunningGateway } from '../../../local/local-gateway';
import { dynamoCallCounter } from '../../../shared/db/client';
import { createRecord, createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

interface TypeJson {
  category: string;
  typeId: number;
  label: string | null;
}
interface ErrorJson {
  status: string;
  category: string;
  subCategory?: string;
  message: string;
  context: Record<string, string[]>;
}
interface BatchJson<T> {
  status: string;
  results: T[];
  errors?: ErrorJson[];
  numErrors?: number;
  startedAt: string;
  completedAt: string;
}
interface PairJson {
  fromObjectTypeId: string;
  fromObjectId: number;
  toObjectTypeId: string;
  toObjectId: number;
  labels: string[];
}
interface ReadJson {
  from: { id: string };
  to: { toObjectId: number; associationTypes: TypeJson[] }[];
  paging?: { next: { after: string } };
}

async function company(name = 'Batch'): Promise<string> {
  const response = await api.post('/crm/v3/objects/companies', { properties: { name } });
  return String(response.body.id);
}

/** A new stored contact: associations are checked against real records on both sides. */
const contact = () => createRecord(api, 'contacts');
const contacts = (count: number) => createRecords(api, 'contacts', count);
/** Ids in numeric order: a shorter id is a smaller number, else the digits decide. */
const byNumericId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
const spec = (associationTypeId: number, associationCategory = 'HUBSPOT_DEFINED') => ({
  associationCategory,
  associationTypeId,
});
const base = '/crm/v4/associations';

async function typesOf(companyId: string, contactId: string): Promise<number[]> {
  const page = await api.get<{ results: { toObjectId: number; associationTypes: TypeJson[] }[] }>(
    `/crm/v4/objects/companies/${companyId}/associations/contacts`,
  );
  return (
    page.body.results
      .find((result) => String(result.toObjectId) === contactId)
      ?.associationTypes.map((type) => type.typeId) ?? []
  );
}

/** The same pair read from the contact's own record (its side is stored there too). */
async function contactTypesOf(contactId: string, companyId: string): Promise<number[]> {
  const page = await api.get<{ results: { toObjectId: number; associationTypes: TypeJson[] }[] }>(
    `/crm/v4/objects/contacts/${contactId}/associations/companies`,
  );
  return (
    page.body.results
      .find((result) => String(result.toObjectId) === companyId)
      ?.associationTypes.map((type) => type.typeId) ?? []
  );
}

describe('POST /crm/v4/associations/{from}/{to}/batch/create', () => {
  it('answers 201 with one labels-between-pair per input, adding to the types each pair holds', async () => {
    const id = await company();
    const [first = '', second = ''] = await contacts(2);
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${second}/280`);

    const response = await api.post<BatchJson<PairJson>>(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id }, to: { id: first }, types: [spec(2)] },
        { from: { id }, to: { id: second }, types: [spec(2)] },
      ],
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: 'COMPLETE',
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.results).toEqual([
      {
        fromObjectTypeId: '0-2',
        fromObjectId: Number(id),
        toObjectTypeId: '0-1',
        toObjectId: Number(first),
        labels: ['Primary'],
      },
      {
        fromObjectTypeId: '0-2',
        fromObjectId: Number(id),
        toObjectTypeId: '0-1',
        toObjectId: Number(second),
        labels: ['Primary'],
      },
    ]);
    expect(await typesOf(id, first)).toEqual([2, 280]);
    expect(await typesOf(id, second)).toEqual([2, 280]);
    expect(await contactTypesOf(first, id)).toEqual([1, 279]);
    expect(await contactTypesOf(second, id)).toEqual([1, 279]);
  });

  it('answers 207 with the bad inputs in errors and writes the good ones', async () => {
    const id = await company();
    const [good = '', wrongType = '', ofMissingCompany = ''] = await contacts(3);
    const missingContact = '999999999995';

    const response = await api.post<BatchJson<PairJson>>(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id }, to: { id: good }, types: [spec(280)] },
        { from: { id }, to: { id: wrongType }, types: [spec(450)] },
        { from: { id: '999999999999' }, to: { id: ofMissingCompany }, types: [spec(280)] },
        { from: { id }, to: { id: 'abc' }, types: [spec(280)] },
        { from: { id }, to: { id: missingContact }, types: [spec(280)] },
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body.numErrors).toBe(4);
    expect(response.body.results.map((result) => String(result.toObjectId))).toEqual([good]);
    expect(response.body.errors?.map((error) => [error.category, error.subCategory])).toEqual([
      ['VALIDATION_ERROR', 'crm.associations.INVALID_ASSOCIATION_TYPE'],
      ['VALIDATION_ERROR', undefined],
      ['VALIDATION_ERROR', undefined],
      ['VALIDATION_ERROR', undefined],
    ]);
    expect(response.body.errors?.[1]?.context).toEqual({ INVALID_OBJECT_IDS: ['COMPANY=999999999999 is not valid'] });
    expect(response.body.errors?.[2]?.context).toEqual({ INVALID_OBJECT_IDS: ['CONTACT=abc is not valid'] });
    expect(response.body.errors?.[3]).toMatchObject({
      message: 'One or more associations are invalid',
      context: { INVALID_OBJECT_IDS: [`CONTACT=${missingContact} is not valid`] },
    });
    expect(await typesOf(id, good)).toEqual([280]);
    expect(await typesOf(id, wrongType)).toEqual([]);
    expect(await typesOf(id, missingContact)).toEqual([]);
    expect(await contactTypesOf(good, id)).toEqual([279]);
  });

  it('writes many pairs of one company in one read and one transaction', async () => {
    const id = await company();
    const targets = await contacts(40);

    dynamoCallCounter.reset();
    const response = await api.post<BatchJson<PairJson>>(`${base}/companies/contacts/batch/create`, {
      inputs: targets.map((target) => ({ from: { id }, to: { id: target }, types: [spec(280)] })),
    });
    const calls = dynamoCallCounter.callsApartFromRetries();

    expect(response.status).toBe(201);
    // The account's association limits (one GetItem for the batch); the record, its search projection and the 40
    // contacts' items (their side of each pair): one transaction.
    expect(calls).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const page = await api.get<{ results: unknown[] }>(`/crm/v4/objects/companies/${id}/associations/contacts`);
    expect(page.body.results).toHaveLength(40);
    const fromContacts = await api.post<BatchJson<ReadJson>>(`${base}/contacts/companies/batch/read`, {
      inputs: targets.map((target) => ({ id: target })),
    });
    expect(fromContacts.status).toBe(200);
    expect(
      fromContacts.body.results.map((result) => [result.from.id, result.to.map((to) => String(to.toObjectId))]),
    ).toEqual(targets.map((target) => [target, [id]]));
  });

  it('writes company pairs on both companies, and reads them from a contact', async () => {
    const [a, b] = [await company('A'), await company('B')];
    const person = await contact();

    const companies = await api.post<BatchJson<PairJson>>(`${base}/companies/companies/batch/create`, {
      inputs: [{ from: { id: a }, to: { id: b }, types: [spec(13)] }],
    });
    const reverse = await api.post<BatchJson<PairJson>>(`${base}/contacts/companies/batch/create`, {
      inputs: [{ from: { id: person }, to: { id: a }, types: [spec(1)] }],
    });

    expect([companies.status, reverse.status]).toEqual([201, 201]);
    expect(reverse.body.results).toEqual([
      {
        fromObjectTypeId: '0-1',
        fromObjectId: Number(person),
        toObjectTypeId: '0-2',
        toObjectId: Number(a),
        labels: ['Primary'],
      },
    ]);
    const fromB = await api.get<{ results: { toObjectId: number; associationTypes: TypeJson[] }[] }>(
      `/crm/v4/objects/companies/${b}/associations/companies`,
    );
    expect(fromB.body.results).toEqual([
      {
        toObjectId: Number(a),
        associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 14, label: 'Child to parent company' }],
      },
    ]);
    expect(await typesOf(a, person)).toEqual([2, 280]);
    expect(await contactTypesOf(person, a)).toEqual([1, 279]);
  });

  it('reports a missing company target without writing its pair, and writes the rest of that company', async () => {
    const a = await company('A');
    const person = await contact();

    const response = await api.post<BatchJson<PairJson>>(`${base}/companies/companies/batch/create`, {
      inputs: [{ from: { id: a }, to: { id: '999999999998' }, types: [spec(450)] }],
    });
    const mixed = await api.post<BatchJson<PairJson>>(`${base}/companies/contacts/batch/create`, {
      inputs: [{ from: { id: a }, to: { id: person }, types: [spec(280)] }],
    });

    expect(response.status).toBe(207);
    expect(response.body.errors?.[0]?.context).toEqual({ INVALID_OBJECT_IDS: ['COMPANY=999999999998 is not valid'] });
    expect(mixed.status).toBe(201);
    expect(await typesOf(a, person)).toEqual([280]);
    const companiesOfA = await api.get<{ results: unknown[] }>(`/crm/v4/objects/companies/${a}/associations/companies`);
    expect(companiesOfA.body.results).toEqual([]);
  });

  it('refuses more than 2,000 inputs with a 400 naming inputs, writing nothing', async () => {
    const id = await company();
    // Real contacts, so a batch written by mistake would show: 2,001 inputs over 100 of them.
    const targets = await contacts(100);
    const inputs = Array.from({ length: 2001 }, (_, index) => ({
      from: { id },
      to: { id: targets[index % targets.length] ?? '' },
      types: [spec(280)],
    }));

    const response = await api.post(`${base}/companies/contacts/batch/create`, { inputs });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(response.body.context)).toContain('inputs');
    const page = await api.get<{ results: unknown[] }>(`/crm/v4/objects/companies/${id}/associations/contacts`);
    expect(page.body.results).toEqual([]);
  });

  it('writes a pair of two stored types without a company, on both records', async () => {
    const person = await contact();
    const deal = await createRecord(api, 'deals');

    const response = await api.post<BatchJson<PairJson>>(`${base}/contacts/deals/batch/create`, {
      inputs: [{ from: { id: person }, to: { id: deal }, types: [spec(4)] }],
    });

    expect(response.status).toBe(201);
    expect(response.body.results).toEqual([
      {
        fromObjectTypeId: '0-1',
        fromObjectId: Number(person),
        toObjectTypeId: '0-3',
        toObjectId: Number(deal),
        labels: [],
      },
    ]);
    const fromDeal = await api.post<BatchJson<ReadJson>>(`${base}/deals/contacts/batch/read`, {
      inputs: [{ id: deal }],
    });
    expect(fromDeal.body.results).toEqual([
      {
        from: { id: deal },
        to: [
          { toObjectId: Number(person), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 3, label: null }] },
        ],
      },
    ]);
  });

  it('refuses an object type it does not know, naming it', async () => {
    const response = await api.post(`${base}/notes/quotes/batch/create`, {
      inputs: [{ from: { id: '1' }, to: { id: '2' }, types: [spec(4)] }],
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ toObjectType: ['quotes'] });
  });
});

describe('POST /crm/v4/associations/{from}/{to}/batch/read', () => {
  it("answers 200 with each input's associated records and types", async () => {
    const [a, b] = [await company('A'), await company('B')];
    const [c1 = '', c2 = ''] = await contacts(2);
    await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id: a }, to: { id: c1 }, types: [spec(2)] },
        { from: { id: a }, to: { id: c2 }, types: [spec(280)] },
        { from: { id: b }, to: { id: c1 }, types: [spec(280)] },
      ],
    });

    const forward = await api.post<BatchJson<ReadJson>>(`${base}/companies/contacts/batch/read`, {
      inputs: [{ id: a }, { id: b }],
    });
    const reverse = await api.post<BatchJson<ReadJson>>(`${base}/contacts/companies/batch/read`, {
      inputs: [{ id: c1 }],
    });

    expect(forward.status).toBe(200);
    expect(forward.body.results).toEqual([
      {
        from: { id: a },
        to: [
          {
            toObjectId: Number(c1),
            associationTypes: [
              { category: 'HUBSPOT_DEFINED', typeId: 2, label: 'Primary' },
              { category: 'HUBSPOT_DEFINED', typeId: 280, label: null },
            ],
          },
          { toObjectId: Number(c2), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 280, label: null }] },
        ],
      },
      {
        from: { id: b },
        to: [{ toObjectId: Number(c1), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 280, label: null }] }],
      },
    ]);
    expect(reverse.status).toBe(200);
    expect(reverse.body.results).toEqual([
      {
        from: { id: c1 },
        to: [
          {
            toObjectId: Number(a),
            associationTypes: [
              { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' },
              { category: 'HUBSPOT_DEFINED', typeId: 279, label: null },
            ],
          },
          { toObjectId: Number(b), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 279, label: null }] },
        ].sort((x, y) => x.toObjectId - y.toObjectId),
      },
    ]);
  });

  it('answers 207 with NO_ASSOCIATIONS_FOUND for an input with none', async () => {
    const a = await company('A');
    const [lonely = '', c1 = ''] = await contacts(2);
    await api.put(`/crm/v4/objects/companies/${a}/associations/contacts/${c1}`, [spec(280)]);

    const response = await api.post<BatchJson<ReadJson>>(`${base}/contacts/companies/batch/read`, {
      inputs: [{ id: c1 }, { id: lonely }],
    });

    expect(response.status).toBe(207);
    expect(response.body.results.map((result) => result.from.id)).toEqual([c1]);
    expect(response.body.numErrors).toBe(1);
    expect(response.body.errors).toEqual([
      {
        status: 'error',
        category: 'OBJECT_NOT_FOUND',
        subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
        message: `No company is associated with contact ${lonely}.`,
        context: { fromObjectId: [lonely], fromObjectType: ['contact'], toObjectType: ['company'] },
        errors: [],
        links: {},
      },
    ]);
  });

  it('pages an input past 500 associations with after and the same id', async () => {
    const id = await company();
    // Pages follow id order, which is not always creation order.
    const targets = (await contacts(503)).sort(byNumericId);
    const created = await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: targets.map((target) => ({ from: { id }, to: { id: target }, types: [spec(280)] })),
    });

    const first = await api.post<BatchJson<ReadJson>>(`${base}/companies/contacts/batch/read`, { inputs: [{ id }] });
    const after = first.body.results[0]?.paging?.next.after;
    const second = await api.post<BatchJson<ReadJson>>(`${base}/companies/contacts/batch/read`, {
      inputs: [{ id, after }],
    });

    expect(created.status).toBe(201);
    expect(first.body.results[0]?.to).toHaveLength(500);
    expect(after).toBe(targets[499]);
    expect(second.body.results[0]?.to.map((entry) => String(entry.toObjectId))).toEqual(targets.slice(500));
    expect(second.body.results[0]?.paging).toBeUndefined();
  });

  it('reads 1,000 company inputs in one BatchGetItem per 100', async () => {
    const id = await company();
    const person = await contact();
    await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${person}`, [spec(280)]);
    const inputs = [{ id }, ...Array.from({ length: 999 }, (_, index) => ({ id: String(900_000_000_000 + index) }))];

    dynamoCallCounter.reset();
    const response = await api.post<BatchJson<ReadJson>>(`${base}/companies/contacts/batch/read`, { inputs });
    const calls = dynamoCallCounter.callsApartFromRetries();

    expect(response.status).toBe(207);
    expect(response.body.results).toHaveLength(1);
    expect(response.body.numErrors).toBe(999);
    expect(calls).toEqual({ BatchGetItemCommand: 10 });
  });

  it('reads 1,000 contact inputs in one BatchGetItem per 100 too: each contact holds its own side', async () => {
    const [first, second] = [await company('First'), await company('Second')];
    const [person = '', other = ''] = await contacts(2);
    await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id: first }, to: { id: person }, types: [spec(280)] },
        { from: { id: second }, to: { id: person }, types: [spec(2)] },
        { from: { id: second }, to: { id: other }, types: [spec(280)] },
      ],
    });
    const inputs = [
      { id: person },
      { id: other },
      ...Array.from({ length: 998 }, (_, index) => ({ id: String(900_000_000_000 + index) })),
    ];

    dynamoCallCounter.reset();
    const response = await api.post<BatchJson<ReadJson>>(`${base}/contacts/companies/batch/read`, { inputs });
    const calls = dynamoCallCounter.callsApartFromRetries();

    expect(response.status).toBe(207);
    expect(response.body.results).toEqual([
      {
        from: { id: person },
        to: [
          { toObjectId: Number(first), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 279, label: null }] },
          {
            toObjectId: Number(second),
            associationTypes: [
              { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' },
              { category: 'HUBSPOT_DEFINED', typeId: 279, label: null },
            ],
          },
        ].sort((x, y) => x.toObjectId - y.toObjectId),
      },
      {
        from: { id: other },
        to: [
          { toObjectId: Number(second), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 279, label: null }] },
        ],
      },
    ]);
    expect(response.body.numErrors).toBe(998);
    expect(calls).toEqual({ BatchGetItemCommand: 10 });
  });

  it('refuses more than 1,000 inputs', async () => {
    const response = await api.post(`${base}/companies/contacts/batch/read`, {
      inputs: Array.from({ length: 1001 }, (_, index) => ({ id: String(index + 1) })),
    });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
  });
});

describe('POST /crm/v4/associations/{from}/{to}/batch/archive', () => {
  it('answers 204 and removes every type between each pair, from either side', async () => {
    const [a, b] = [await company('A'), await company('B')];
    const [c1 = '', c2 = '', c3 = ''] = await contacts(3);
    await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id: a }, to: { id: c1 }, types: [spec(2)] },
        { from: { id: a }, to: { id: c2 }, types: [spec(280)] },
        { from: { id: b }, to: { id: c3 }, types: [spec(280)] },
      ],
    });

    const forward = await api.post(`${base}/companies/contacts/batch/archive`, {
      inputs: [{ from: { id: a }, to: [{ id: c1 }, { id: c2 }] }],
    });
    const reverse = await api.post(`${base}/contacts/companies/batch/archive`, {
      inputs: [{ from: { id: c3 }, to: [{ id: b }] }],
    });
    const missing = await api.post(`${base}/companies/contacts/batch/archive`, {
      inputs: [{ from: { id: '999999999997' }, to: [{ id: c1 }] }],
    });

    expect([forward.status, reverse.status, missing.status]).toEqual([204, 204, 204]);
    expect(await typesOf(a, c1)).toEqual([]);
    expect(await typesOf(a, c2)).toEqual([]);
    expect(await typesOf(b, c3)).toEqual([]);
    expect(await contactTypesOf(c1, a)).toEqual([]);
    expect(await contactTypesOf(c3, b)).toEqual([]);
  });

  it('refuses a malformed id with a 400 before writing anything', async () => {
    const a = await company('A');
    const c1 = await contact();
    await api.put(`/crm/v4/objects/companies/${a}/associations/contacts/${c1}`, [spec(280)]);

    const response = await api.post(`${base}/companies/contacts/batch/archive`, {
      inputs: [{ from: { id: a }, to: [{ id: c1 }, { id: 'x1' }] }],
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toMatchObject({ INVALID_OBJECT_IDS: ['CONTACT=x1 is not valid'], input: ['1'] });
    expect(await typesOf(a, c1)).toEqual([280]);
    expect(await contactTypesOf(c1, a)).toEqual([279]);
  });
});

describe('POST /crm/v4/associations/{from}/{to}/batch/labels/archive', () => {
  it('answers 204 and removes only the sent labels', async () => {
    const a = await company('A');
    const c1 = await contact();
    await api.put(`/crm/v4/objects/companies/${a}/associations/contacts/${c1}`, [spec(2)]);

    const response = await api.post(`${base}/companies/contacts/batch/labels/archive`, {
      inputs: [{ from: { id: a }, to: { id: c1 }, types: [spec(2)] }],
    });

    expect(response.status).toBe(204);
    expect(await typesOf(a, c1)).toEqual([280]);
    expect(await contactTypesOf(c1, a)).toEqual([279]);
  });

  it('removes every label of the pair when the unlabeled type is sent, seen from the contact too', async () => {
    const a = await company('A');
    const c1 = await contact();
    await api.put(`/crm/v4/objects/companies/${a}/associations/contacts/${c1}`, [spec(2)]);

    const response = await api.post(`${base}/contacts/companies/batch/labels/archive`, {
      inputs: [{ from: { id: c1 }, to: { id: a }, types: [spec(279)] }],
    });

    expect(response.status).toBe(204);
    expect(await typesOf(a, c1)).toEqual([]);
    expect(await contactTypesOf(c1, a)).toEqual([]);
  });

  it('refuses a type that does not fit the pair with a 400, writing nothing', async () => {
    const a = await company('A');
    const [c1 = '', c2 = ''] = await contacts(2);
    await api.post(`${base}/companies/contacts/batch/create`, {
      inputs: [
        { from: { id: a }, to: { id: c1 }, types: [spec(2)] },
        { from: { id: a }, to: { id: c2 }, types: [spec(2)] },
      ],
    });

    const response = await api.post(`${base}/companies/contacts/batch/labels/archive`, {
      inputs: [
        { from: { id: a }, to: { id: c1 }, types: [spec(2)] },
        { from: { id: a }, to: { id: c2 }, types: [spec(13)] },
      ],
    });

    expect(response.status).toBe(400);
    expect(response.body.subCategory).toBe('crm.associations.INVALID_ASSOCIATION_TYPE');
    expect(await typesOf(a, c1)).toEqual([2, 280]);
  });
});

describe('POST /crm/v4/associations/{from}/{to}/batch/associate/default', () => {
  it('answers 200 with both directions of each pair, keeping labels', async () => {
    const a = await company('A');
    const [c1 = '', c2 = ''] = await contacts(2);
    await api.put(`/crm/v4/objects/companies/${a}/associations/contacts/${c1}`, [spec(2)]);

    const response = await api.post<
      BatchJson<{
        from: { id: string };
        to: { id: string };
        associationSpec: { associationCategory: string; associationTypeId: number };
      }>
    >(`${base}/companies/contacts/batch/associate/default`, {
      inputs: [
        { from: { id: a }, to: { id: c1 } },
        { from: { id: a }, to: { id: c2 } },
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      { from: { id: a }, to: { id: c1 }, associationSpec: spec(280) },
      { from: { id: c1 }, to: { id: a }, associationSpec: spec(279) },
      { from: { id: a }, to: { id: c2 }, associationSpec: spec(280) },
      { from: { id: c2 }, to: { id: a }, associationSpec: spec(279) },
    ]);
    expect(await typesOf(a, c1)).toEqual([2, 280]);
    expect(await typesOf(a, c2)).toEqual([280]);
    expect(await contactTypesOf(c2, a)).toEqual([279]);
  });

  it('answers 200 with a missing company or contact in errors', async () => {
    const a = await company('A');
    const person = await contact();
    const response = await api.post<BatchJson<unknown>>(`${base}/companies/contacts/batch/associate/default`, {
      inputs: [
        { from: { id: '999999999996' }, to: { id: person } },
        { from: { id: a }, to: { id: '999999999996' } },
      ],
    });

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([]);
    expect(response.body.errors?.map((error) => error.category)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(response.body.errors?.[0]?.context).toEqual({ INVALID_OBJECT_IDS: ['COMPANY=999999999996 is not valid'] });
    expect(response.body.errors?.[1]?.context).toEqual({ INVALID_OBJECT_IDS: ['CONTACT=999999999996 is not valid'] });
    expect(await typesOf(a, '999999999996')).toEqual([]);
  });
});
