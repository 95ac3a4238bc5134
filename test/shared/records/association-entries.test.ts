import * as recordsDb from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import { resolveAssociationInputs } from '../../../shared/records/association-entries';
import { createRecord } from '../../../shared/records/create-record';
import { getRecord } from '../../../shared/records/read-records';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * The associations a create names (shared/records/association-entries.ts), against DynamoDB Local:
 * which type ids a pair takes, what a primary type implies, both sides written with the record, and
 * the targets a create refuses.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');
const deals = requireObjectType('deals');
const lineItems = requireObjectType('line_items');

const newActor = engineActors(92_000_000, 900_000);
type Actor = ReturnType<typeof newActor>;

/** HubSpot's type ids: contact to company (primary, unlabeled), company to contact, deal to line item and back. */
const contactToPrimaryCompany = 1;
const contactToCompany = 279;
const companyToPrimaryContact = 2;
const companyToContact = 280;
const dealToLineItem = 19;
const lineItemToDeal = 20;

const association = (id: string, associationTypeId: number) => ({
  to: { id },
  types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }],
});
const newCompany = async (actor: Actor) => (await createRecord(actor, companies, { properties: { name: 'Acme' } })).id;

describe('resolveAssociationInputs', () => {
  it('adds the unlabeled type a primary type implies, and names each pair once', async () => {
    const entries = await resolveAssociationInputs(contacts, newActor().hubId, [
      association('77', contactToPrimaryCompany),
      association('77', contactToCompany),
    ]);

    expect(entries.map((entry) => [entry.to.name, entry.toObjectId, entry.type.typeId])).toEqual([
      ['companies', '77', contactToPrimaryCompany],
      ['companies', '77', contactToCompany],
    ]);
  });

  it('refuses a target id that is no id, naming it as HubSpot does', async () => {
    const refused = await refusalOf(
      resolveAssociationInputs(contacts, newActor().hubId, [association('abc', contactToCompany)]),
    );

    expect([refused.status, refused.message, refused.context]).toEqual([
      400,
      'One or more associations are invalid',
      { INVALID_OBJECT_IDS: ['COMPANY=abc is not valid'] },
    ]);
  });

  it('refuses a type id that does not start at the record type, and a category the type does not have', async () => {
    const hubId = newActor().hubId;

    const otherPair = await refusalOf(resolveAssociationInputs(contacts, hubId, [association('77', dealToLineItem)]));
    const otherCategory = await refusalOf(
      resolveAssociationInputs(contacts, hubId, [
        { to: { id: '77' }, types: [{ associationCategory: 'USER_DEFINED', associationTypeId: contactToCompany }] },
      ]),
    );

    expect([otherPair.status, otherPair.message, otherPair.subCategory]).toEqual([
      400,
      '19 is not a valid association type between contacts and any object type',
      'crm.associations.INVALID_ASSOCIATION_TYPE',
    ]);
    expect([otherCategory.status, otherCategory.message]).toEqual([
      400,
      '279 is not a valid association type between contacts and companies',
    ]);
  });
});

describe('a create with associations', () => {
  it("writes both sides with the record, a primary's unlabeled type too, and answers the primary company", async () => {
    const actor = newActor();
    const company = await newCompany(actor);

    const contact = await createRecord(actor, contacts, {
      properties: { firstname: 'Ada' },
      associations: [association(company, contactToPrimaryCompany)],
    });

    const stored = await recordsDb.findRecord(contacts, actor.hubId, contact.id);
    const other = await recordsDb.findRecord(companies, actor.hubId, company);
    expect(Object.keys(stored?.associations ?? {}).sort()).toEqual(
      [`0-2/${company}/${contactToPrimaryCompany}`, `0-2/${company}/${contactToCompany}`].sort(),
    );
    expect(Object.keys(other?.associations ?? {}).sort()).toEqual(
      [`0-1/${contact.id}/${companyToPrimaryContact}`, `0-1/${contact.id}/${companyToContact}`].sort(),
    );
    const read = await getRecord(contacts, actor.hubId, contact.id, { properties: 'associatedcompanyid' });
    expect(read.properties.associatedcompanyid).toBe(company);
  });

  it('refuses a target that does not exist and writes nothing', async () => {
    const actor = newActor();

    const refused = await refusalOf(
      createRecord(actor, contacts, {
        properties: { firstname: 'Ada' },
        associations: [association('1999999999999999', contactToCompany)],
      }),
    );

    expect([refused.status, refused.context]).toEqual([
      400,
      { INVALID_OBJECT_IDS: ['COMPANY=1999999999999999 is not valid'] },
    ]);
    expect((await recordsDb.listRecords(contacts, actor.hubId, false, 10, undefined)).records).toEqual([]);
  });

  it('refuses to give a line item a second deal, naming the deal it has', async () => {
    const actor = newActor();
    const first = (await createRecord(actor, deals, { properties: { dealname: 'A', dealstage: 'closedwon' } })).id;
    const item = (
      await createRecord(actor, lineItems, {
        properties: { name: 'Widget', price: '1' },
        associations: [association(first, lineItemToDeal)],
      })
    ).id;

    const refused = await refusalOf(
      createRecord(actor, deals, {
        properties: { dealname: 'B', dealstage: 'closedwon' },
        associations: [association(item, dealToLineItem)],
      }),
    );

    expect([refused.status, refused.message]).toEqual([
      400,
      `Line item ${item} is already associated with deal ${first}: a line item may be associated with one deal`,
    ]);
    expect(
      (await recordsDb.listRecords(deals, actor.hubId, false, 10, undefined)).records.map((deal) => deal.id),
    ).toEqual([first]);
  });
});
