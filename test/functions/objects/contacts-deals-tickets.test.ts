import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/contacts/models/Filter';
import { dynamoCallCounter } from '../../../shared/db/client';
import { crmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';
import { sdkError, useSdkClient } from '../../support/sdk-client';

/** Contacts, deals and tickets on the object engine, through the official SDK unchanged but for the base URL. */
const sdk = useSdkClient();
const email = () => `${unique('person')}@Example.com`;

describe('crm.contacts', () => {
  it('creates (201), reads by id and by email (idProperty=email, the @ percent-encoded), and finds by email', async () => {
    const address = email();
    const created = await sdk.client.crm.contacts.basicApi.createWithHttpInfo({
      properties: { email: address, firstname: 'Ada', lastname: 'Lovelace' },
      associations: [],
    });

    expect(created.httpStatusCode).toBe(201);
    expect(created.data.properties).toMatchObject({
      email: address.toLowerCase(),
      firstname: 'Ada',
      hs_object_id: created.data.id,
      // Created without a lifecycle stage: a lead, as HubSpot answers an app's create.
      lifecyclestage: 'lead',
    });
    expect(created.data.properties.lastmodifieddate).toBe(created.data.updatedAt.toISOString());
    const dates = await sdk.client.crm.contacts.basicApi.getById(created.data.id, [
      'hs_lastmodifieddate',
      'hs_createdate',
      'lastmodifieddate',
    ]);
    expect(dates.properties).toMatchObject({
      hs_lastmodifieddate: created.data.updatedAt.toISOString(),
      lastmodifieddate: created.data.updatedAt.toISOString(),
      hs_createdate: created.data.createdAt.toISOString(),
    });
    const byEmail = await sdk.client.crm.contacts.basicApi.getById(
      address,
      undefined,
      undefined,
      undefined,
      false,
      'email',
    );
    expect(byEmail.id).toBe(created.data.id);
    expect(Object.keys(byEmail.properties).sort()).toEqual([
      'createdate',
      'email',
      'firstname',
      'hs_object_id',
      'lastmodifieddate',
      'lastname',
    ]);
    const found = await sdk.client.crm.contacts.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'email', operator: FilterOperatorEnum.Eq, value: address.toUpperCase() }] },
      ],
    });
    expect(found.results.map((record) => record.id)).toEqual([created.data.id]);
  });

  it('answers a duplicate email, whatever its case, with HubSpot exact 409 body, on create and on update', async () => {
    const address = email();
    const first = await sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] });
    const second = await sdk.client.crm.contacts.basicApi.create({
      properties: { firstname: 'Other' },
      associations: [],
    });

    const onCreate = await sdk.client.crm.contacts.basicApi
      .create({ properties: { email: address.toUpperCase() }, associations: [] })
      .catch((error: { code: number; body: unknown }) => error);
    const onUpdate = await sdk.client.crm.contacts.basicApi
      .update(second.id, { properties: { email: address } })
      .catch((error: { code: number; body: unknown }) => error);

    for (const error of [onCreate, onUpdate]) {
      expect(error).toMatchObject({ code: 409 });
      const body = (error as { body: Record<string, unknown> }).body;
      expect(Object.keys(body).sort()).toEqual(['category', 'correlationId', 'message', 'status']);
      expect(body).toMatchObject({
        status: 'error',
        category: 'CONFLICT',
        message: `Contact already exists. Existing ID: ${first.id}`,
      });
    }
  });

  it('answers a batch create or update naming a taken email with the whole-request 409, writing nothing', async () => {
    const address = email();
    const holder = await sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] });
    const other = await sdk.client.crm.contacts.basicApi.create({
      properties: { firstname: 'Other' },
      associations: [],
    });
    const fresh = email();

    const created = await sdk.client.crm.contacts.batchApi
      .create({
        inputs: [
          { properties: { email: fresh }, associations: [] },
          { properties: { email: address.toUpperCase() }, associations: [] },
        ],
      })
      .catch((error: { code: number; body: unknown }) => error);
    const updated = await sdk.client.crm.contacts.batchApi
      .update({ inputs: [{ id: other.id, properties: { email: address } }] })
      .catch((error: { code: number; body: unknown }) => error);
    const twice = await sdk.client.crm.contacts.batchApi
      .create({
        inputs: [
          { properties: { email: fresh }, associations: [] },
          { properties: { email: fresh }, associations: [] },
        ],
      })
      .catch((error: { code: number; body: unknown }) => error);

    for (const error of [created, updated]) {
      expect(error).toMatchObject({
        code: 409,
        body: { status: 'error', category: 'CONFLICT', message: `Contact already exists. Existing ID: ${holder.id}` },
      });
    }
    expect(twice).toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { email: [fresh.toLowerCase()] } },
    });
    await expect(
      sdk.client.crm.contacts.basicApi.getById(fresh, undefined, undefined, undefined, false, 'email'),
    ).rejects.toMatchObject({ code: 404 });
  });

  it('holds each additional email as unique as the email, and refuses an address that is none', async () => {
    const address = email();
    const first = await sdk.client.crm.contacts.basicApi.create({
      properties: { email: email(), hs_additional_emails: address },
      associations: [],
    });

    await expect(
      sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] }),
    ).rejects.toMatchObject({ code: 409, body: { message: `Contact already exists. Existing ID: ${first.id}` } });
    await expect(
      sdk.client.crm.contacts.basicApi.create({ properties: { email: 'not an address' }, associations: [] }),
    ).rejects.toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_EMAIL', context: { propertyName: ['email'] } }] },
    });
  });

  it('merges two contacts (200): a new record holding both emails, the old ids reading as it', async () => {
    const [a, b] = [email(), email()];
    const primary = await sdk.client.crm.contacts.basicApi.create({ properties: { email: a }, associations: [] });
    const secondary = await sdk.client.crm.contacts.basicApi.create({ properties: { email: b }, associations: [] });

    const merged = await sdk.client.crm.contacts.basicApi.merge({
      primaryObjectId: primary.id,
      objectIdToMerge: secondary.id,
    });
    const read = await sdk.client.crm.contacts.basicApi.getById(secondary.id, ['email', 'hs_additional_emails']);

    expect(merged.id).not.toBe(primary.id);
    expect(read.id).toBe(merged.id);
    expect(read.properties).toMatchObject({ email: a.toLowerCase(), hs_additional_emails: b.toLowerCase() });
    // The merge answers with the contact's default properties that have a value (its modified date is
    // lastmodifieddate, a company's hs_lastmodifieddate), not another type's.
    expect(merged.properties).toMatchObject({ email: a.toLowerCase(), hs_object_id: merged.id });
    expect(Object.keys(merged.properties)).toEqual(expect.arrayContaining(['createdate', 'lastmodifieddate']));
    expect(Object.keys(merged.properties)).not.toContain('hs_lastmodifieddate');
  });

  it('batch-creates (201) and batch-reads by email (200)', async () => {
    const addresses = [email(), email()];
    const created = await sdk.client.crm.contacts.batchApi.createWithHttpInfo({
      inputs: addresses.map((address) => ({ properties: { email: address }, associations: [] })),
    });
    const read = await sdk.client.crm.contacts.batchApi.read({
      idProperty: 'email',
      inputs: addresses.map((id) => ({ id })),
      properties: ['email'],
      propertiesWithHistory: [],
    });

    expect(created.httpStatusCode).toBe(201);
    expect(read.results.map((record) => record.properties.email).sort()).toEqual(
      addresses.map((address) => address.toLowerCase()).sort(),
    );
  });

  it('purges a contact for good (204): gone, archived or not, its email free again, its companies rid of it', async () => {
    const address = email();
    const contact = await sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] });
    const company = await sdk.client.crm.companies.basicApi.create({
      properties: { name: unique('Purged from') },
      associations: [],
    });
    await sdk.client.crm.associations.v4.basicApi.createDefault('companies', company.id, 'contacts', contact.id);

    const purged = await sdk.client.crm.contacts.basicApi.purgeWithHttpInfo({ objectId: contact.id });

    expect(purged.httpStatusCode).toBe(204);
    await expect(sdk.client.crm.contacts.basicApi.getById(contact.id)).rejects.toMatchObject({ code: 404 });
    await expect(
      sdk.client.crm.contacts.basicApi.getById(contact.id, undefined, undefined, undefined, true),
    ).rejects.toMatchObject({ code: 404 });
    const read = await sdk.client.crm.companies.basicApi.getById(company.id, undefined, undefined, ['contacts']);
    expect(read.associations).toBeUndefined();
    const again = await sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] });
    expect(again.properties.email).toBe(address.toLowerCase());
    await expect(sdk.client.crm.contacts.basicApi.purge({ objectId: '1000000000000123' })).rejects.toMatchObject({
      code: 404,
    });
  });

  it('blocklists an email no contact holds (204): a later create or update with it answers 400 naming email', async () => {
    const address = email();
    const other = await sdk.client.crm.contacts.basicApi.create({
      properties: { firstname: 'Later' },
      associations: [],
    });

    const purged = await sdk.client.crm.contacts.basicApi.purgeWithHttpInfo({ objectId: address, idProperty: 'email' });

    expect(purged.httpStatusCode).toBe(204);
    // One call at a time: a call started before the previous one's rejection is awaited would reject unhandled.
    for (const attempt of [
      () => sdk.client.crm.contacts.basicApi.create({ properties: { email: address.toUpperCase() }, associations: [] }),
      () => sdk.client.crm.contacts.basicApi.update(other.id, { properties: { email: address } }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: 400,
        body: { category: 'VALIDATION_ERROR', errors: [{ context: { propertyName: ['email'] } }] },
      });
    }
    await expect(
      sdk.client.crm.contacts.basicApi.getById(address, undefined, undefined, undefined, false, 'email'),
    ).rejects.toMatchObject({ code: 404 });
  });

  it('updates by email (PATCH ?idProperty=email) and upserts by email (batch/upsert, 200)', async () => {
    const address = email();
    const contact = await sdk.client.crm.contacts.basicApi.create({ properties: { email: address }, associations: [] });
    const fresh = email();

    const updated = await sdk.client.crm.contacts.basicApi.update(
      address,
      { properties: { jobtitle: 'Admiral' } },
      'email',
    );
    const upserted = await sdk.client.crm.contacts.batchApi.upsertWithHttpInfo({
      inputs: [
        { id: address, idProperty: 'email', properties: { city: 'Arlington' } },
        { id: fresh, idProperty: 'email', properties: { firstname: 'New' } },
      ],
    });

    expect(updated).toMatchObject({ id: contact.id, properties: { jobtitle: 'Admiral' } });
    expect(upserted.httpStatusCode).toBe(200);
    const byId = new Map(upserted.data.results.map((record) => [record.properties.email, record]));
    expect(byId.get(address.toLowerCase())).toMatchObject({ id: contact.id, _new: false });
    expect(byId.get(fresh.toLowerCase())).toMatchObject({ _new: true });
  });

  it('serves the contact properties and groups (crm.properties)', async () => {
    const properties = await sdk.client.crm.properties.coreApi.getAll('contacts');
    const groups = await sdk.client.crm.properties.groupsApi.getAll('0-1');

    expect(properties.results.map((property) => property.name)).toEqual(
      expect.arrayContaining(['email', 'firstname', 'lastname', 'lifecyclestage', 'hs_additional_emails']),
    );
    expect(groups.results.map((group) => group.name)).toContain('contactinformation');
  });
});

