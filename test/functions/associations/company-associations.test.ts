import type { RunningGateway } from '../../../local/local-gateway';
import { createRecord, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

async function company(name = 'Assoc'): Promise<string> {
  const response = await api.post('/crm/v3/objects/companies', { properties: { name } });
  return String(response.body.id);
}

describe('PUT /crm/v3/objects/companies/{companyId}/associations/{toObjectType}/{toObjectId}/{associationTypeId}', () => {
  it('associates a contact and returns the company with its associations', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/280`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      associations: { contacts: { results: [{ id: contact, type: 'company_to_contact_unlabeled' }] } },
    });
  });

  it('answers 400 INVALID_OBJECT_IDS naming a contact that does not exist, and stores nothing', async () => {
    const id = await company();

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/1000000000000557/280`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?associations=contacts`);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      message: 'One or more associations are invalid',
      category: 'VALIDATION_ERROR',
      context: { INVALID_OBJECT_IDS: ['CONTACT=1000000000000557 is not valid'] },
    });
    expect(read.body).not.toHaveProperty('associations');
  });

  it('accepts the object type id instead of the plural name', async () => {
    const id = await company();
    const deal = await createRecord(api, 'deals');

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/0-3/${deal}/342`);

    expect(response.status).toBe(200);
    expect(response.body.associations?.deals?.results).toEqual([{ id: deal, type: 'company_to_deal_unlabeled' }]);
  });

  it('lists a primary association twice, once per type', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');

    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?associations=contacts`);

    expect(read.body.associations?.contacts?.results).toEqual([
      { id: contact, type: 'company_to_contact' },
      { id: contact, type: 'company_to_contact_unlabeled' },
    ]);
  });

  it('accepts the historical type name instead of the type id', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');

    const response = await api.put(
      `/crm/v3/objects/companies/${id}/associations/contacts/${contact}/company_to_contact_unlabeled`,
    );

    expect(response.status).toBe(200);
    expect(response.body.associations?.contacts?.results).toEqual([
      { id: contact, type: 'company_to_contact_unlabeled' },
    ]);
  });

  it('answers 400 INVALID_ASSOCIATION_TYPE when the type does not fit the pair', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/342`);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      subCategory: 'crm.associations.INVALID_ASSOCIATION_TYPE',
      context: { type: ['342'], fromObjectType: ['companies'], toObjectType: ['contacts'] },
    });
  });

  it('answers 400 for an unknown object type', async () => {
    const id = await company();

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/widgets/1/280`);

    expect(response.status).toBe(400);
  });

  it('stores a parent-child company association on both companies with the paired type', async () => {
    const parent = await company('Parent');
    const child = await company('Child');

    const response = await api.put(`/crm/v3/objects/companies/${parent}/associations/companies/${child}/13`);
    const fromChild = await api.get(`/crm/v3/objects/companies/${child}?associations=companies`);

    expect(response.body.associations?.companies?.results).toEqual([{ id: child, type: 'parent_to_child_company' }]);
    expect(fromChild.body.associations?.companies?.results).toEqual([{ id: parent, type: 'child_to_parent_company' }]);
  });

  it('answers 400 when the target company does not exist', async () => {
    const id = await company();

    const response = await api.put(`/crm/v3/objects/companies/${id}/associations/companies/1000000000000555/450`);

    expect(response.status).toBe(400);
    expect(response.body.context?.INVALID_OBJECT_IDS).toEqual(['COMPANY=1000000000000555 is not valid']);
  });

  it('answers 404 for a missing company', async () => {
    const response = await api.put('/crm/v3/objects/companies/1000000000000556/associations/contacts/1/280');

    expect(response.status).toBe(404);
  });
});

describe('DELETE /crm/v3/objects/companies/{companyId}/associations/...', () => {
  it('answers 204 and removes the association from both companies', async () => {
    const parent = await company('Parent');
    const child = await company('Child');
    await api.put(`/crm/v3/objects/companies/${parent}/associations/companies/${child}/13`);

    const response = await api.delete(`/crm/v3/objects/companies/${parent}/associations/companies/${child}/13`);
    const fromParent = await api.get(`/crm/v3/objects/companies/${parent}?associations=companies`);
    const fromChild = await api.get(`/crm/v3/objects/companies/${child}?associations=companies`);

    expect(response.status).toBe(204);
    expect(fromParent.body).not.toHaveProperty('associations');
    expect(fromChild.body).not.toHaveProperty('associations');
  });

  it('removes the primary type along with the unlabeled one it implies', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);

    await api.delete(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/280`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?associations=contacts`);

    expect(read.body).not.toHaveProperty('associations');
  });

  it('keeps the unlabeled type when only the primary type is removed', async () => {
    const id = await company();
    const contact = await createRecord(api, 'contacts');
    await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);

    await api.delete(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/2`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?associations=contacts`);

    expect(read.body.associations?.contacts?.results).toEqual([{ id: contact, type: 'company_to_contact_unlabeled' }]);
  });

  it('removes the reverse side when a company is archived', async () => {
    const parent = await company('Parent');
    const child = await company('Child');
    await api.put(`/crm/v3/objects/companies/${parent}/associations/companies/${child}/450`);

    await api.delete(`/crm/v3/objects/companies/${parent}`);
    const fromChild = await api.get(`/crm/v3/objects/companies/${child}?associations=companies`);

    expect(fromChild.body).not.toHaveProperty('associations');
  });
});

describe('archiving a much-linked company', () => {
  it('removes the reverse side from more companies than one transaction holds', async () => {
    const hub = await company('Hub');
    const created = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: 100 }, (_, index) => ({ properties: { name: `Spoke ${index}` } })),
    });
    const spokes = (created.body.results ?? []).map((spoke) => spoke.id);
    for (let start = 0; start < spokes.length; start += 10) {
      await Promise.all(
        spokes
          .slice(start, start + 10)
          .map((spoke) => api.put(`/crm/v3/objects/companies/${spoke}/associations/companies/${hub}/450`)),
      );
    }

    const response = await api.delete(`/crm/v3/objects/companies/${hub}`);
    const reads = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: spokes.map((id) => ({ id })),
      properties: ['name'],
      propertiesWithHistory: [],
    });
    const linked = await Promise.all(
      spokes.map((spoke) => api.get(`/crm/v3/objects/companies/${spoke}?associations=companies`)),
    );

    expect(response.status).toBe(204);
    expect(reads.body.results).toHaveLength(100);
    expect(linked.filter((read) => read.body.associations !== undefined)).toHaveLength(0);
  });
});

describe('associations on create', () => {
  it('creates the company with its associations in the same request', async () => {
    const other = await company('Other');
    const contact = await createRecord(api, 'contacts');

    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'With links' },
      associations: [
        { to: { id: contact }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }] },
        { to: { id: other }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 14 }] },
      ],
    });
    const read = await api.get(`/crm/v3/objects/companies/${response.body.id}?associations=contacts,companies,deals`);
    const fromOther = await api.get(`/crm/v3/objects/companies/${other}?associations=companies`);
    const fromContact = await api.get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/contacts/${contact}/associations/companies`,
    );

    expect(response.status).toBe(201);
    expect(fromContact.body.results.map((result) => String(result.toObjectId))).toEqual([response.body.id]);
    expect(read.body.associations).toEqual({
      contacts: { results: [{ id: contact, type: 'company_to_contact_unlabeled' }] },
      companies: { results: [{ id: other, type: 'child_to_parent_company' }] },
    });
    expect(fromOther.body.associations?.companies?.results).toEqual([
      { id: response.body.id, type: 'parent_to_child_company' },
    ]);
  });

  it('answers 400 INVALID_ASSOCIATION_TYPE for a type id that does not start at companies', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Bad type' },
      associations: [{ to: { id: '1' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] }],
    });

    expect(response.status).toBe(400);
    expect(response.body.subCategory).toBe('crm.associations.INVALID_ASSOCIATION_TYPE');
  });
});

