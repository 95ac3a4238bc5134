import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/notes/models/Filter';
import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/notes/models/AssociationSpec';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../../shared/db/client';
import { recordKey } from '../../../shared/db/keys';
import { objectTypes } from '../../../shared/objects/object-types';
import { createRecord, crmClient, type CrmClient, type StoredTypeName } from '../../support/crm-client';
import { install } from '../../support/harness';
import { sdkError, useSdkClient, type SdkErrorJson as ErrorJson } from '../../support/sdk-client';

/** Activities, products and line items on the object engine, through the official SDK unchanged but for the base URL. */
const sdk = useSdkClient();
const timestamp = '2026-03-01T10:00:00.000Z';
const defined = AssociationSpecAssociationCategoryEnum.HubspotDefined;

describe.each([
  ['notes', { hs_note_body: 'Called about the renewal' }, 'hs_note_body'],
  ['calls', { hs_call_title: 'Renewal call', hs_call_direction: 'OUTBOUND' }, 'hs_call_title'],
  ['emails', { hs_email_subject: 'Renewal', hs_email_direction: 'EMAIL' }, 'hs_email_subject'],
  ['meetings', { hs_meeting_title: 'Kick-off', hs_meeting_outcome: 'SCHEDULED' }, 'hs_meeting_title'],
  ['tasks', { hs_task_subject: 'Send the quote', hs_task_status: 'NOT_STARTED' }, 'hs_task_subject'],
] as const)('crm.objects.%s', (typeName, properties, shown) => {
  const api = () => sdk.client.crm.objects[typeName];

  it('creates (201), reads, updates, lists, searches, batch-reads and archives (204)', async () => {
    const created = await api().basicApi.createWithHttpInfo({
      properties: { hs_timestamp: timestamp, ...properties },
      associations: [],
    });
    expect(created.httpStatusCode).toBe(201);
    const id = created.data.id;
    expect(created.data.properties).toMatchObject({ hs_timestamp: timestamp, hs_object_id: id, ...properties });

    const read = await api().basicApi.getById(id);
    expect(Object.keys(read.properties).sort()).toEqual(['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id']);
    expect(read.properties.hs_createdate).toBe(created.data.createdAt.toISOString());

    const updated = await api().basicApi.updateWithHttpInfo(id, { properties: { [shown]: 'Changed' } });
    expect(updated.httpStatusCode).toBe(200);
    expect(updated.data.properties[shown]).toBe('Changed');

    const page = await api().basicApi.getPage(100, undefined, [shown]);
    expect(page.results.find((record) => record.id === id)?.properties[shown]).toBe('Changed');

    const found = await api().searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: FilterOperatorEnum.Eq, value: id }] }],
      properties: [shown],
    });
    expect([found.total, found.results[0]?.properties[shown]]).toEqual([1, 'Changed']);

    const batch = await api().batchApi.readWithHttpInfo({
      inputs: [{ id }],
      properties: [shown],
      propertiesWithHistory: [],
    });
    expect(batch.httpStatusCode).toBe(200);
    expect(batch.data.results.map((record) => record.id)).toEqual([id]);

    const archived = await api().basicApi.archiveWithHttpInfo(id);
    expect(archived.httpStatusCode).toBe(204);
    expect((await sdkError(api().basicApi.getById(id))).code).toBe(404);
  });

  it('batch-creates (201) with the required properties', async () => {
    const created = await api().batchApi.createWithHttpInfo({
      inputs: [1, 2].map((index) => ({
        properties: { hs_timestamp: timestamp, ...properties },
        associations: [],
        objectWriteTraceId: `t${index}`,
      })),
    });
    expect(created.httpStatusCode).toBe(201);
    expect(created.data.results).toHaveLength(2);
  });

  it('refuses a create without hs_timestamp: 400 VALIDATION_ERROR naming it', async () => {
    const { code, body } = await sdkError(api().basicApi.create({ properties: { ...properties }, associations: [] }));

    expect(code).toBe(400);
    expect(body.category).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(body)).toContain('hs_timestamp');
  });
});