describe('crm.deals', () => {
  it('creates a deal (201) in the default pipeline when it names none, and searches it by query', async () => {
    const name = unique('Deal');
    const created = await sdk.client.crm.deals.basicApi.createWithHttpInfo({
      properties: { dealname: name, dealstage: 'appointmentscheduled', amount: '1500.00' },
      associations: [],
    });
    const found = await sdk.client.crm.deals.searchApi.doSearch({ query: name, properties: ['pipeline'] });

    expect(created.httpStatusCode).toBe(201);
    expect(created.data.properties).toMatchObject({ dealname: name, pipeline: 'default', amount: '1500.00' });
    expect(found.results.map((record) => [record.id, record.properties.pipeline])).toEqual([
      [created.data.id, 'default'],
    ]);
  });

  it.each([
    [{ dealstage: 'appointmentscheduled' }, 'dealname', 'REQUIRED_PROPERTY'],
    [{ dealname: 'No stage' }, 'dealstage', 'REQUIRED_PROPERTY'],
    [{ dealname: 'Bad stage', dealstage: 'registered' }, 'dealstage', 'INVALID_OPTION'],
    [{ dealname: 'Bad pipeline', dealstage: 'closedwon', pipeline: 'nope' }, 'pipeline', 'INVALID_OPTION'],
    [{ dealname: 'Bad amount', dealstage: 'closedwon', amount: 'a lot' }, 'amount', undefined],
    [
      { dealname: 'Bad owner', dealstage: 'closedwon', hubspot_owner_id: '999999999' },
      'hubspot_owner_id',
      'INVALID_OWNER_ID',
    ],
  ])('refuses %j with 400 VALIDATION_ERROR naming %s', async (properties, name, code) => {
    const error = await sdk.client.crm.deals.basicApi
      .create({ properties, associations: [] })
      .catch(
        (caught: { code: number; body: { category: string; errors?: { code: string; context?: unknown }[] } }) =>
          caught,
      );

    expect(error).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
    const errors = (error as { body: { errors: { code: string; context: { propertyName: string[] } }[] } }).body.errors;
    expect(errors.map((entry) => entry.context.propertyName[0])).toContain(name);
    if (code) expect(errors.map((entry) => entry.code)).toContain(code);
  });

  it('takes an owner of the account as hubspot_owner_id, and moves a deal to another stage of its pipeline only', async () => {
    const [owner] = (await sdk.client.crm.owners.ownersApi.getPage()).results;
    const deal = await sdk.client.crm.deals.basicApi.create({
      properties: { dealname: unique('Owned'), dealstage: 'qualifiedtobuy', hubspot_owner_id: owner?.id ?? '' },
      associations: [],
    });

    const moved = await sdk.client.crm.deals.basicApi.update(deal.id, { properties: { dealstage: 'closedwon' } });

    expect(moved.properties.dealstage).toBe('closedwon');
    await expect(
      sdk.client.crm.deals.basicApi.update(deal.id, { properties: { dealstage: '1' } }),
    ).rejects.toMatchObject({ code: 400, body: { errors: [{ code: 'INVALID_OPTION' }] } });
    await expect(sdk.client.crm.deals.basicApi.update(deal.id, { properties: { dealname: '' } })).rejects.toMatchObject(
      { code: 400, body: { errors: [{ code: 'REQUIRED_PROPERTY' }] } },
    );
  });
});

