import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/companies/models/AssociationSpec';
import {
  PropertyCreateFieldTypeEnum,
  PropertyCreateTypeEnum,
} from '@hubspot/api-client/lib/codegen/crm/properties/models/PropertyCreate';
import { unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

/** The official SDK, unchanged but for the base URL: its requests and its models must work against us. */
const sdk = useSdkClient();

function domain(): string {
  return `${unique('sdk')}.example`.toLowerCase();
}

describe('@hubspot/api-client against the local gateway', () => {
  it('creates a company and parses the record', async () => {
    const name = domain();

    const company = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'SDK Co', domain: name },
      associations: [],
    });

    expect(company.id).toMatch(/^\d+$/);
    expect(company.properties).toMatchObject({ name: 'SDK Co', domain: name, hs_object_id: company.id });
    expect(company.createdAt).toBeInstanceOf(Date);
    expect(company.archived).toBe(false);
  });

  it('reads a company by id with properties, history and associations sent as repeated parameters', async () => {
    // The associated contact is a stored record: a create naming a contact that does not exist is refused.
    const contact = await sdk.client.crm.contacts.basicApi.create({
      properties: { email: `${unique('sdk-contact')}@example.com`.toLowerCase() },
      associations: [],
    });
    const toContact = (id: string) => ({
      to: { id },
      types: [{ associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: 280 }],
    });
    const missing = sdk.client.crm.companies.basicApi.create({
      properties: { name: 'SDK Read missing' },
      associations: [toContact('999999999999')],
    });
    await expect(missing).rejects.toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { INVALID_OBJECT_IDS: ['CONTACT=999999999999 is not valid'] } },
    });
    const created = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'SDK Read', city: 'Turin' },
      associations: [toContact(contact.id)],
    });

    const company = await sdk.client.crm.companies.basicApi.getById(
      created.id,
      ['name', 'city'],
      ['name'],
      ['contacts'],
    );

    expect(company.properties).toEqual({ name: 'SDK Read', city: 'Turin' });
    expect(company.propertiesWithHistory?.name?.[0]?.value).toBe('SDK Read');
    expect(company.propertiesWithHistory?.name?.[0]?.timestamp).toBeInstanceOf(Date);
    expect(company.associations?.contacts?.results).toEqual([{ id: contact.id, type: 'company_to_contact_unlabeled' }]);
  });

  it('pages through companies with getPage', async () => {
    await sdk.client.crm.companies.basicApi.create({ properties: { name: 'Page A' }, associations: [] });
    await sdk.client.crm.companies.basicApi.create({ properties: { name: 'Page B' }, associations: [] });

    const first = await sdk.client.crm.companies.basicApi.getPage(1, undefined, ['name']);
    const second = await sdk.client.crm.companies.basicApi.getPage(1, first.paging?.next?.after, ['name']);

    expect(first.results).toHaveLength(1);
    expect(first.paging?.next?.after).toEqual(expect.any(String));
    expect(second.results[0]?.id).not.toBe(first.results[0]?.id);
  });

  it('updates a company', async () => {
    const created = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'Before' },
      associations: [],
    });

    const updated = await sdk.client.crm.companies.basicApi.update(created.id, { properties: { name: 'After' } });

    expect(updated.properties.name).toBe('After');
    expect(updated.updatedAt).toBeInstanceOf(Date);
  });

  it('archives a company', async () => {
    const created = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'Doomed' },
      associations: [],
    });

    await sdk.client.crm.companies.basicApi.archive(created.id);

    await expect(sdk.client.crm.companies.basicApi.getById(created.id)).rejects.toMatchObject({ code: 404 });
  });

  it('reads a batch and parses the envelope', async () => {
    const created = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'Batch SDK' },
      associations: [],
    });

    const batch = await sdk.client.crm.companies.batchApi.read({
      inputs: [{ id: created.id }],
      properties: ['name'],
      propertiesWithHistory: [],
    });

    expect(batch.status).toBe('COMPLETE');
    expect(batch.results[0]?.properties.name).toBe('Batch SDK');
    expect(batch.startedAt).toBeInstanceOf(Date);
  });

  it('surfaces our 409 as an SDK error with the conflict body', async () => {
    const name = domain();
    await sdk.client.crm.companies.basicApi.create({ properties: { domain: name }, associations: [] });

    const failure = sdk.client.crm.companies.basicApi.create({ properties: { domain: name }, associations: [] });

    await expect(failure).rejects.toMatchObject({ code: 409, body: { category: 'CONFLICT' } });
  });

  it('creates, updates, upserts and archives in batches', async () => {
    const upsertDomain = domain();

    const created = await sdk.client.crm.companies.batchApi.create({
      inputs: [
        { properties: { name: 'B1' }, associations: [] },
        { properties: { name: 'B2' }, associations: [] },
      ],
    });
    const ids = created.results.map((company) => company.id);
    const updated = await sdk.client.crm.companies.batchApi.update({
      inputs: ids.map((id) => ({ id, properties: { city: 'Porto' } })),
    });
    const upserted = await sdk.client.crm.companies.batchApi.upsert({
      inputs: [{ id: upsertDomain, idProperty: 'domain', properties: { name: 'Upserted' } }],
    });
    await sdk.client.crm.companies.batchApi.archive({ inputs: ids.map((id) => ({ id })) });
    const afterArchive = await sdk.client.crm.companies.batchApi.read({
      inputs: ids.map((id) => ({ id })),
      properties: [],
      propertiesWithHistory: [],
    });

    expect(created.status).toBe('COMPLETE');
    expect(updated.results.map((company) => company.properties.city)).toEqual(['Porto', 'Porto']);
    expect(upserted.results[0]).toMatchObject({ _new: true, properties: { domain: upsertDomain } });
    expect(afterArchive.results).toHaveLength(0);
  });

  it('reads and creates company properties', async () => {
    const name = unique('sdk_prop').replaceAll('-', '_').toLowerCase();

    const all = await sdk.client.crm.properties.coreApi.getAll('companies');
    const one = await sdk.client.crm.properties.coreApi.getByName('companies', 'industry');
    const created = await sdk.client.crm.properties.coreApi.create('companies', {
      name,
      label: 'SDK prop',
      type: PropertyCreateTypeEnum.String,
      fieldType: PropertyCreateFieldTypeEnum.Text,
      groupName: 'companyinformation',
      hasUniqueValue: true,
    });

    expect(all.results.map((property) => property.name)).toContain('lifecyclestage');
    expect(one.options.length).toBeGreaterThan(50);
    expect(created).toMatchObject({ name, hasUniqueValue: true });
  });

  it('lists and creates association labels', async () => {
    const name = unique('sdk_label').replaceAll('-', '_');

    const created = await sdk.client.crm.associations.v4.schema.definitionsApi.create('companies', 'contacts', {
      name,
      label: 'SDK label',
    });
    const all = await sdk.client.crm.associations.v4.schema.definitionsApi.getAll('companies', 'contacts');

    expect(created.results[0]).toMatchObject({ category: 'USER_DEFINED', label: 'SDK label' });
    expect(all.results.map((label) => label.typeId)).toEqual(
      expect.arrayContaining([280, 2, created.results[0]?.typeId]),
    );
  });
});

describe('crm.companies.basicApi.merge', () => {
  it('answers 200 with the merged record, which either old id then reads', async () => {
    const primary = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'SDK primary', domain: domain() },
      associations: [],
    });
    const secondary = await sdk.client.crm.companies.basicApi.create({
      properties: { name: 'SDK secondary', city: 'Oslo' },
      associations: [],
    });

    const merged = await sdk.client.crm.companies.basicApi.mergeWithHttpInfo({
      primaryObjectId: primary.id,
      objectIdToMerge: secondary.id,
    });
    const byOldId = await sdk.client.crm.companies.basicApi.getById(secondary.id, [
      'name',
      'city',
      'hs_merged_object_ids',
    ]);

    expect(merged.httpStatusCode).toBe(200);
    expect(merged.data.id).not.toBe(primary.id);
    expect(merged.data.updatedAt).toBeInstanceOf(Date);
    expect(merged.data.properties).toMatchObject({
      name: 'SDK primary',
      city: 'Oslo',
      hs_merged_object_ids: `${primary.id};${secondary.id}`,
    });
    expect(byOldId.id).toBe(merged.data.id);
  });
});