describe('activity rules', () => {
  const api = (): CrmClient => sdk.api;

  it('refuses an email without hs_email_direction, naming it', async () => {
    const response = await api().post<ErrorJson>('/crm/v3/objects/emails', { properties: { hs_timestamp: timestamp } });

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('hs_email_direction');
  });

  it.each([
    ['tasks', 'hs_task_status', 'STARTED'],
    ['tasks', 'hs_task_priority', 'URGENT'],
    ['tasks', 'hs_task_type', 'MEETING'],
    ['meetings', 'hs_meeting_outcome', 'POSTPONED'],
    ['calls', 'hs_call_direction', 'SIDEWAYS'],
    ['emails', 'hs_email_direction', 'OUTGOING'],
  ])('refuses a value outside the %s enumeration %s: 400 naming it', async (typeName, name, value) => {
    const properties: Record<string, string> = { hs_timestamp: timestamp, [name]: value };
    if (typeName === 'emails' && name !== 'hs_email_direction') properties.hs_email_direction = 'EMAIL';
    const response = await api().post<ErrorJson>(`/crm/v3/objects/${typeName}`, { properties });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
    expect(response.body.errors?.map((error) => [error.in, error.code])).toEqual([[name, 'INVALID_OPTION']]);
  });

  it('associates a note with a contact on both ends (contact to note 201, note to contact 202)', async () => {
    const contact = await createRecord(api(), 'contacts');
    const note = await sdk.client.crm.objects.notes.basicApi.create({
      properties: { hs_timestamp: timestamp, hs_note_body: 'x' },
      associations: [{ to: { id: contact }, types: [{ associationCategory: defined, associationTypeId: 202 }] }],
    });

    const fromContact = await api().get<{ results: { toObjectId: number; associationTypes: { typeId: number }[] }[] }>(
      `/crm/v4/objects/contacts/${contact}/associations/notes`,
    );
    const fromNote = await api().get<{ results: { toObjectId: number; associationTypes: { typeId: number }[] }[] }>(
      `/crm/v4/objects/notes/${note.id}/associations/contacts`,
    );

    expect(fromContact.body.results).toEqual([
      { toObjectId: Number(note.id), associationTypes: [expect.objectContaining({ typeId: 201 })] },
    ]);
    expect(fromNote.body.results).toEqual([
      { toObjectId: Number(contact), associationTypes: [expect.objectContaining({ typeId: 202 })] },
    ]);
  });

  it('refuses an association with an activity that does not exist (400 INVALID_OBJECT_IDS)', async () => {
    const contact = await createRecord(api(), 'contacts');
    const response = await api().put<ErrorJson>(
      `/crm/v4/objects/contacts/${contact}/associations/notes/1000000000000999`,
      [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 201 }],
    );

    expect(response.status).toBe(400);
    expect(response.body.context?.INVALID_OBJECT_IDS).toEqual(['NOTE=1000000000000999 is not valid']);
  });
});

/** The record-to-note type of each record type (HUBSPOT-WIRE-FACTS-3 table 7.2). */
const toNote: Record<'companies' | 'contacts' | 'deals' | 'tickets', number> = {
  companies: 189,
  contacts: 201,
  deals: 213,
  tickets: 227,
};