describe('crm.tickets', () => {
  it('creates a ticket (201) in pipeline "0" when it names none, reads it through crm.objects by type id', async () => {
    const created = await sdk.client.crm.tickets.basicApi.createWithHttpInfo({
      properties: { subject: unique('Printer'), hs_pipeline_stage: '1' },
      associations: [],
    });
    const read = await sdk.client.crm.objects.basicApi.getById('0-5', created.data.id);

    expect(created.httpStatusCode).toBe(201);
    expect(created.data.properties).toMatchObject({ hs_pipeline: '0', hs_pipeline_stage: '1' });
    expect(read.properties).toMatchObject({
      hs_pipeline: '0',
      hs_pipeline_stage: '1',
      subject: created.data.properties.subject,
    });
    expect(Object.keys(read.properties)).toEqual(expect.arrayContaining(['hs_lastmodifieddate', 'hs_ticket_priority']));
  });

  it('refuses a stage of no pipeline, and a ticket without a subject', async () => {
    await expect(
      sdk.client.crm.tickets.basicApi.create({
        properties: { subject: 'x', hs_pipeline_stage: '9' },
        associations: [],
      }),
    ).rejects.toMatchObject({
      code: 400,
      body: { errors: [{ code: 'INVALID_OPTION', context: { propertyName: ['hs_pipeline_stage'] } }] },
    });
    await expect(
      sdk.client.crm.tickets.basicApi.create({ properties: { hs_pipeline_stage: '1' }, associations: [] }),
    ).rejects.toMatchObject({
      code: 400,
      body: { errors: [{ code: 'REQUIRED_PROPERTY', context: { propertyName: ['subject'] } }] },
    });
  });

  it('keeps each type apart: a ticket id is no contact, and lists hold their own type only', async () => {
    const ticket = await sdk.client.crm.tickets.basicApi.create({
      properties: { subject: unique('Apart'), hs_pipeline_stage: '2' },
      associations: [],
    });

    await expect(sdk.client.crm.contacts.basicApi.getById(ticket.id)).rejects.toMatchObject({ code: 404 });
    const contacts = await sdk.client.crm.contacts.basicApi.getPage(100);
    expect(contacts.results.map((record) => record.id)).not.toContain(ticket.id);
  });
});

