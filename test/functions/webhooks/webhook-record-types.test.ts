import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import {
  install,
  installInto,
  provision,
  startTestGateway,
  unique,
  type Installation,
  type InstalledTokens,
} from '../../support/harness';
import { crmClient, type CompanyJson, type CrmClient } from '../../support/crm-client';
import { callTimeline } from '../../support/timeline-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import type { WebhookEvent } from '../../../shared/webhooks/webhook-events';

/**
 * Contact, deal and ticket events end to end in the local runtime, as webhook-delivery.test.ts
 * runs company events: CRM writes through the gateway, the table's stream on DynamoDB Local, event
 * generation, the in-process queue and signed POSTs to real receivers on 127.0.0.1. Beside the app
 * under test (its install holds every read scope), a `narrow` app installed in the same account
 * with companies.read alone subscribes to the same events and must receive none of them.
 */
let gateway: RunningGateway;
let webhooks: LocalWebhooks;
let receiver: WebhookReceiver;
let narrowReceiver: WebhookReceiver;
let app: InstalledTokens;
let narrow: Installation;
let crm: CrmClient;
const hubs = new Set<number>();

const manageApp = <T = Record<string, unknown>>(
  installation: Installation,
  method: string,
  path: string,
  body?: unknown,
) =>
  callTimeline<T>(
    gateway.baseUrl,
    { hapikey: installation.developerApiKey },
    method,
    `/webhooks/v3/${installation.appId}${path}`,
    body,
  );

/** Subscribes the app under test and the narrow app to the same event type; returns the app's subscription id. */
async function subscribe(eventType: string, propertyName?: string, objectTypeId?: string): Promise<number> {
  const body = { eventType, propertyName, objectTypeId, active: true };
  const response = await manageApp<{ id: string }>(app, 'POST', '/subscriptions', body);
  expect(response.status).toBe(201);
  expect((await manageApp(narrow, 'POST', '/subscriptions', body)).status).toBe(201);
  return Number(response.body.id);
}

async function create(objectType: string, properties: Record<string, string>): Promise<string> {
  const response = await crm.post<CompanyJson>(`/crm/v3/objects/${objectType}`, { properties });
  expect(response.status).toBe(201);
  return response.body.id;
}

const ofType = (type: string, objectId?: string) => (event: WebhookEvent) =>
  event.subscriptionType === type && (objectId === undefined || String(event.objectId) === objectId);

/** `[subscriptionType, objectId]` of the received events, one per event id (a receiver dedupes by it), sorted. */
const distinctEvents = (events: WebhookEvent[]) =>
  [...new Map(events.map((event) => [event.eventId, event])).values()]
    .map((event) => [event.subscriptionType, String(event.objectId)])
    .sort();

/** Everything the pipeline had for these writes has gone out, and the narrow app got none of it. */
async function expectNothingForNarrow(): Promise<void> {
  await webhooks.settle(100);
  expect(narrowReceiver.deliveries).toEqual([]);
}

beforeAll(async () => {
  gateway = await startTestGateway();
  webhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    delayScale: 0.01,
    pollIntervalMs: 50,
    acceptsHub: (hubId) => hubs.has(hubId),
    startAtTip: true,
  });
});

afterAll(async () => {
  await webhooks.stop();
  await gateway.close();
});

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  narrowReceiver = await startWebhookReceiver();
  app = await install(gateway);
  hubs.add(app.hubId);
  crm = crmClient(gateway, app.accessToken);
  // Requests every object's read scope (so it may subscribe), but its install in our account holds companies.read alone.
  narrow = await provision({
    scopes: ['oauth', 'crm.objects.companies.read'],
    optionalScopes: [
      'crm.objects.contacts.read',
      'crm.objects.deals.read',
      'tickets',
      'crm.objects.tickets.read',
      'e-commerce',
      'crm.objects.custom.read',
    ],
  });
  await installInto(gateway, narrow, app, ['oauth', 'crm.objects.companies.read']);
  expect((await manageApp(app, 'PUT', '/settings', { targetUrl: receiver.url })).status).toBe(200);
  expect((await manageApp(narrow, 'PUT', '/settings', { targetUrl: narrowReceiver.url })).status).toBe(200);
});

afterEach(async () => {
  await webhooks.settle();
  await receiver.close();
  await narrowReceiver.close();
});