describe.each(Object.keys(toNote) as (keyof typeof toNote)[])('pinning an activity on %s', (typeName) => {
  const api = (): CrmClient => sdk.api;
  const pin = (id: string, note: string) =>
    api().patch<ErrorJson & { properties?: Record<string, string | null> }>(`/crm/v3/objects/${typeName}/${id}`, {
      properties: { hs_pinned_engagement_id: note },
    });
  const pinned = async (id: string) =>
    (
      await api().get<{ properties: Record<string, string | null> }>(
        `/crm/v3/objects/${typeName}/${id}?properties=hs_pinned_engagement_id`,
      )
    ).body.properties.hs_pinned_engagement_id;
  const associate = (id: string, note: string) =>
    api().put(`/crm/v4/objects/${typeName}/${id}/associations/notes/${note}`, [
      { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: toNote[typeName] },
    ]);

  it('refuses a pin of an activity not associated with the record: 400 naming hs_pinned_engagement_id', async () => {
    const [id, note] = [await createRecord(api(), typeName), await createRecord(api(), 'notes')];

    const response = await pin(id, note);

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.context?.propertyName).toEqual(['hs_pinned_engagement_id']);
  });

  it('pins an associated activity, and archiving the activity clears the pin', async () => {
    const [id, note] = [await createRecord(api(), typeName), await createRecord(api(), 'notes')];
    await associate(id, note);

    expect((await pin(id, note)).status).toBe(200);
    expect(await pinned(id)).toBe(note);

    expect((await api().delete(`/crm/v3/objects/notes/${note}`)).status).toBe(204);
    expect(await pinned(id)).toBeNull();
    const search = await api().post<{ total: number }>(`/crm/v3/objects/${typeName}/search`, {
      filterGroups: [{ filters: [{ propertyName: 'hs_pinned_engagement_id', operator: 'EQ', value: note }] }],
    });
    expect(search.body.total).toBe(0);
  });

  it('pins an activity associated in the same create, and removing the association from the note side clears it', async () => {
    const note = await createRecord(api(), 'notes');
    const created = await api().post<{ id: string; properties: Record<string, string> }>(
      `/crm/v3/objects/${typeName}`,
      {
        properties: { ...(await sampleProperties(typeName)), hs_pinned_engagement_id: note },
        associations: [
          {
            to: { id: note },
            types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: toNote[typeName] }],
          },
        ],
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.properties.hs_pinned_engagement_id).toBe(note);

    expect(
      (await api().delete(`/crm/v4/objects/notes/${note}/associations/${typeName}/${created.body.id}`)).status,
    ).toBe(204);
    expect(await pinned(created.body.id)).toBeNull();
  });
});

/** The properties a create of the type needs, with values no other record has. */
async function sampleProperties(typeName: StoredTypeName): Promise<Record<string, string>> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  if (typeName === 'contacts') return { email: `pin${suffix}@records.example` };
  if (typeName === 'deals') return { dealname: `Deal ${suffix}`, dealstage: 'appointmentscheduled' };
  if (typeName === 'tickets') return { subject: `Ticket ${suffix}`, hs_pipeline_stage: '1' };
  return { name: `Company ${suffix}` };
}