describe('batch, merge and properties of deals and tickets, and crm.objects by type id', () => {
  it('reads the pipelines once for a batch of 20 deals, and writes them in two transactions', async () => {
    dynamoCallCounter.reset();

    const created = await sdk.client.crm.deals.batchApi.createWithHttpInfo({
      inputs: Array.from({ length: 20 }, (_unused, index) => ({
        properties: { dealname: unique(`Counted ${index}`), dealstage: 'contractsent' },
        associations: [],
      })),
    });

    expect(created.httpStatusCode).toBe(201);
    // Four items a deal (record, projection, two ordered-index keys) and a count: two groups of at most 50 items.
    expect(dynamoCallCounter.callsApartFromRetries()).toMatchObject({
      QueryCommand: 1,
      TransactWriteItemsCommand: 2,
    });
    expect(dynamoCallCounter.calls.get('GetItemCommand') ?? 0).toBeLessThanOrEqual(2);
  });

  it('batch-creates (201), batch-updates (200) and batch-archives (204) deals; merges two (200)', async () => {
    const created = await sdk.client.crm.deals.batchApi.createWithHttpInfo({
      inputs: [1, 2, 3].map((index) => ({
        properties: { dealname: unique(`Batch ${index}`), dealstage: 'appointmentscheduled' },
        associations: [],
      })),
    });
    const [first, second, third] = created.data.results.map((record) => record.id);
    const updated = await sdk.client.crm.deals.batchApi.updateWithHttpInfo({
      inputs: [{ id: first ?? '', properties: { dealstage: 'closedwon' } }],
    });
    const merged = await sdk.client.crm.deals.basicApi.mergeWithHttpInfo({
      primaryObjectId: first ?? '',
      objectIdToMerge: second ?? '',
    });
    const archived = await sdk.client.crm.deals.batchApi.archiveWithHttpInfo({ inputs: [{ id: third ?? '' }] });

    expect([created.httpStatusCode, updated.httpStatusCode, merged.httpStatusCode, archived.httpStatusCode]).toEqual([
      201, 200, 200, 204,
    ]);
    expect(updated.data.results[0]?.properties.dealstage).toBe('closedwon');
    expect(merged.data.properties.dealstage).toBe('closedwon');
    await expect(sdk.client.crm.deals.basicApi.getById(third ?? '')).rejects.toMatchObject({ code: 404 });
    expect((await sdk.client.crm.deals.basicApi.getById(second ?? '')).id).toBe(merged.data.id);
  });

  it('batch-upserts tickets by a custom unique property (200), then finds them by search (200)', async () => {
    const propertyName = unique('ticket_ref').replaceAll('-', '_').toLowerCase();
    await sdk.client.crm.properties.coreApi.create('tickets', {
      name: propertyName,
      label: propertyName,
      type: 'string' as never,
      fieldType: 'text' as never,
      groupName: 'ticketinformation',
      hasUniqueValue: true,
    });
    const reference = unique('REF');

    const first = await sdk.client.crm.tickets.batchApi.upsertWithHttpInfo({
      inputs: [
        { id: reference, idProperty: propertyName, properties: { subject: 'Upserted', hs_pipeline_stage: '1' } },
      ],
    });
    const again = await sdk.client.crm.tickets.batchApi.upsert({
      inputs: [{ id: reference, idProperty: propertyName, properties: { subject: 'Upserted again' } }],
    });
    const found = await sdk.client.crm.tickets.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName, operator: FilterOperatorEnum.Eq, value: reference }] }],
      properties: ['subject'],
    });

    expect(first.httpStatusCode).toBe(200);
    expect(first.data.results[0]).toMatchObject({ _new: true });
    expect(again.results[0]).toMatchObject({ _new: false, id: first.data.results[0]?.id });
    expect(found.results.map((record) => record.properties.subject)).toEqual(['Upserted again']);
  });

  it.each([
    ['deals', '0-3', 'dealname', 'dealinformation'],
    ['tickets', '0-5', 'subject', 'ticketinformation'],
  ])('serves the %s (%s) properties and groups with crm.properties', async (name, id, property, group) => {
    const byName = await sdk.client.crm.properties.coreApi.getByName(name, property);
    const byId = await sdk.client.crm.properties.coreApi.getByName(id, property);
    const groups = await sdk.client.crm.properties.groupsApi.getAll(name);

    expect(byName).toEqual(byId);
    expect(byName.groupName).toBe(group);
    expect(groups.results.map((entry) => entry.name)).toContain(group);
  });

  it.each([
    ['0-1', { email: 'by-type-id@example.com' }],
    ['0-3', { dealname: 'By type id', dealstage: 'closedlost' }],
    ['0-5', { subject: 'By type id', hs_pipeline_stage: '4' }],
  ])('creates (201), pages (200) and searches (200) records of %s through crm.objects', async (typeId, properties) => {
    const values = typeId === '0-1' ? { email: `${unique('typed')}@example.com` } : properties;
    const created = await sdk.client.crm.objects.basicApi.createWithHttpInfo(typeId, {
      properties: values,
      associations: [],
    });
    const page = await sdk.client.crm.objects.basicApi.getPage(typeId, 100);
    const found = await sdk.client.crm.objects.searchApi.doSearch(typeId, {
      filterGroups: [
        { filters: [{ propertyName: 'hs_object_id', operator: FilterOperatorEnum.Eq, value: created.data.id }] },
      ],
    });

    expect(created.httpStatusCode).toBe(201);
    expect(page.results.map((record) => record.id)).toContain(created.data.id);
    expect(found.results.map((record) => record.id)).toEqual([created.data.id]);
  });
});

