import { dynamoCallCounter } from '../../../shared/db/client';
import { requireObjectType } from '../../../shared/objects/object-types';
import { createRecord } from '../../../shared/records/create-record';
import { mergeRecords } from '../../../shared/records/merge-records';
import { findMergedRecords, maxMergeHops, maxRecordIdentities } from '../../../shared/records/merged-ids';
import { engineActors } from '../../support/engine-actors';

/**
 * Ids merged away and the records that hold them (shared/records/merged-ids.ts), against DynamoDB
 * Local: records merged by the record engine's merge, then looked up by every id they had.
 */
const deals = requireObjectType('deals');
const tickets = requireObjectType('tickets');

const newActor = engineActors(97_000_000, 1_000_000);
const newDeal = async (actor: ReturnType<typeof newActor>, dealname: string) =>
  (await createRecord(actor, deals, { properties: { dealname, dealstage: 'appointmentscheduled' } })).id;

describe('findMergedRecords', () => {
  it('answers both ids of a merge with the record that holds the result, and leaves out ids never merged', async () => {
    const actor = newActor();
    const [first, second, untouched] = [
      await newDeal(actor, 'first'),
      await newDeal(actor, 'second'),
      await newDeal(actor, 'untouched'),
    ];
    const merged = await mergeRecords(actor, deals, { primaryObjectId: first, objectIdToMerge: second });

    const found = await findMergedRecords(deals, actor.hubId, [first, second, untouched, '1999999999999999']);

    expect([...found.keys()].sort()).toEqual([first, second].sort());
    expect(found.get(first)?.id).toBe(merged.id);
    expect(found.get(second)?.id).toBe(merged.id);
    expect(merged.id).not.toBe(first);
    expect(merged.id).not.toBe(second);
  });

  it('follows every id of earlier merges to the record of the latest one', async () => {
    const actor = newActor();
    const ids = [await newDeal(actor, 'a'), await newDeal(actor, 'b'), await newDeal(actor, 'c')];
    const once = await mergeRecords(actor, deals, {
      primaryObjectId: ids[0] as string,
      objectIdToMerge: ids[1] as string,
    });
    const twice = await mergeRecords(actor, deals, { primaryObjectId: ids[2] as string, objectIdToMerge: once.id });

    const found = await findMergedRecords(deals, actor.hubId, [...ids, once.id]);

    expect(Object.fromEntries([...found].map(([id, record]) => [id, record.id]))).toEqual({
      [ids[0] as string]: twice.id,
      [ids[1] as string]: twice.id,
      [ids[2] as string]: twice.id,
      [once.id]: twice.id,
    });
  });

  it("keeps to the type's own merges, and reads nothing for no ids", async () => {
    const actor = newActor();
    const first = await newDeal(actor, 'first');
    await mergeRecords(actor, deals, { primaryObjectId: first, objectIdToMerge: await newDeal(actor, 'second') });
    dynamoCallCounter.reset();

    expect((await findMergedRecords(deals, actor.hubId, [])).size).toBe(0);
    expect(dynamoCallCounter.totalApartFromRetries()).toBe(0);
    expect((await findMergedRecords(tickets, actor.hubId, [first])).size).toBe(0);
    expect((await findMergedRecords(deals, newActor().hubId, [first])).size).toBe(0);
  });
});

describe('the bounds of merges', () => {
  it('follows at most one pointer fewer than a record has ids', () => {
    expect(maxRecordIdentities).toBe(250);
    expect(maxMergeHops).toBe(maxRecordIdentities - 1);
  });
});