describe('contacts', () => {
  it('delivers creation, propertyChange and the archive (deletion), and no privacyDeletion for an archive', async () => {
    const creation = await subscribe('contact.creation');
    const nameChange = await subscribe('contact.propertyChange', 'firstname');
    const deletion = await subscribe('contact.deletion');
    await subscribe('contact.privacyDeletion');
    const contactId = await create('contacts', { email: `${unique('ada')}@example.com`, firstname: 'Ada' });
    expect(
      (await crm.patch(`/crm/v3/objects/contacts/${contactId}`, { properties: { firstname: 'Augusta' } })).status,
    ).toBe(200);
    expect((await crm.delete(`/crm/v3/objects/contacts/${contactId}`)).status).toBe(204);

    await receiver.waitFor(() => receiver.events().some(ofType('contact.deletion', contactId)));
    await expectNothingForNarrow();
    const events = receiver.events();

    expect(events.find(ofType('contact.creation', contactId))).toEqual({
      eventId: expect.any(Number),
      subscriptionId: creation,
      portalId: app.hubId,
      appId: app.appId,
      occurredAt: expect.any(Number),
      subscriptionType: 'contact.creation',
      attemptNumber: 0,
      objectId: Number(contactId),
      changeSource: 'INTEGRATION',
      changeFlag: 'CREATED',
      sourceId: String(app.appId),
    });
    expect(
      events
        .filter(ofType('contact.propertyChange', contactId))
        .map((event) => [event.subscriptionId, event.propertyName, event.propertyValue])
        .sort(),
    ).toEqual([
      [nameChange, 'firstname', 'Ada'],
      [nameChange, 'firstname', 'Augusta'],
    ]);
    expect(events.filter(ofType('contact.deletion', contactId))).toEqual([
      expect.objectContaining({ subscriptionId: deletion, changeFlag: 'DELETED', objectId: Number(contactId) }),
    ]);
    expect(events.some(ofType('contact.privacyDeletion'))).toBe(false);
  });

  it('delivers the merge for the new record, and neither deletion nor privacyDeletion for the merged ones', async () => {
    await subscribe('contact.merge');
    await subscribe('contact.deletion');
    await subscribe('contact.privacyDeletion');
    const primary = await create('contacts', { email: `${unique('primary')}@example.com`, firstname: 'Primary' });
    const secondary = await create('contacts', { email: `${unique('second')}@example.com`, city: 'Boston' });
    const merged = await crm.post<CompanyJson>('/crm/v3/objects/contacts/merge', {
      primaryObjectId: primary,
      objectIdToMerge: secondary,
    });
    expect(merged.status).toBe(200);

    await receiver.waitFor(() => receiver.events().some(ofType('contact.merge')));
    await expectNothingForNarrow();

    expect(receiver.events()).toEqual([
      expect.objectContaining({
        subscriptionType: 'contact.merge',
        objectId: Number(merged.body.id),
        newObjectId: Number(merged.body.id),
        primaryObjectId: Number(primary),
        mergedObjectIds: [Number(primary), Number(secondary)],
        changeFlag: 'MERGED',
      }),
    ]);
  });

  it('delivers privacyDeletion and deletion for a GDPR delete, of an active contact, by email, and of an archived one', async () => {
    await subscribe('contact.deletion');
    await subscribe('contact.privacyDeletion');
    const active = await create('contacts', { firstname: 'Active' });
    const email = `${unique('by-email')}@example.com`;
    const byEmail = await create('contacts', { email });
    const archived = await create('contacts', { firstname: 'Archived' });
    expect((await crm.delete(`/crm/v3/objects/contacts/${archived}`)).status).toBe(204);
    // The GDPR delete right after the archive: the archive's removal may be read after the contact is gone for
    // good too, and then reads as that removal; the event ids are the record's, so each event is one id.
    for (const body of [{ objectId: active }, { objectId: email, idProperty: 'email' }, { objectId: archived }]) {
      expect((await crm.post('/crm/v3/objects/contacts/gdpr-delete', body)).status).toBe(204);
    }

    const expected = [
      ['contact.deletion', active],
      ['contact.deletion', archived],
      ['contact.deletion', archived],
      ['contact.deletion', byEmail],
      ['contact.privacyDeletion', active],
      ['contact.privacyDeletion', archived],
      ['contact.privacyDeletion', byEmail],
    ].sort();
    await receiver.waitFor(() => distinctEvents(receiver.events()).length >= expected.length);
    await expectNothingForNarrow();

    expect(distinctEvents(receiver.events())).toEqual(expected);
    expect(receiver.events().filter(ofType('contact.privacyDeletion', active))[0]).toMatchObject({
      portalId: app.hubId,
      objectId: Number(active),
      changeFlag: 'DELETED',
      attemptNumber: 0,
    });
  });
});