describe('hs_pinned_engagement_id', () => {
  it('pins an activity associated in the same create request', async () => {
    const note = await createRecord(api, 'notes');
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Pinned', hs_pinned_engagement_id: note },
      associations: [{ to: { id: note }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 189 }] }],
    });

    expect(response.status).toBe(201);
    expect(response.body.properties?.hs_pinned_engagement_id).toBe(note);
  });

  it('rejects a pin on create without the association', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Pinned', hs_pinned_engagement_id: '3002' },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.context.propertyName).toEqual(['hs_pinned_engagement_id']);
  });

  it('rejects a pin on create whose id is associated as a contact, not an activity', async () => {
    const contact = await createRecord(api, 'contacts');

    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Pinned', hs_pinned_engagement_id: contact },
      associations: [
        { to: { id: contact }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }] },
      ],
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.context.propertyName).toEqual(['hs_pinned_engagement_id']);
  });

  it('rejects a pin on update when the activity is not associated', async () => {
    const id = await company();

    const response = await api.patch(`/crm/v3/objects/companies/${id}`, {
      properties: { hs_pinned_engagement_id: '4001' },
    });

    expect(response.status).toBe(400);
  });

  it('pins an associated activity on update', async () => {
    const id = await company();
    const call = await createRecord(api, 'calls');
    await api.put(`/crm/v3/objects/companies/${id}/associations/calls/${call}/181`);

    const response = await api.patch(`/crm/v3/objects/companies/${id}`, {
      properties: { hs_pinned_engagement_id: call },
    });

    expect(response.status).toBe(200);
    expect(response.body.properties?.hs_pinned_engagement_id).toBe(call);
  });

  it('unpins when the pinned activity loses its association', async () => {
    const id = await company();
    const note = await createRecord(api, 'notes');
    await api.put(`/crm/v3/objects/companies/${id}/associations/notes/${note}/189`);
    await api.patch(`/crm/v3/objects/companies/${id}`, { properties: { hs_pinned_engagement_id: note } });

    await api.delete(`/crm/v3/objects/companies/${id}/associations/notes/${note}/189`);
    const read = await api.get(`/crm/v3/objects/companies/${id}?properties=hs_pinned_engagement_id`);

    expect(read.body.properties?.hs_pinned_engagement_id).toBeNull();
  });
});

