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
interface PageJson {
  results: { toObjectId: number; associationTypes: TypeJson[] }[];
  paging?: { next: { after: string; link: string } };
}

async function company(name = 'V4'): Promise<string> {
  const response = await api.post('/crm/v3/objects/companies', { properties: { name } });
  return String(response.body.id);
}

/** A new contact: associations are checked against real records, so every contact a test associates exists. */
const contactId = () => createRecord(api, 'contacts');

/** Ids in the order the association pages list them (numeric order). */
const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

const spec = (associationTypeId: number, associationCategory = 'HUBSPOT_DEFINED') => ({
  associationCategory,
  associationTypeId,
});

describe('GET /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}', () => {
  it("lists a company's contacts with numeric ids and every type, null label for unlabeled", async () => {
    const id = await company();
    const contact = await contactId();
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);

    const response = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      results: [
        {
          toObjectId: Number(contact),
          associationTypes: [
            { category: 'HUBSPOT_DEFINED', typeId: 2, label: 'Primary' },
            { category: 'HUBSPOT_DEFINED', typeId: 280, label: null },
          ],
        },
      ],
    });
  });

  it('lists the companies of a contact, with the contact-side types, by singular name and by type id', async () => {
    const first = await company('First');
    const second = await company('Second');
    const contact = await contactId();
    await api.put(`/crm/v3/objects/companies/${first}/associations/contacts/${contact}/280`);
    await api.put(`/crm/v3/objects/companies/${second}/associations/contacts/${contact}/2`);

    const bySingular = await api.get<PageJson>(`/crm/v4/objects/contact/${contact}/associations/company`);
    const byTypeId = await api.get<PageJson>(`/crm/v4/objects/0-1/${contact}/associations/0-2`);

    expect(bySingular.status).toBe(200);
    expect(bySingular.body.results).toEqual([
      { toObjectId: Number(first), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 279, label: null }] },
      {
        toObjectId: Number(second),
        associationTypes: [
          { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' },
          { category: 'HUBSPOT_DEFINED', typeId: 279, label: null },
        ],
      },
    ]);
    expect(byTypeId.body).toEqual(bySingular.body);
  });

  it('pages with limit and after, the next link carrying the cursor', async () => {
    const id = await company();
    const contacts = (await createRecords(api, 'contacts', 3)).sort(byId);
    for (const contact of contacts)
      await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/280`);

    const first = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts?limit=2`);
    const second = await api.get<PageJson>(
      `/crm/v4/objects/companies/${id}/associations/contacts?limit=2&after=${first.body.paging?.next.after}`,
    );

    expect(first.body.results.map((result) => String(result.toObjectId))).toEqual(contacts.slice(0, 2));
    expect(first.body.paging?.next.link).toContain(`after=${contacts[1]}`);
    expect(second.body.results.map((result) => String(result.toObjectId))).toEqual(contacts.slice(2));
    expect(second.body.paging).toBeUndefined();
  });

  it('pages the reverse direction too', async () => {
    const contact = await contactId();
    const ids = [await company('A'), await company('B')].sort(byId);
    for (const id of ids) await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/280`);

    const first = await api.get<PageJson>(`/crm/v4/objects/contacts/${contact}/associations/companies?limit=1`);
    const second = await api.get<PageJson>(
      `/crm/v4/objects/contacts/${contact}/associations/companies?limit=1&after=${first.body.paging?.next.after}`,
    );

    expect(first.body.results.map((result) => String(result.toObjectId))).toEqual([ids[0]]);
    expect(second.body.results.map((result) => String(result.toObjectId))).toEqual([ids[1]]);
    expect(second.body.paging).toBeUndefined();
  });

  it('answers 400 for limit above 500', async () => {
    const id = await company();

    const response = await api.get(`/crm/v4/objects/companies/${id}/associations/contacts?limit=501`);

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ limit: ['501'] });
  });

  it('answers 404 for a missing company, contact or note and 400 for an unknown type', async () => {
    const missing = await api.get('/crm/v4/objects/companies/1000000000000999/associations/contacts');
    const missingContact = await api.get('/crm/v4/objects/contacts/1000000000000999/associations/deals');
    const missingNote = await api.get('/crm/v4/objects/notes/1000000000000999/associations/contacts');
    const unknown = await api.get('/crm/v4/objects/notes/1/associations/quotes');

    expect(missing.status).toBe(404);
    expect(missingContact.status).toBe(404);
    expect(missingNote.status).toBe(404);
    expect(unknown.status).toBe(400);
    expect(unknown.body.context).toEqual({ toObjectType: ['quotes'] });
  });

  it('lists the deals of a contact: a pair without a company is stored on both records', async () => {
    const contact = await contactId();
    const deal = await createRecord(api, 'deals');
    await api.put(`/crm/v4/objects/contacts/${contact}/associations/deals/${deal}`, [spec(4)]);

    const fromContact = await api.get<PageJson>(`/crm/v4/objects/contacts/${contact}/associations/deals`);
    const fromDeal = await api.get<PageJson>(`/crm/v4/objects/deals/${deal}/associations/contacts`);

    expect(fromContact.status).toBe(200);
    expect(fromContact.body.results).toEqual([
      { toObjectId: Number(deal), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 4, label: null }] },
    ]);
    expect(fromDeal.body.results).toEqual([
      { toObjectId: Number(contact), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 3, label: null }] },
    ]);
  });

  it('leaves out a company archived since', async () => {
    const contact = await contactId();
    const kept = await company('Kept');
    const archived = await company('Gone');
    await api.put(`/crm/v3/objects/companies/${kept}/associations/contacts/${contact}/280`);
    await api.put(`/crm/v3/objects/companies/${archived}/associations/contacts/${contact}/280`);
    await api.delete(`/crm/v3/objects/companies/${archived}`);

    const response = await api.get<PageJson>(`/crm/v4/objects/contacts/${contact}/associations/companies`);

    expect(response.body.results.map((result) => String(result.toObjectId))).toEqual([kept]);
  });

  it('reads a company page and a contact page with one GetItem each', async () => {
    const id = await company();
    const contact = await contactId();
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/280`);

    dynamoCallCounter.reset();
    await api.get(`/crm/v4/objects/companies/${id}/associations/contacts`);
    const forward = dynamoCallCounter.callsApartFromRetries();
    dynamoCallCounter.reset();
    await api.get(`/crm/v4/objects/contacts/${contact}/associations/companies`);
    const reverse = dynamoCallCounter.callsApartFromRetries();

    expect(forward).toEqual({ GetItemCommand: 1 });
    expect(reverse).toEqual({ GetItemCommand: 1 });
  });
});

