import { dynamoCallCounter } from '../../../shared/db/client';
import * as recordsDb from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import { createRecord } from '../../../shared/records/create-record';
import { resolveRecordId } from '../../../shared/records/read-records';
import { updateRecord } from '../../../shared/records/update-record';
import { unique } from '../../support/harness';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * An update as the record engine writes it (shared/records/update-record.ts), against DynamoDB Local:
 * the values, their history and the version; what an update may not do; the unique values it moves.
 */
const contacts = requireObjectType('contacts');
const deals = requireObjectType('deals');

const newActor = engineActors(91_500_000, 400_000);

describe('updateRecord', () => {
  it("sets and clears values, puts each change first in the property's history, and counts the version up", async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'Ada', city: 'London' } });

    const view = await updateRecord(actor, contacts, id, { properties: { firstname: 'Augusta', city: '' } });

    expect(view.properties).toMatchObject({ firstname: 'Augusta' });
    expect(view.properties.city).toBeUndefined();
    const stored = await recordsDb.findRecord(contacts, actor.hubId, id);
    expect(stored?.properties.city).toBeUndefined();
    expect(stored?.history.firstname?.map((entry) => entry.value)).toEqual(['Augusta', 'Ada']);
    expect(stored?.history.city?.map((entry) => entry.value)).toEqual(['', 'London']);
    expect(stored?.version).toBe(2);
  });

  it('writes nothing when no value changes, and answers the record as it is', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'Ada' } });
    dynamoCallCounter.reset();

    const view = await updateRecord(actor, contacts, id, { properties: { firstname: 'Ada', city: '' } });

    expect(view.properties.firstname).toBe('Ada');
    expect(dynamoCallCounter.calls.get('TransactWriteItemsCommand') ?? 0).toBe(0);
    expect((await recordsDb.findRecord(contacts, actor.hubId, id))?.version).toBe(1);
  });

  it('refuses to clear a required property, and leaves the record as it was', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, deals, { properties: { dealname: 'D', dealstage: 'closedwon' } });

    const refused = await refusalOf(updateRecord(actor, deals, id, { properties: { dealname: '' } }));

    expect([refused.status, refused.message]).toEqual([400, 'A deal needs the property dealname']);
    expect((await recordsDb.findRecord(deals, actor.hubId, id))?.properties.dealname).toBe('D');
  });

  it('moves the lifecycle stage only forward, and from any stage once it was cleared', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { lifecyclestage: 'customer' } });
    const stageAfter = async (lifecyclestage: string) =>
      (await updateRecord(actor, contacts, id, { properties: { lifecyclestage } })).properties.lifecyclestage;

    expect(await stageAfter('lead')).toBe('customer');
    expect(await stageAfter('evangelist')).toBe('evangelist');
    expect(await stageAfter('')).toBeUndefined();
    expect(await stageAfter('lead')).toBe('lead');
  });

  it('moves the email claim with the email: the old address is free, the new one finds the record', async () => {
    const actor = newActor();
    const [before, after] = [`${unique('before')}@example.com`, `${unique('after')}@example.com`];
    const { id } = await createRecord(actor, contacts, { properties: { email: before } });

    await updateRecord(actor, contacts, id, { properties: { email: after.toUpperCase() } });

    expect(await resolveRecordId(contacts, actor.hubId, before, 'email')).toBeUndefined();
    expect(await resolveRecordId(contacts, actor.hubId, after, 'email')).toBe(id);
    expect((await recordsDb.findRecord(contacts, actor.hubId, id))?.uniqueValues).toEqual([
      { propertyName: 'email', value: after },
    ]);
  });

  it("refuses an email another contact holds with the type's 409, naming that contact", async () => {
    const actor = newActor();
    const taken = `${unique('taken')}@example.com`;
    const holder = await createRecord(actor, contacts, { properties: { email: taken } });
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'B' } });

    const refused = await refusalOf(updateRecord(actor, contacts, id, { properties: { email: taken } }));

    expect([refused.status, refused.message]).toEqual([409, `Contact already exists. Existing ID: ${holder.id}`]);
    expect((await recordsDb.findRecord(contacts, actor.hubId, id))?.properties.email).toBeUndefined();
  });

  it('finds the record by its unique value, and answers a missing one with the not-found error', async () => {
    const actor = newActor();
    const email = `${unique('by')}@example.com`;
    const { id } = await createRecord(actor, contacts, { properties: { email } });

    expect((await updateRecord(actor, contacts, email, { properties: { firstname: 'X' } }, 'email')).id).toBe(id);
    const missing = await refusalOf(
      updateRecord(actor, contacts, '1999999999999999', { properties: { firstname: 'X' } }),
    );
    expect([missing.status, missing.message]).toEqual([404, 'resource not found']);
  });
});
