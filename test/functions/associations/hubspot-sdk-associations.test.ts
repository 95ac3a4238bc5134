import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/associations/v4/models/AssociationSpec';
import { unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

/**
 * crm.associations.v4 through the official SDK, unchanged but for the base URL: it throws on any
 * status but the one it expects, and its models must parse our answers.
 */
const sdk = useSdkClient();

const hubspotDefined = AssociationSpecAssociationCategoryEnum.HubspotDefined;
const userDefined = AssociationSpecAssociationCategoryEnum.UserDefined;

async function companyId(name = 'SDK v4'): Promise<string> {
  return (await sdk.client.crm.companies.basicApi.create({ properties: { name }, associations: [] })).id;
}

/** A new contact, deal or ticket with its required properties: both ends of an association must exist. */
async function recordId(type: 'contacts' | 'deals' | 'tickets'): Promise<string> {
  const tag = unique('sdk-v4');
  const properties: Record<string, string> =
    type === 'contacts'
      ? { email: `${tag}@sdk.example` }
      : type === 'deals'
        ? { dealname: tag, dealstage: 'appointmentscheduled' }
        : { subject: tag, hs_pipeline_stage: '1' };
  return (await sdk.client.crm[type].basicApi.create({ properties, associations: [] })).id;
}

describe('crm.associations.v4.basicApi', () => {
  it('create (201) replaces the labels and getPage (200) parses them', async () => {
    const id = await companyId();
    const contact = await recordId('contacts');

    const pair = await sdk.client.crm.associations.v4.basicApi.create('companies', id, 'contacts', contact, [
      { associationCategory: hubspotDefined, associationTypeId: 2 },
    ]);
    const page = await sdk.client.crm.associations.v4.basicApi.getPage('companies', id, 'contacts', undefined, 500);

    expect(pair).toMatchObject({ fromObjectTypeId: '0-2', toObjectTypeId: '0-1', labels: ['Primary'] });
    expect(String(pair.fromObjectId)).toBe(id);
    expect(page.results).toHaveLength(1);
    expect(String(page.results[0]?.toObjectId)).toBe(contact);
    expect(page.results[0]?.associationTypes).toEqual([
      { category: 'HUBSPOT_DEFINED', typeId: 2, label: 'Primary' },
      { category: 'HUBSPOT_DEFINED', typeId: 280, label: null },
    ]);
  });

  it("reads a contact's companies", async () => {
    const id = await companyId();
    const contact = await recordId('contacts');
    await sdk.client.crm.associations.v4.basicApi.create('contacts', contact, 'companies', id, [
      { associationCategory: hubspotDefined, associationTypeId: 279 },
    ]);

    const page = await sdk.client.crm.associations.v4.basicApi.getPage('contacts', contact, 'companies');

    expect(page.results.map((result) => String(result.toObjectId))).toContain(id);
  });

  it('createDefault answers the batch envelope (200)', async () => {
    const id = await companyId();
    const deal = await recordId('deals');

    const result = await sdk.client.crm.associations.v4.basicApi.createDefault('companies', id, 'deals', deal);
    const fromDeal = await sdk.client.crm.associations.v4.basicApi.getPage('deals', deal, 'companies');

    expect(result.status).toBe('COMPLETE');
    expect(result.startedAt).toBeInstanceOf(Date);
    expect(result.results[0]?.associationSpec).toEqual({
      associationCategory: 'HUBSPOT_DEFINED',
      associationTypeId: 342,
    });
    expect(
      fromDeal.results.map((entry) => [String(entry.toObjectId), entry.associationTypes.map((type) => type.typeId)]),
    ).toEqual([[id, [341]]]);
  });

  it('archive (204) removes every type between the pair', async () => {
    const id = await companyId();
    const ticket = await recordId('tickets');
    await sdk.client.crm.associations.v4.basicApi.create('companies', id, 'tickets', ticket, [
      { associationCategory: hubspotDefined, associationTypeId: 25 },
    ]);
    const before = await sdk.client.crm.associations.v4.basicApi.getPage('tickets', ticket, 'companies');

    await sdk.client.crm.associations.v4.basicApi.archive('companies', id, 'tickets', ticket);
    const page = await sdk.client.crm.associations.v4.basicApi.getPage('companies', id, 'tickets');
    const fromTicket = await sdk.client.crm.associations.v4.basicApi.getPage('tickets', ticket, 'companies');

    expect(before.results.map((entry) => String(entry.toObjectId))).toEqual([id]);
    expect(page.results).toEqual([]);
    expect(fromTicket.results).toEqual([]);
  });
});

describe('crm.associations.v4.schema.definitionsApi', () => {
  it('creates (200), lists, updates (204) and removes (204) a label', async () => {
    const created = await sdk.client.crm.associations.v4.schema.definitionsApi.create('companies', 'contacts', {
      name: unique('sdk_label').replaceAll('-', '_'),
      label: 'SDK label',
    });
    const typeId = created.results[0]?.typeId ?? 0;

    await sdk.client.crm.associations.v4.schema.definitionsApi.update('companies', 'contacts', {
      associationTypeId: typeId,
      label: 'SDK renamed',
    });
    const listed = await sdk.client.crm.associations.v4.schema.definitionsApi.getAll('companies', 'contacts');
    const id = await companyId();
    const contact = await recordId('contacts');
    const pair = await sdk.client.crm.associations.v4.basicApi.create('companies', id, 'contacts', contact, [
      { associationCategory: userDefined, associationTypeId: typeId },
    ]);
    await sdk.client.crm.associations.v4.schema.definitionsApi.remove('companies', 'contacts', typeId);
    const after = await sdk.client.crm.associations.v4.schema.definitionsApi.getAll('companies', 'contacts');

    expect(listed.results).toContainEqual(
      expect.objectContaining({ category: 'USER_DEFINED', typeId, label: 'SDK renamed' }),
    );
    expect(pair.labels).toEqual(['SDK renamed']);
    expect(after.results.map((result) => result.typeId)).not.toContain(typeId);
  });
});

describe('crm.associations.v4.batchApi', () => {
  /** The SDK's own check of the status: the HTTP layer answers with this code or the call throws. */
  async function statusOf(call: () => Promise<{ httpStatusCode: number }>): Promise<number> {
    return (await call()).httpStatusCode;
  }

  it('create (201) parses the pairs; a bad input makes it 207 with errors', async () => {
    const id = await companyId();
    const [first, second, third, fourth] = [
      await recordId('contacts'),
      await recordId('contacts'),
      await recordId('contacts'),
      await recordId('contacts'),
    ];

    const created = await sdk.client.crm.associations.v4.batchApi.create('companies', 'contacts', {
      inputs: [
        { _from: { id }, to: { id: first }, types: [{ associationCategory: hubspotDefined, associationTypeId: 2 }] },
      ],
    });
    const partial = await sdk.client.crm.associations.v4.batchApi.create('companies', 'contacts', {
      inputs: [
        { _from: { id }, to: { id: second }, types: [{ associationCategory: hubspotDefined, associationTypeId: 280 }] },
        {
          _from: { id: '999999999991' },
          to: { id: third },
          types: [{ associationCategory: hubspotDefined, associationTypeId: 280 }],
        },
        {
          _from: { id },
          to: { id: '999999999992' },
          types: [{ associationCategory: hubspotDefined, associationTypeId: 280 }],
        },
      ],
    });

    expect(created.status).toBe('COMPLETE');
    expect(created.completedAt).toBeInstanceOf(Date);
    expect(created.results).toHaveLength(1);
    expect(created.results[0]).toMatchObject({ fromObjectTypeId: '0-2', toObjectTypeId: '0-1', labels: ['Primary'] });
    expect(String(created.results[0]?.toObjectId)).toBe(first);
    expect(partial.results.map((result) => String(result.toObjectId))).toEqual([second]);
    expect('errors' in partial && partial.errors?.[0]?.category).toBe('VALIDATION_ERROR');
    expect('errors' in partial && partial.errors?.[0]?.context).toEqual({
      INVALID_OBJECT_IDS: ['COMPANY=999999999991 is not valid'],
    });
    expect('errors' in partial && partial.errors?.[1]?.context).toEqual({
      INVALID_OBJECT_IDS: ['CONTACT=999999999992 is not valid'],
    });
    expect('numErrors' in partial && partial.numErrors).toBe(2);
    expect(
      await statusOf(() =>
        sdk.client.crm.associations.v4.batchApi.createWithHttpInfo('companies', 'contacts', {
          inputs: [
            {
              _from: { id },
              to: { id: fourth },
              types: [{ associationCategory: hubspotDefined, associationTypeId: 280 }],
            },
          ],
        }),
      ),
    ).toBe(201);
  });

  it('getPage reads (200), and answers 207 with NO_ASSOCIATIONS_FOUND for a record without any', async () => {
    const id = await companyId();
    const [deal, lonely] = [await recordId('deals'), await recordId('deals')];
    await sdk.client.crm.associations.v4.batchApi.create('companies', 'deals', {
      inputs: [
        { _from: { id }, to: { id: deal }, types: [{ associationCategory: hubspotDefined, associationTypeId: 6 }] },
      ],
    });

    const read = await sdk.client.crm.associations.v4.batchApi.getPageWithHttpInfo('companies', 'deals', {
      inputs: [{ id }],
    });
    const fromDeals = await sdk.client.crm.associations.v4.batchApi.getPageWithHttpInfo('deals', 'companies', {
      inputs: [{ id: deal }, { id: lonely }],
    });

    expect(read.httpStatusCode).toBe(200);
    expect(read.data.results[0]?._from).toEqual({ id });
    expect(
      read.data.results[0]?.to.map((entry) => [
        String(entry.toObjectId),
        entry.associationTypes.map((type) => type.typeId),
      ]),
    ).toEqual([[deal, [6, 342]]]);
    expect(fromDeals.httpStatusCode).toBe(207);
    expect(fromDeals.data.results.map((result) => result.to.map((entry) => String(entry.toObjectId)))).toEqual([[id]]);
    expect(fromDeals.data.results[0]?.to[0]?.associationTypes.map((type) => type.typeId)).toEqual([5, 341]);
    expect('errors' in fromDeals.data && fromDeals.data.errors?.[0]?.subCategory).toBe(
      'crm.associations.NO_ASSOCIATIONS_FOUND',
    );
    expect('errors' in fromDeals.data && fromDeals.data.errors?.[0]?.context).toMatchObject({ fromObjectId: [lonely] });
  });

  it('archiveLabels (204) drops a label, archive (204) the pair, createDefault (200) adds the unlabeled type', async () => {
    const id = await companyId();
    const [ticket, other] = [await recordId('tickets'), await recordId('tickets')];
    await sdk.client.crm.associations.v4.batchApi.create('companies', 'tickets', {
      inputs: [
        { _from: { id }, to: { id: ticket }, types: [{ associationCategory: hubspotDefined, associationTypeId: 25 }] },
      ],
    });

    const labels = await sdk.client.crm.associations.v4.batchApi.archiveLabelsWithHttpInfo('companies', 'tickets', {
      inputs: [
        { _from: { id }, to: { id: ticket }, types: [{ associationCategory: hubspotDefined, associationTypeId: 25 }] },
      ],
    });
    const afterLabels = await sdk.client.crm.associations.v4.basicApi.getPage('companies', id, 'tickets');
    const archived = await sdk.client.crm.associations.v4.batchApi.archiveWithHttpInfo('companies', 'tickets', {
      inputs: [{ _from: { id }, to: [{ id: ticket }] }],
    });
    const afterArchive = await sdk.client.crm.associations.v4.basicApi.getPage('companies', id, 'tickets');
    const defaults = await sdk.client.crm.associations.v4.batchApi.createDefaultWithHttpInfo('companies', 'tickets', {
      inputs: [{ _from: { id }, to: { id: other } }],
    });

    expect(labels.httpStatusCode).toBe(204);
    expect(afterLabels.results[0]?.associationTypes.map((type) => type.typeId)).toEqual([340]);
    expect(archived.httpStatusCode).toBe(204);
    expect(afterArchive.results).toEqual([]);
    expect(defaults.httpStatusCode).toBe(200);
    expect(
      defaults.data.results.map((result) => [result._from.id, result.to.id, result.associationSpec.associationTypeId]),
    ).toEqual([
      [id, other, 340],
      [other, id, 339],
    ]);
  });
});