describe('deals and tickets', () => {
  it('delivers deal creation and propertyChange to the app holding crm.objects.deals.read only', async () => {
    const creation = await subscribe('deal.creation');
    const stageChange = await subscribe('deal.propertyChange', 'dealstage');
    const dealId = await create('deals', { dealname: unique('Deal'), dealstage: 'appointmentscheduled' });
    expect(
      (await crm.patch(`/crm/v3/objects/deals/${dealId}`, { properties: { dealstage: 'qualifiedtobuy' } })).status,
    ).toBe(200);

    await receiver.waitFor(() => receiver.events().filter(ofType('deal.propertyChange', dealId)).length >= 2);
    await expectNothingForNarrow();

    expect(receiver.events().find(ofType('deal.creation', dealId))).toMatchObject({
      subscriptionId: creation,
      subscriptionType: 'deal.creation',
      objectId: Number(dealId),
      changeFlag: 'CREATED',
    });
    expect(
      receiver
        .events()
        .filter(ofType('deal.propertyChange', dealId))
        .map((event) => [event.subscriptionId, event.propertyName, event.propertyValue])
        .sort(),
    ).toEqual([
      [stageChange, 'dealstage', 'appointmentscheduled'],
      [stageChange, 'dealstage', 'qualifiedtobuy'],
    ]);
  });

  it('delivers ticket creation and propertyChange to installs holding tickets or crm.objects.tickets.read', async () => {
    await subscribe('ticket.creation');
    await subscribe('ticket.propertyChange', 'subject');
    // A third app whose install holds only the granular ticket scope.
    const granular = await provision({ scopes: ['oauth', 'crm.objects.tickets.read'] });
    await installInto(gateway, granular, app, ['oauth', 'crm.objects.tickets.read']);
    const granularReceiver = await startWebhookReceiver();
    try {
      expect((await manageApp(granular, 'PUT', '/settings', { targetUrl: granularReceiver.url })).status).toBe(200);
      expect(
        (await manageApp(granular, 'POST', '/subscriptions', { eventType: 'ticket.creation', active: true })).status,
      ).toBe(201);
      const ticketId = await create('tickets', { subject: 'Printer on fire', hs_pipeline_stage: '1' });
      expect(
        (await crm.patch(`/crm/v3/objects/tickets/${ticketId}`, { properties: { subject: 'Printer out' } })).status,
      ).toBe(200);

      await receiver.waitFor(() => receiver.events().filter(ofType('ticket.propertyChange', ticketId)).length >= 2);
      await granularReceiver.waitFor(() => granularReceiver.events().some(ofType('ticket.creation', ticketId)));
      await expectNothingForNarrow();

      expect(distinctEvents(receiver.events())).toEqual([
        ['ticket.creation', ticketId],
        ['ticket.propertyChange', ticketId],
        ['ticket.propertyChange', ticketId],
      ]);
      expect(
        receiver
          .events()
          .filter(ofType('ticket.propertyChange', ticketId))
          .map((event) => event.propertyValue)
          .sort(),
      ).toEqual(['Printer on fire', 'Printer out']);
      expect(granularReceiver.events().map((event) => [event.subscriptionType, event.appId])).toEqual([
        ['ticket.creation', granular.appId],
      ]);
    } finally {
      await granularReceiver.close();
    }
  });
});