describe('crm.products and crm.lineItems', () => {
  const api = (): CrmClient => sdk.api;

  it('creates a product (201) and reads, searches and batch-reads it', async () => {
    const created = await sdk.client.crm.products.basicApi.createWithHttpInfo({
      properties: { name: 'Widget', price: '25', hs_sku: 'W-1', description: 'A widget' },
    });
    expect(created.httpStatusCode).toBe(201);
    const read = await sdk.client.crm.products.basicApi.getById(created.data.id);
    expect(read.properties).toMatchObject({ name: 'Widget', price: '25', description: 'A widget' });
    const found = await sdk.client.crm.products.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'hs_object_id', operator: FilterOperatorEnum.Eq, value: created.data.id }] },
      ],
    });
    expect(found.total).toBe(1);
    const batch = await sdk.client.crm.products.batchApi.read({
      inputs: [{ id: created.data.id }],
      properties: [],
      propertiesWithHistory: [],
    });
    expect(batch.results.map((record) => record.id)).toEqual([created.data.id]);
  });

  it("gives a line item made from a product the product's name, price and SKU unless it sends its own", async () => {
    const product = await sdk.client.crm.products.basicApi.create({
      properties: { name: 'Gadget', price: '40', hs_sku: 'G-1' },
    });

    const copied = await sdk.client.crm.lineItems.basicApi.createWithHttpInfo({
      properties: { hs_product_id: product.id, quantity: '2' },
      associations: [],
    });
    const own = await sdk.client.crm.lineItems.basicApi.create({
      properties: { hs_product_id: product.id, quantity: '1', price: '35', name: 'Gadget (discounted)' },
      associations: [],
    });

    expect(copied.httpStatusCode).toBe(201);
    expect(copied.data.properties).toMatchObject({
      name: 'Gadget',
      price: '40',
      quantity: '2',
      hs_product_id: product.id,
    });
    const sku = await sdk.client.crm.lineItems.basicApi.getById(copied.data.id, ['hs_sku']);
    expect(sku.properties.hs_sku).toBe('G-1');
    expect(own.properties).toMatchObject({ name: 'Gadget (discounted)', price: '35' });
  });

  it('refuses a line item naming a product that does not exist: 400 naming hs_product_id', async () => {
    const response = await api().post<ErrorJson>('/crm/v3/objects/line_items', {
      properties: { hs_product_id: '1000000000000999', quantity: '1' },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.in)).toEqual(['hs_product_id']);
  });

  it.each(['products', 'line_items'])(
    'refuses a negative price on %s: 400 VALIDATION_ERROR naming price',
    async (typeName) => {
      const created = await api().post<ErrorJson>(`/crm/v3/objects/${typeName}`, {
        properties: { name: 'x', price: '-1' },
      });
      const id = await createRecord(api(), typeName as StoredTypeName);
      const updated = await api().patch<ErrorJson>(`/crm/v3/objects/${typeName}/${id}`, {
        properties: { price: '-0.5' },
      });

      for (const response of [created, updated]) {
        expect(response.status).toBe(400);
        expect(response.body.category).toBe('VALIDATION_ERROR');
        expect(response.body.errors?.map((error) => error.in)).toEqual(['price']);
      }
    },
  );

  it('associates a line item with one deal (deal to line item 19, line item to deal 20); a second deal answers 400 from either side', async () => {
    const [first, second] = [await createRecord(api(), 'deals'), await createRecord(api(), 'deals')];
    const item = await createRecord(api(), 'line_items');
    const spec = (typeId: number) => [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: typeId }];

    expect((await api().put(`/crm/v4/objects/deals/${first}/associations/line_items/${item}`, spec(19))).status).toBe(
      201,
    );
    const fromDeal = await api().put<ErrorJson>(
      `/crm/v4/objects/deals/${second}/associations/line_items/${item}`,
      spec(19),
    );
    const fromItem = await api().put<ErrorJson>(
      `/crm/v4/objects/line_items/${item}/associations/deals/${second}`,
      spec(20),
    );
    const inline = await api().post<ErrorJson>('/crm/v3/objects/line_items', {
      properties: { name: 'Two deals' },
      associations: [first, second].map((deal) => ({ to: { id: deal }, types: spec(20) })),
    });

    for (const response of [fromDeal, fromItem, inline]) {
      expect(response.status).toBe(400);
      expect(response.body.category).toBe('VALIDATION_ERROR');
      expect(response.body.errors?.[0]?.code).toBe('TOO_MANY_ASSOCIATIONS');
    }
    const items = await api().get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/line_items/${item}/associations/deals`,
    );
    expect(items.body.results.map((result) => String(result.toObjectId))).toEqual([first]);
    // Moving it: remove from the first deal, then the second may take it.
    expect((await api().delete(`/crm/v4/objects/deals/${first}/associations/line_items/${item}`)).status).toBe(204);
    expect((await api().put(`/crm/v4/objects/deals/${second}/associations/line_items/${item}`, spec(19))).status).toBe(
      201,
    );
  });
});

describe('scopes of products and line items', () => {
  const { gateway } = sdk;

  it('serve a token with e-commerce, or the granular scope, and refuse one with neither (403 MISSING_SCOPES)', async () => {
    const granular = await install(gateway, { scopes: ['oauth', 'crm.objects.products.read'] });
    const contactsOnly = await install(gateway, { scopes: ['oauth', 'crm.objects.contacts.read'] });

    const allowed = await crmClient(gateway, granular.accessToken).get('/crm/v3/objects/products');
    const refused = await crmClient(gateway, contactsOnly.accessToken).get<
      ErrorJson & { errors?: { context?: Record<string, string[]> }[] }
    >('/crm/v3/objects/line_items');

    expect(allowed.status).toBe(200);
    expect(refused.status).toBe(403);
    expect(refused.body.category).toBe('MISSING_SCOPES');
    expect(refused.body.errors?.[0]?.context?.requiredGranularScopes).toEqual([
      'crm.objects.line_items.read',
      'e-commerce',
    ]);
  });
});

describe('one deal per line item, through the batch routes', () => {
  const api = (): CrmClient => sdk.api;
  const spec = (typeId: number) => [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: typeId }];

  it('refuses the second deal of a v4 batch create as an error of its input (207) and keeps the first', async () => {
    const [first, second] = [await createRecord(api(), 'deals'), await createRecord(api(), 'deals')];
    const item = await createRecord(api(), 'line_items');

    const response = await api().post<{ results: unknown[]; errors?: ErrorJson[] }>(
      '/crm/v4/associations/deals/line_items/batch/create',
      {
        inputs: [first, second].map((deal) => ({ from: { id: deal }, to: { id: item }, types: spec(19) })),
      },
    );
    const held = await api().get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/line_items/${item}/associations/deals`,
    );

    expect(response.status).toBe(207);
    expect(response.body.results).toHaveLength(1);
    expect(response.body.errors).toHaveLength(1);
    expect(held.body.results).toHaveLength(1);
  });

  it('refuses a deal created with a line item another deal holds (400, nothing written)', async () => {
    const first = await createRecord(api(), 'deals');
    const item = await createRecord(api(), 'line_items');
    await api().put(`/crm/v4/objects/deals/${first}/associations/line_items/${item}`, spec(19));

    const response = await api().post<ErrorJson>('/crm/v3/objects/deals', {
      properties: { dealname: 'Second', dealstage: 'appointmentscheduled' },
      associations: [{ to: { id: item }, types: spec(19) }],
    });
    const held = await api().get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/line_items/${item}/associations/deals`,
    );

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.code).toBe('TOO_MANY_ASSOCIATIONS');
    expect(held.body.results.map((result) => String(result.toObjectId))).toEqual([first]);
  });
});

describe('one deal per line item, from the line item side of a batch', () => {
  it('keeps the first deal of a line item given two in one v4 batch, the second an error of its input (207)', async () => {
    const api = sdk.api;
    const [first, second] = [await createRecord(api, 'deals'), await createRecord(api, 'deals')];
    const item = await createRecord(api, 'line_items');

    const response = await api.post<{ results: unknown[]; errors?: ErrorJson[] }>(
      '/crm/v4/associations/line_items/deals/batch/create',
      {
        inputs: [first, second].map((deal) => ({
          from: { id: item },
          to: { id: deal },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 20 }],
        })),
      },
    );
    const held = await api.get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/line_items/${item}/associations/deals`,
    );

    expect(response.status).toBe(207);
    expect(response.body.errors?.map((error) => error.message)).toEqual([
      `Line item ${item} is already associated with deal ${first}: a line item may be associated with one deal`,
    ]);
    expect(held.body.results.map((result) => String(result.toObjectId))).toEqual([first]);
  });
});