describe('association labels', () => {
  it('lists the standard company-to-contact types', async () => {
    const response = await api.get('/crm/v4/associations/companies/contacts/labels');

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual(
      expect.arrayContaining([
        { category: 'HUBSPOT_DEFINED', typeId: 280, label: null },
        { category: 'HUBSPOT_DEFINED', typeId: 2, label: 'Primary' },
      ]),
    );
  });

  it('creates a USER_DEFINED label with 200 whose type id works in the association routes', async () => {
    const name = unique('billing').replaceAll('-', '_');

    const created = await api.post('/crm/v4/associations/companies/contacts/labels', {
      name,
      label: 'Billing contact',
    });
    const typeId = ((created.body.results ?? [])[0] as unknown as { typeId: number }).typeId;
    const listed = await api.get('/crm/v4/associations/0-2/0-1/labels');
    const id = await company();
    const contact = await createRecord(api, 'contacts');
    const associated = await api.put(`/crm/v3/objects/companies/${id}/associations/contacts/${contact}/${typeId}`);

    expect(created.status).toBe(200);
    expect(created.body.results?.[0]).toMatchObject({ category: 'USER_DEFINED', label: 'Billing contact' });
    expect(listed.body.results).toEqual(
      expect.arrayContaining([{ category: 'USER_DEFINED', typeId, label: 'Billing contact' }]),
    );
    expect(associated.status).toBe(200);
    expect(associated.body.associations?.contacts?.results).toEqual([{ id: contact, type: name }]);
  });

  it('accepts a custom type id in the create body', async () => {
    const name = unique('partner').replaceAll('-', '_');
    const created = await api.post('/crm/v4/associations/companies/companies/labels', {
      name,
      label: 'Partner',
      inverseLabel: 'Partner of',
    });
    const [forward, backward] = (created.body.results ?? []) as unknown as { typeId: number }[];
    const other = await company('Partner target');

    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Partnered' },
      associations: [
        {
          to: { id: other },
          types: [{ associationCategory: 'USER_DEFINED', associationTypeId: forward?.typeId ?? 0 }],
        },
      ],
    });
    const fromOther = await api.get(`/crm/v3/objects/companies/${other}?associations=companies`);

    expect(response.status).toBe(201);
    expect(backward?.typeId).toBe((forward?.typeId ?? 0) + 1);
    expect(fromOther.body.associations?.companies?.results).toEqual([
      { id: response.body.id, type: `${name}_inverse` },
    ]);
  });

  it('rejects a label name with a hyphen or a leading digit', async () => {
    const hyphen = await api.post('/crm/v4/associations/companies/contacts/labels', { name: 'bad-name', label: 'x' });
    const digit = await api.post('/crm/v4/associations/companies/contacts/labels', { name: '1name', label: 'x' });

    expect(hyphen.status).toBe(400);
    expect(digit.status).toBe(400);
  });

  it('does not let another account use a custom type id', async () => {
    const name = unique('private').replaceAll('-', '_');
    const created = await api.post('/crm/v4/associations/companies/contacts/labels', { name, label: 'Private' });
    const typeId = ((created.body.results ?? [])[0] as unknown as { typeId: number }).typeId;
    const stranger = crmClient(gateway, (await install(gateway)).accessToken);
    const strangerCompany = await stranger.post('/crm/v3/objects/companies', { properties: { name: 'Stranger' } });
    const strangerContact = await createRecord(stranger, 'contacts');

    const response = await stranger.put(
      `/crm/v3/objects/companies/${strangerCompany.body.id}/associations/contacts/${strangerContact}/${typeId}`,
    );
    const labels = await stranger.get('/crm/v4/associations/companies/contacts/labels');

    expect(response.status).toBe(400);
    expect(labels.body.results?.map((label) => (label as unknown as { typeId: number }).typeId)).not.toContain(typeId);
  });
});