describe('associations', () => {
  it('send one associationChange per side, each from its own record: CONTACT_TO_COMPANY and COMPANY_TO_CONTACT', async () => {
    const contactSubscription = await subscribe('contact.associationChange');
    // The narrow app reads companies, so only the app under test subscribes to company events here.
    const companyAnswer = await manageApp<{ id: string }>(app, 'POST', '/subscriptions', {
      eventType: 'company.associationChange',
      active: true,
    });
    expect(companyAnswer.status).toBe(201);
    const contactId = await create('contacts', { email: `${unique('assoc')}@example.com` });
    const companyId = await create('companies', { name: unique('Assoc') });
    expect(
      (await crm.put(`/crm/v4/objects/companies/${companyId}/associations/default/contacts/${contactId}`)).status,
    ).toBe(200);

    await receiver.waitFor(
      () =>
        receiver.events().some(ofType('contact.associationChange', contactId)) &&
        receiver.events().some(ofType('company.associationChange', companyId)),
    );
    await expectNothingForNarrow();

    expect(receiver.events().filter(ofType('contact.associationChange', contactId))).toEqual([
      expect.objectContaining({
        subscriptionId: contactSubscription,
        associationType: 'CONTACT_TO_COMPANY',
        fromObjectId: Number(contactId),
        toObjectId: Number(companyId),
        associationRemoved: false,
        isPrimaryAssociation: false,
      }),
    ]);
    expect(receiver.events().filter(ofType('company.associationChange', companyId))).toEqual([
      expect.objectContaining({
        subscriptionId: Number(companyAnswer.body.id),
        associationType: 'COMPANY_TO_CONTACT',
        fromObjectId: Number(companyId),
        toObjectId: Number(contactId),
        associationRemoved: false,
        isPrimaryAssociation: false,
      }),
    ]);
  });

  it('between a deal and a ticket: DEAL_TO_TICKET and TICKET_TO_DEAL, and the removal of both', async () => {
    await subscribe('deal.associationChange');
    await subscribe('ticket.associationChange');
    const dealId = await create('deals', { dealname: unique('Deal'), dealstage: 'appointmentscheduled' });
    const ticketId = await create('tickets', { subject: unique('Ticket'), hs_pipeline_stage: '1' });
    expect((await crm.put(`/crm/v4/objects/deals/${dealId}/associations/default/tickets/${ticketId}`)).status).toBe(
      200,
    );
    expect((await crm.delete(`/crm/v4/objects/tickets/${ticketId}/associations/deals/${dealId}`)).status).toBe(204);

    const pairs = () =>
      receiver
        .events()
        .filter((event) => event.subscriptionType.endsWith('.associationChange'))
        .map((event) => [
          event.associationType,
          String(event.fromObjectId),
          String(event.toObjectId),
          event.associationRemoved,
        ])
        .sort();
    await receiver.waitFor(() => pairs().length >= 4);
    await expectNothingForNarrow();

    expect(pairs()).toEqual(
      [
        ['DEAL_TO_TICKET', dealId, ticketId, false],
        ['DEAL_TO_TICKET', dealId, ticketId, true],
        ['TICKET_TO_DEAL', ticketId, dealId, false],
        ['TICKET_TO_DEAL', ticketId, dealId, true],
      ].sort(),
    );
  });
});

describe('activities, products and line items', () => {
  it('deliver object.* for notes (objectTypeId 0-46), product.propertyChange, and line_item creation and associationChange', async () => {
    const noteCreation = await subscribe('object.creation', undefined, 'notes');
    const priceChange = await subscribe('product.propertyChange', 'price');
    const itemCreation = await subscribe('line_item.creation');
    const itemAssociation = await subscribe('line_item.associationChange');
    const noteId = await create('notes', { hs_timestamp: '2026-03-01T10:00:00.000Z', hs_note_body: 'Webhook' });
    const productId = await create('products', { name: unique('Product'), price: '10' });
    expect((await crm.patch(`/crm/v3/objects/products/${productId}`, { properties: { price: '12' } })).status).toBe(
      200,
    );
    const dealId = await create('deals', { dealname: unique('Deal'), dealstage: 'appointmentscheduled' });
    const itemId = await create('line_items', { hs_product_id: productId, quantity: '1' });
    expect(
      (
        await crm.put(`/crm/v4/objects/line_items/${itemId}/associations/deals/${dealId}`, [
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 20 },
        ])
      ).status,
    ).toBe(201);

    await receiver.waitFor(
      () =>
        receiver.events().some(ofType('object.creation', noteId)) &&
        receiver.events().filter(ofType('product.propertyChange', productId)).length >= 2 &&
        receiver.events().some(ofType('line_item.creation', itemId)) &&
        receiver.events().some(ofType('line_item.associationChange', itemId)),
    );
    await expectNothingForNarrow();

    expect(receiver.events().find(ofType('object.creation', noteId))).toMatchObject({
      subscriptionId: noteCreation,
      objectTypeId: '0-46',
      changeFlag: 'CREATED',
    });
    expect(
      receiver
        .events()
        .filter(ofType('product.propertyChange', productId))
        .map((event) => [event.subscriptionId, event.propertyValue])
        .sort(),
    ).toEqual([
      [priceChange, '10'],
      [priceChange, '12'],
    ]);
    expect(receiver.events().find(ofType('line_item.creation', itemId))).toMatchObject({
      subscriptionId: itemCreation,
    });
    expect(receiver.events().find(ofType('line_item.associationChange', itemId))).toMatchObject({
      subscriptionId: itemAssociation,
      associationType: 'LINE_ITEM_TO_DEAL',
      fromObjectId: Number(itemId),
      toObjectId: Number(dealId),
      associationRemoved: false,
    });
  });
});