describe('an association whose other record is gone (kept from before that type was stored)', () => {
  /** Removes the note's item behind the API's back, as a record an older version never stored. */
  async function forgetNote(hubId: number, note: string): Promise<void> {
    const notes = objectTypes.find((type) => type.name === 'notes');
    if (!notes) throw new Error('no notes type');
    await db.send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: recordKey(notes, hubId, note) }));
  }

  it('lets the record lose it (204) and be archived (204): there is nothing to remove on the other side', async () => {
    const installed = await install(sdk.gateway);
    const api = crmClient(sdk.gateway, installed.accessToken);
    const [kept, archived] = [await createRecord(api, 'companies'), await createRecord(api, 'companies')];
    const [first, second] = [await createRecord(api, 'notes'), await createRecord(api, 'notes')];
    const spec = [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 189 }];
    await api.put(`/crm/v4/objects/companies/${kept}/associations/notes/${first}`, spec);
    await api.put(`/crm/v4/objects/companies/${archived}/associations/notes/${second}`, spec);
    await forgetNote(installed.hubId, first);
    await forgetNote(installed.hubId, second);

    const removed = await api.delete(`/crm/v4/objects/companies/${kept}/associations/notes/${first}`);
    const archive = await api.delete(`/crm/v3/objects/companies/${archived}`);
    const page = await api.get<{ results: unknown[] }>(`/crm/v4/objects/companies/${kept}/associations/notes`);

    expect([removed.status, archive.status]).toEqual([204, 204]);
    expect(page.body.results).toEqual([]);
  });
});

