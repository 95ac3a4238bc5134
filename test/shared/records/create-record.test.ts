import { requireObjectType } from '../../../shared/objects/object-types';
import { createRecord, prepareRecord } from '../../../shared/records/create-record';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * What a create of the record engine makes of its input (shared/records/create-record.ts) before
 * and after it is written, against DynamoDB Local.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');
const deals = requireObjectType('deals');
const products = requireObjectType('products');
const lineItems = requireObjectType('line_items');

const newActor = engineActors(99_000_000, 400_000);

describe('prepareRecord', () => {
  it('drops empty values, and sets the values a type gives a create that sends none', async () => {
    const actor = newActor();

    const contact = await prepareRecord(actor, contacts, { properties: { email: 'A@Example.com', city: '' } });
    const deal = await prepareRecord(actor, deals, { properties: { dealname: 'D', dealstage: 'qualifiedtobuy' } });

    expect(contact.properties).toEqual({ email: 'a@example.com', lifecyclestage: 'lead' });
    expect(contact.uniqueValues).toEqual([{ propertyName: 'email', value: 'a@example.com' }]);
    expect(contact.sentNames).toEqual(['email', 'city']);
    expect(deal.properties.pipeline).toBe('default');
  });

  it('keeps a value the create sends over the one the type would give', async () => {
    const prepared = await prepareRecord(newActor(), contacts, {
      properties: { email: 'b@example.com', lifecyclestage: 'customer' },
    });

    expect(prepared.properties.lifecyclestage).toBe('customer');
  });

  it("takes the values of the record a reference names before the type's rules check the record", async () => {
    const actor = newActor();
    const product = await createRecord(actor, products, { properties: { name: 'Widget', price: '4' } });

    const prepared = await prepareRecord(actor, lineItems, {
      properties: { hs_product_id: product.id, quantity: '3' },
    });

    expect(prepared.properties).toEqual({ hs_product_id: product.id, quantity: '3', name: 'Widget', price: '4' });
  });

  it('refuses a pinned activity the create does not associate', async () => {
    const error = await refusalOf(
      prepareRecord(newActor(), companies, { properties: { name: 'Acme', hs_pinned_engagement_id: '123' } }),
    );

    expect(error.status).toBe(400);
    expect(error.errors?.map((detail) => [detail.in, detail.code])).toEqual([
      ['hs_pinned_engagement_id', 'INVALID_PINNED_ENGAGEMENT'],
    ]);
  });

  it("refuses what the type's rules refuse, before anything is written", async () => {
    const actor = newActor();

    expect((await refusalOf(prepareRecord(actor, deals, { properties: { dealname: 'D' } }))).context).toEqual({
      properties: ['dealstage'],
    });
    expect((await refusalOf(prepareRecord(actor, companies, { properties: { city: 'Berlin' } }))).status).toBe(400);
  });
});

describe('createRecord', () => {
  it('answers the defaults, every property it sent and the pipeline it was given, unset ones left out', async () => {
    const view = await createRecord(newActor(), deals, {
      properties: { dealname: 'D', dealstage: 'qualifiedtobuy', description: 'x', closedate: '' },
    });

    expect(Object.keys(view.properties).sort()).toEqual(
      ['createdate', 'dealname', 'dealstage', 'description', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'].sort(),
    );
    expect(view.properties.pipeline).toBe('default');
    expect(view.properties.hs_object_id).toBe(view.id);
    expect(view.createdAt).toBe(view.updatedAt);
    expect(view.archived).toBe(false);
  });
});