describe('custom objects', () => {
  it('deliver object.* with the custom objectTypeId (2-<id>) to the app holding crm.objects.custom.read', async () => {
    const schema = await crm.post<{ objectTypeId: string }>('/crm-object-schemas/v3/schemas', {
      name: 'shipments',
      labels: { singular: 'Shipment', plural: 'Shipments' },
      properties: [{ name: 'tracking', label: 'Tracking', type: 'string', fieldType: 'text' }],
      requiredProperties: ['tracking'],
      associatedObjects: [],
    });
    expect(schema.status).toBe(201);
    const typeId = schema.body.objectTypeId;
    const creation = await subscribe('object.creation', undefined, typeId);
    const change = await subscribe('object.propertyChange', 'tracking', typeId);
    const id = await create('p_shipments', { tracking: 'T-1' });
    expect((await crm.patch(`/crm/v3/objects/${typeId}/${id}`, { properties: { tracking: 'T-2' } })).status).toBe(200);

    await receiver.waitFor(
      () =>
        receiver.events().some(ofType('object.creation', id)) &&
        receiver.events().filter(ofType('object.propertyChange', id)).length >= 2,
    );
    await expectNothingForNarrow();
    expect(receiver.events().find(ofType('object.creation', id))).toMatchObject({
      subscriptionId: creation,
      objectTypeId: typeId,
      changeFlag: 'CREATED',
    });
    expect(
      receiver
        .events()
        .filter(ofType('object.propertyChange', id))
        .map((event) => [event.subscriptionId, event.objectTypeId, event.propertyValue])
        .sort(),
    ).toEqual([
      [change, typeId, 'T-1'],
      [change, typeId, 'T-2'],
    ]);
  });
});

describe('generic object.* subscriptions', () => {
  it("deliver the named type's changes with its objectTypeId, by id or by name, and no other type's", async () => {
    const contactCreation = await subscribe('object.creation', undefined, '0-1');
    const dealChange = await subscribe('object.propertyChange', 'dealname', 'deal');
    const contactId = await create('contacts', { email: `${unique('generic')}@example.com` });
    const dealId = await create('deals', { dealname: unique('Generic'), dealstage: 'appointmentscheduled' });

    await receiver.waitFor(
      () =>
        receiver.events().some(ofType('object.creation', contactId)) &&
        receiver.events().some(ofType('object.propertyChange', dealId)),
    );
    await expectNothingForNarrow();

    expect(receiver.events()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          subscriptionId: contactCreation,
          subscriptionType: 'object.creation',
          objectId: Number(contactId),
          objectTypeId: '0-1',
          changeFlag: 'CREATED',
        }),
        expect.objectContaining({
          subscriptionId: dealChange,
          subscriptionType: 'object.propertyChange',
          objectId: Number(dealId),
          objectTypeId: '0-3',
          propertyName: 'dealname',
        }),
      ]),
    );
    expect(
      receiver
        .events()
        .filter((event) => String(event.objectId) === dealId && event.subscriptionType === 'object.creation'),
    ).toEqual([]);
  });

  it('need an objectTypeId of a stored type (400 naming it) and list it back', async () => {
    const refused = await manageApp(app, 'POST', '/subscriptions', { eventType: 'object.creation' });
    const unknown = await manageApp(app, 'POST', '/subscriptions', {
      eventType: 'object.creation',
      objectTypeId: '0-14',
    });
    const created = await manageApp<{ objectTypeId?: string; eventType: string }>(app, 'POST', '/subscriptions', {
      eventType: 'object.deletion',
      objectTypeId: 'tickets',
    });

    expect([refused.status, refused.body.context]).toEqual([400, { objectTypeId: [''] }]);
    expect([unknown.status, unknown.body.context]).toEqual([400, { objectTypeId: ['0-14'] }]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ eventType: 'object.deletion', objectTypeId: '0-5' });
  });
});