describe('computed values', () => {
  const api = (): CrmClient => sdk.api;

  it("computes an activity's hs_body_preview from its body: plain text, one line, at most 200 characters", async () => {
    const created = await api().post<{ id: string }>('/crm/v3/objects/notes', {
      properties: {
        hs_timestamp: timestamp,
        hs_note_body: `<p>Called <b>Ada</b></p>\n<p>about the ${'x'.repeat(300)}</p>`,
      },
    });
    const read = await api().get<{ properties: Record<string, string | null> }>(
      `/crm/v3/objects/notes/${created.body.id}?properties=hs_body_preview`,
    );

    expect(read.body.properties.hs_body_preview).toBe(`Called Ada about the ${'x'.repeat(179)}`);
    const refused = await api().patch<ErrorJson>(`/crm/v3/objects/notes/${created.body.id}`, {
      properties: { hs_body_preview: 'mine' },
    });
    expect(refused.status).toBe(400);
  });

  it("computes a line item's amount (quantity times the unit price after its discount) and searches by it", async () => {
    const plain = await api().post<{ id: string }>('/crm/v3/objects/line_items', {
      properties: { name: 'Plain', price: '10', quantity: '3' },
    });
    const discounted = await api().post<{ id: string }>('/crm/v3/objects/line_items', {
      properties: { name: 'Discounted', price: '10', quantity: '3', discount: '1' },
    });
    const percent = await api().post<{ id: string }>('/crm/v3/objects/line_items', {
      properties: { name: 'Percent', price: '10', quantity: '3', hs_discount_percentage: '10' },
    });
    const amountOf = async (id: string) =>
      (
        await api().get<{ properties: Record<string, string | null> }>(
          `/crm/v3/objects/line_items/${id}?properties=amount`,
        )
      ).body.properties.amount;

    expect([
      await amountOf(plain.body.id),
      await amountOf(discounted.body.id),
      await amountOf(percent.body.id),
    ]).toEqual(['30', '27', '27']);
    const found = await api().post<{ results: { id: string }[] }>('/crm/v3/objects/line_items/search', {
      filterGroups: [
        {
          filters: [
            { propertyName: 'amount', operator: 'EQ', value: '27' },
            {
              propertyName: 'hs_object_id',
              operator: 'IN',
              values: [plain.body.id, discounted.body.id, percent.body.id],
            },
          ],
        },
      ],
    });
    expect(found.body.results.map((result) => result.id).sort()).toEqual([discounted.body.id, percent.body.id].sort());
  });
});