describe('PUT /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}', () => {
  it('answers 201 with the pair and its labels, and the sent set replaces the types', async () => {
    const id = await company();
    const contact = await contactId();
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);

    const response = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [spec(280)]);
    const read = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts`);

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      fromObjectTypeId: '0-2',
      fromObjectId: Number(id),
      toObjectTypeId: '0-1',
      toObjectId: Number(contact),
      labels: [],
    });
    expect(read.body.results[0]?.associationTypes).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 280, label: null }]);
  });

  it('associates from a contact to a company, stored on the company with the company-side type and on the contact', async () => {
    const id = await company();
    const contact = await contactId();

    const response = await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/${id}`, [spec(1)]);
    const read = await api.get(`/crm/v3/objects/companies/${id}?associations=contacts`);
    const fromContact = await api.get<PageJson>(`/crm/v4/objects/contacts/${contact}/associations/companies`);

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ fromObjectTypeId: '0-1', toObjectTypeId: '0-2', labels: ['Primary'] });
    expect(read.body.associations?.contacts?.results).toEqual([
      { id: contact, type: 'company_to_contact' },
      { id: contact, type: 'company_to_contact_unlabeled' },
    ]);
    expect(fromContact.body.results).toEqual([
      {
        toObjectId: Number(id),
        associationTypes: [
          { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' },
          { category: 'HUBSPOT_DEFINED', typeId: 279, label: null },
        ],
      },
    ]);
  });

  it('replaces a parent-child link between companies on both companies', async () => {
    const parent = await company('Parent');
    const child = await company('Child');
    await api.put(`/crm/v4/objects/companies/${parent}/associations/companies/${child}`, [spec(13)]);

    await api.put(`/crm/v4/objects/companies/${parent}/associations/companies/${child}`, [spec(450)]);
    const fromChild = await api.get<PageJson>(`/crm/v4/objects/companies/${child}/associations/companies`);

    expect(fromChild.body.results).toEqual([
      { toObjectId: Number(parent), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 450, label: null }] },
    ]);
  });

  it('uses a custom label and shows it on both sides', async () => {
    const id = await company();
    const contact = await contactId();
    const created = await api.post<{ results: TypeJson[] }>('/crm/v4/associations/companies/contacts/labels', {
      name: `billing_${Date.now()}`,
      label: 'Billing',
      inverseLabel: 'Billed company',
    });
    const [forward, inverse] = created.body.results;

    const response = await api.put<{ labels: string[] }>(
      `/crm/v4/objects/companies/${id}/associations/contacts/${contact}`,
      [spec(forward?.typeId ?? 0, 'USER_DEFINED')],
    );
    const fromContact = await api.get<PageJson>(`/crm/v4/objects/contacts/${contact}/associations/companies`);

    expect(response.body.labels).toEqual(['Billing']);
    expect(fromContact.body.results[0]?.associationTypes).toEqual([
      { category: 'USER_DEFINED', typeId: inverse?.typeId, label: 'Billed company' },
    ]);
  });

  it('answers 400 INVALID_ASSOCIATION_TYPE for a type of another direction and for a wrong category', async () => {
    const id = await company();
    const contact = await contactId();

    const direction = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [spec(279)]);
    const category = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [
      spec(280, 'USER_DEFINED'),
    ]);

    expect(direction.status).toBe(400);
    expect(direction.body.subCategory).toBe('crm.associations.INVALID_ASSOCIATION_TYPE');
    expect(category.status).toBe(400);
  });

  it('answers 400 naming the body for an empty array, 400 naming a missing company on either end or a missing contact', async () => {
    const id = await company();
    const contact = await contactId();

    const empty = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, []);
    const missing = await api.put(`/crm/v4/objects/companies/1000000000000999/associations/contacts/${contact}`, [
      spec(280),
    ]);
    const missingTarget = await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/1000000000000999`, [
      spec(279),
    ]);
    const missingContact = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/1000000000000998`, [
      spec(280),
    ]);

    expect(empty.status).toBe(400);
    expect(missing.status).toBe(400);
    expect(missing.body.context).toEqual({ INVALID_OBJECT_IDS: ['COMPANY=1000000000000999 is not valid'] });
    expect(missingTarget.status).toBe(400);
    expect(missingTarget.body.context).toEqual({ INVALID_OBJECT_IDS: ['COMPANY=1000000000000999 is not valid'] });
    expect(missingContact.status).toBe(400);
    expect(missingContact.body).toMatchObject({
      status: 'error',
      message: 'One or more associations are invalid',
      category: 'VALIDATION_ERROR',
      context: { INVALID_OBJECT_IDS: ['CONTACT=1000000000000998 is not valid'] },
    });
    const page = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts`);
    expect(page.body.results).toEqual([]);
  });

  it('costs two reads (the record and the account limits) and one transaction, and a primary one more read (the contact whose primary it moves)', async () => {
    const id = await company();
    const [unlabeled, primary] = await createRecords(api, 'contacts', 2);

    dynamoCallCounter.reset();
    const plain = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${unlabeled}`, [spec(280)]);
    const plainCalls = dynamoCallCounter.callsApartFromRetries();
    dynamoCallCounter.reset();
    const withPrimary = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${primary}`, [spec(2)]);
    const primaryCalls = dynamoCallCounter.callsApartFromRetries();

    expect(plain.status).toBe(201);
    expect(plainCalls).toEqual({ GetItemCommand: 2, TransactWriteItemsCommand: 1 });
    expect(withPrimary.status).toBe(201);
    expect(primaryCalls).toEqual({ GetItemCommand: 3, TransactWriteItemsCommand: 1 });
  });
});

describe('PUT .../associations/default/{toObjectType}/{toObjectId} and DELETE', () => {
  it('adds the unlabeled type, keeps a label, and answers 200 with both directions', async () => {
    const id = await company();
    const contact = await contactId();
    await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [spec(2)]);

    const response = await api.put(`/crm/v4/objects/contacts/${contact}/associations/default/companies/${id}`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'COMPLETE',
      results: [
        {
          from: { id: contact },
          to: { id },
          associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 },
        },
        {
          from: { id },
          to: { id: contact },
          associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 },
        },
      ],
    });
    const read = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts`);
    expect(read.body.results[0]?.associationTypes.map((type) => type.typeId)).toEqual([2, 280]);
  });

  it('DELETE answers 204 and removes every type between the pair, on both companies', async () => {
    const first = await company();
    const second = await company();
    await api.put(`/crm/v4/objects/companies/${first}/associations/companies/${second}`, [spec(13), spec(450)]);

    const response = await api.delete(`/crm/v4/objects/companies/${second}/associations/companies/${first}`);

    expect(response.status).toBe(204);
    expect((await api.get<PageJson>(`/crm/v4/objects/companies/${first}/associations/companies`)).body.results).toEqual(
      [],
    );
    expect(
      (await api.get<PageJson>(`/crm/v4/objects/companies/${second}/associations/companies`)).body.results,
    ).toEqual([]);
  });

  it("DELETE from the note side removes the company's association and unpins the activity", async () => {
    const note = await createRecord(api, 'notes');
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Pinned', hs_pinned_engagement_id: note },
      associations: [{ to: { id: note }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 189 }] }],
    });
    const id = String(created.body.id);

    const response = await api.delete(`/crm/v4/objects/notes/${note}/associations/companies/${id}`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?properties=hs_pinned_engagement_id&associations=notes`);

    expect(response.status).toBe(204);
    expect(read.body.associations).toBeUndefined();
    expect(read.body.properties?.hs_pinned_engagement_id).toBeNull();
    expect((await api.get<PageJson>(`/crm/v4/objects/notes/${note}/associations/companies`)).body.results).toEqual([]);
  });
});

describe('GET /crm/v3/objects/companies/{companyId}/associations/{toObjectType}', () => {
  it('lists one entry per type with string ids, paged by record', async () => {
    const id = await company();
    const [a, b] = (await createRecords(api, 'contacts', 2)).sort(byId);
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${a}/2`);
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${b}/280`);

    const first = await api.get(`/crm/v3/objects/companies/${id}/associations/contacts?limit=1`);
    const second = await api.get(
      `/crm/v3/objects/companies/${id}/associations/contacts?limit=1&after=${first.body.paging?.next.after}`,
    );

    expect(first.status).toBe(200);
    expect(first.body.results).toEqual([
      { id: a, type: 'company_to_contact' },
      { id: a, type: 'company_to_contact_unlabeled' },
    ]);
    expect(second.body.results).toEqual([{ id: b, type: 'company_to_contact_unlabeled' }]);
    expect(second.body.paging).toBeUndefined();
  });

  it('answers 404 for a missing company', async () => {
    const response = await api.get('/crm/v3/objects/companies/1000000000000999/associations/contacts');

    expect(response.status).toBe(404);
  });
});

describe('association labels: update and delete, on both path spellings', () => {
  async function label(path: string, inverseLabel?: string): Promise<TypeJson[]> {
    const response = await api.post<{ results: TypeJson[] }>(path, {
      name: `l_${Date.now()}_${Math.floor(Math.random() * 1e6)}`,
      label: 'Before',
      ...(inverseLabel ? { inverseLabel } : {}),
    });
    return response.body.results;
  }

  it('PUT renames a label and its inverse with 204', async () => {
    const [forward, inverse] = await label('/crm/associations/v4/companies/deals/labels', 'Inverse before');

    const response = await api.put('/crm/associations/v4/companies/deals/labels', {
      associationTypeId: forward?.typeId,
      label: 'After',
      inverseLabel: 'Inverse after',
    });
    const forwardList = await api.get<{ results: TypeJson[] }>('/crm/v4/associations/companies/deals/labels');
    const inverseList = await api.get<{ results: TypeJson[] }>('/crm/v4/associations/deals/companies/labels');

    expect(response.status).toBe(204);
    expect(forwardList.body.results).toContainEqual({
      category: 'USER_DEFINED',
      typeId: forward?.typeId,
      label: 'After',
    });
    expect(inverseList.body.results).toContainEqual({
      category: 'USER_DEFINED',
      typeId: inverse?.typeId,
      label: 'Inverse after',
    });
  });

  it('refuses to rename a HubSpot-defined type', async () => {
    const response = await api.put('/crm/v4/associations/companies/contacts/labels', {
      associationTypeId: 2,
      label: 'Mine',
    });

    expect(response.status).toBe(400);
    expect(response.body.subCategory).toBe('crm.associations.INVALID_ASSOCIATION_TYPE');
  });

  it('DELETE answers 204, the label is gone, and records using it read as the unlabeled type', async () => {
    const [forward] = await label('/crm/v4/associations/companies/contacts/labels');
    const id = await company();
    const contact = await contactId();
    await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [
      spec(forward?.typeId ?? 0, 'USER_DEFINED'),
    ]);

    const response = await api.delete(`/crm/associations/v4/companies/contacts/labels/${forward?.typeId}`);
    const list = await api.get<{ results: TypeJson[] }>('/crm/v4/associations/companies/contacts/labels');
    const read = await api.get<PageJson>(`/crm/v4/objects/companies/${id}/associations/contacts`);
    const reuse = await api.put(`/crm/v4/objects/companies/${id}/associations/contacts/${contact}`, [
      spec(forward?.typeId ?? 0, 'USER_DEFINED'),
    ]);

    expect(response.status).toBe(204);
    expect(list.body.results.map((type) => type.typeId)).not.toContain(forward?.typeId);
    expect(read.body.results[0]?.associationTypes).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 280, label: null }]);
    expect(reuse.status).toBe(400);
  });
});