describe('search errors name the searched type', () => {
  it.each([
    ['contacts', 'contact'],
    ['deals', 'deal'],
    ['tickets', 'ticket'],
    ['0-8', 'line item'],
  ])('a search of %s by an unknown filter or sort property answers 400 naming a %s property', async (type, noun) => {
    const filtered = await sdkError(
      sdk.client.crm.objects.searchApi.doSearch(type, {
        filterGroups: [
          { filters: [{ propertyName: 'no_such_property', operator: FilterOperatorEnum.Eq, value: 'x' }] },
        ],
      }),
    );
    const sorted = await sdkError(sdk.client.crm.objects.searchApi.doSearch(type, { sorts: ['-no_such_property'] }));

    expect(filtered.code).toBe(400);
    expect(filtered.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { propertyName: ['no_such_property'] },
    });
    expect(filtered.body.message).toBe(
      `filterGroups[0].filters[0].propertyName: there is no ${noun} property named "no_such_property"`,
    );
    expect(sorted.code).toBe(400);
    expect(sorted.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { sorts: ['no_such_property'] } });
    expect(sorted.body.message).toBe(`sorts[0]: there is no ${noun} property named "no_such_property"`);
  });
});

describe('scopes per type', () => {
  const gateway = useTestGateway();

  it.each([
    ['/crm/v3/objects/contacts', 'crm.objects.contacts.read'],
    ['/crm/v3/objects/0-3', 'crm.objects.deals.read'],
    ['/crm/v3/properties/tickets', 'tickets'],
  ])('GET %s with a companies-only token answers 403 MISSING_SCOPES naming %s', async (path, scope) => {
    const installed = await install(gateway, { scopes: ['oauth', 'crm.objects.companies.read'] });

    const response = await crmClient(gateway, installed.accessToken).get(path);

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ category: 'MISSING_SCOPES' });
    expect(JSON.stringify(response.body)).toContain(scope);
  });
});
