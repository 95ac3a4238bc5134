import { dynamoCallCounter } from '../../../shared/db/client';
import { requireObjectType } from '../../../shared/objects/object-types';
import { archiveRecord } from '../../../shared/records/archive-record';
import { createRecord } from '../../../shared/records/create-record';
import { mergeRecords } from '../../../shared/records/merge-records';
import { getRecord, resolveRecordId } from '../../../shared/records/read-records';
import { unique } from '../../support/harness';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * The merge of two records (shared/records/merge-records.ts), against DynamoDB Local: a new record
 * holds the result, the primary's values win, the type's unique values of both stay with it, and
 * which ids a merge takes.
 */
const contacts = requireObjectType('contacts');
const deals = requireObjectType('deals');

const newActor = engineActors(94_000_000, 900_000);
type Actor = ReturnType<typeof newActor>;
const newContact = async (actor: Actor, properties: Record<string, string>) =>
  (await createRecord(actor, contacts, { properties })).id;

describe('mergeRecords: the merged record', () => {
  it("keeps the primary's values, fills the rest from the other record, and names both ids merged into it", async () => {
    const actor = newActor();
    const primary = await newContact(actor, { email: `${unique('p')}@example.com`, firstname: 'Ada', city: '' });
    const secondary = await newContact(actor, {
      email: `${unique('s')}@example.com`,
      firstname: 'Augusta',
      city: 'London',
    });

    const merged = await mergeRecords(actor, contacts, { primaryObjectId: primary, objectIdToMerge: secondary });

    expect(merged.id).not.toBe(primary);
    expect(merged.id).not.toBe(secondary);
    expect(merged.properties).toMatchObject({ firstname: 'Ada', city: 'London' });
    expect(merged.properties.hs_merged_object_ids?.split(';')).toEqual([primary, secondary]);
  });

  it("keeps the primary's email, the other's as an additional one, and finds the merged record by either", async () => {
    const actor = newActor();
    const [first, second] = [`${unique('first')}@example.com`, `${unique('second')}@example.com`];
    const primary = await newContact(actor, { email: first });
    const secondary = await newContact(actor, { email: second });

    const merged = await mergeRecords(actor, contacts, { primaryObjectId: primary, objectIdToMerge: secondary });

    expect(merged.properties.email).toBe(first);
    expect(merged.properties.hs_additional_emails).toBe(second);
    expect(await resolveRecordId(contacts, actor.hubId, first, 'email')).toBe(merged.id);
    expect(await resolveRecordId(contacts, actor.hubId, second, 'email')).toBe(merged.id);
  });

  it('reads the merged record under both old ids, and answers a repeated merge with it, writing nothing new', async () => {
    const actor = newActor();
    const primary = await newContact(actor, { firstname: 'A' });
    const secondary = await newContact(actor, { firstname: 'B' });
    const merged = await mergeRecords(actor, contacts, { primaryObjectId: primary, objectIdToMerge: secondary });

    dynamoCallCounter.reset();
    const again = await mergeRecords(actor, contacts, { primaryObjectId: primary, objectIdToMerge: secondary });

    expect(again.id).toBe(merged.id);
    expect(dynamoCallCounter.calls.get('TransactWriteItemsCommand') ?? 0).toBe(0);
    expect((await getRecord(contacts, actor.hubId, primary, {})).id).toBe(merged.id);
    expect((await getRecord(contacts, actor.hubId, secondary, {})).id).toBe(merged.id);
  });
});

describe('mergeRecords: the ids it takes', () => {
  it('refuses to merge a record with itself', async () => {
    const actor = newActor();
    const id = await newContact(actor, { firstname: 'A' });

    const refused = await refusalOf(mergeRecords(actor, contacts, { primaryObjectId: id, objectIdToMerge: id }));

    expect([refused.status, refused.message]).toEqual([400, 'A contact cannot be merged with itself']);
  });

  it('refuses an archived record with 400, and a missing one, one of another type or a non-numeric id with 404', async () => {
    const actor = newActor();
    const live = await newContact(actor, { firstname: 'A' });
    const archived = await newContact(actor, { firstname: 'B' });
    await archiveRecord(contacts, actor.hubId, archived);
    const deal = (await createRecord(actor, deals, { properties: { dealname: 'D', dealstage: 'closedwon' } })).id;

    const outcomes = await Promise.all(
      [archived, '1999999999999999', deal, 'abc'].map(async (other) => {
        const refused = await refusalOf(
          mergeRecords(actor, contacts, { primaryObjectId: live, objectIdToMerge: other }),
        );
        return [refused.status, refused.message, refused.context];
      }),
    );

    expect(outcomes).toEqual([
      [400, `Contact ${archived} is archived: restore it before merging`, { objectIdToMerge: [archived] }],
      [404, 'Contact 1999999999999999 not found', { objectIdToMerge: ['1999999999999999'] }],
      [404, `Contact ${deal} not found`, { objectIdToMerge: [deal] }],
      [404, 'Contact abc not found', { objectIdToMerge: ['abc'] }],
    ]);
  });
});