describe('deletion and merge of deals and tickets, and the generic deletion, merge and associationChange', () => {
  const dealProperties = () => ({ dealname: unique('Deal'), dealstage: 'appointmentscheduled' });
  const ticketProperties = () => ({ subject: unique('Ticket'), hs_pipeline_stage: '1' });

  it.each([
    ['deal', 'deals', dealProperties],
    ['ticket', 'tickets', ticketProperties],
  ] as const)(
    '%s: deletion for an archive and merge for a merge, once each',
    async (object, objectType, properties) => {
      const deletion = await subscribe(`${object}.deletion`);
      const merge = await subscribe(`${object}.merge`);
      const archived = await create(objectType, properties());
      const primary = await create(objectType, properties());
      const secondary = await create(objectType, properties());
      expect((await crm.delete(`/crm/v3/objects/${objectType}/${archived}`)).status).toBe(204);
      const merged = await crm.post<CompanyJson>(`/crm/v3/objects/${objectType}/merge`, {
        primaryObjectId: primary,
        objectIdToMerge: secondary,
      });
      expect(merged.status).toBe(200);

      await receiver.waitFor(() => receiver.events().some(ofType(`${object}.merge`)));
      await receiver.waitFor(() => receiver.events().some(ofType(`${object}.deletion`, archived)));
      await expectNothingForNarrow();

      expect(distinctEvents(receiver.events())).toEqual(
        [
          [`${object}.deletion`, archived],
          [`${object}.merge`, merged.body.id],
        ].sort(),
      );
      expect(receiver.events().find(ofType(`${object}.deletion`))).toMatchObject({
        subscriptionId: deletion,
        changeFlag: 'DELETED',
      });
      expect(receiver.events().find(ofType(`${object}.merge`))).toMatchObject({
        subscriptionId: merge,
        primaryObjectId: Number(primary),
        mergedObjectIds: [Number(primary), Number(secondary)],
        newObjectId: Number(merged.body.id),
        changeFlag: 'MERGED',
      });
    },
  );

  it('object.deletion, object.merge and object.associationChange for the named type only, with its objectTypeId', async () => {
    await subscribe('object.deletion', undefined, '0-3');
    await subscribe('object.merge', undefined, 'deals');
    await subscribe('object.associationChange', undefined, '0-3');
    const archived = await create('deals', dealProperties());
    const primary = await create('deals', dealProperties());
    const secondary = await create('deals', dealProperties());
    const ticket = await create('tickets', ticketProperties());
    expect((await crm.put(`/crm/v4/objects/tickets/${ticket}/associations/default/deals/${primary}`)).status).toBe(200);
    expect((await crm.delete(`/crm/v3/objects/deals/${archived}`)).status).toBe(204);
    // A ticket archived too: the subscriptions name deals, so nothing comes of it.
    expect((await crm.delete(`/crm/v3/objects/tickets/${await create('tickets', ticketProperties())}`)).status).toBe(
      204,
    );
    const merged = await crm.post<CompanyJson>('/crm/v3/objects/deals/merge', {
      primaryObjectId: primary,
      objectIdToMerge: secondary,
    });
    expect(merged.status).toBe(200);

    await receiver.waitFor(() => receiver.events().some(ofType('object.merge')));
    await receiver.waitFor(() => receiver.events().some(ofType('object.deletion', archived)));
    await expectNothingForNarrow();

    const events = [...new Map(receiver.events().map((event) => [event.eventId, event])).values()];
    expect(events.every((event) => event.objectTypeId === '0-3')).toBe(true);
    expect(
      events.map((event) => [event.subscriptionType, String(event.objectId), event.associationType ?? '']).sort(),
    ).toEqual(
      [
        // The deal's side of the ticket association (the ticket's side is a ticket event: not subscribed).
        ['object.associationChange', primary, 'DEAL_TO_TICKET'],
        ['object.deletion', archived, ''],
        // A merge fires the merge alone for the new record (the associations it takes over fire nothing, as its values do not).
        ['object.merge', merged.body.id, ''],
      ].sort(),
    );
  });
});
