import { performance } from 'node:perf_hooks';
import { dynamoCallCounter } from '../../../shared/db/client';
import * as records from '../../../shared/db/records';
import { findObjectType } from '../../../shared/objects/object-types';
import { batchCreateRecords } from '../../../shared/records/batch-records';
import { unique } from '../../support/harness';

const contacts = findObjectType('contacts');
if (!contacts) throw new Error('contacts are a registry type');
let hubSeed = 91_000_000 + Math.floor(Math.random() * 1_000_000);
const actorOfNewHub = () => {
  hubSeed += 1;
  return { hubId: hubSeed, appId: 7, userId: 3 };
};
const inputs = (count: number) =>
  Array.from({ length: count }, () => ({ properties: { email: `${unique('deadline')}@example.com` } }));

describe('batch create and the function deadline', () => {
  it('writes a batch of 100 contacts in twelve grouped transactions', async () => {
    const actor = actorOfNewHub();
    dynamoCallCounter.reset();

    const answer = await batchCreateRecords(actor, contacts, { inputs: inputs(100) });

    expect(answer.results).toHaveLength(100);
    // Five items a contact (record, projection, email claim, two ordered-index keys), nine to a 50-item group with its count.
    expect(dynamoCallCounter.calls.get('TransactWriteItemsCommand')).toBe(12);
    const page = await records.listRecords(contacts, actor.hubId, false, 100, undefined);
    expect(page.records).toHaveLength(100);
  });

  it('answers 503 and writes nothing when its checks leave too little time before the timeout', async () => {
    const actor = actorOfNewHub();

    await expect(
      batchCreateRecords(actor, contacts, { inputs: inputs(100) }, performance.now() + 1000),
    ).rejects.toMatchObject({ status: 503 });

    const page = await records.listRecords(contacts, actor.hubId, false, 10, undefined);
    expect(page.records).toEqual([]);
  });
});
