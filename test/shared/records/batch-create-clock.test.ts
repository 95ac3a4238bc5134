import * as records from '../../../shared/db/records';
import { findObjectType } from '../../../shared/objects/object-types';
import { batchCreateRecords } from '../../../shared/records/batch-records';
import { unique } from '../../support/harness';

/**
 * A batch create under a caller's clock (the fixtures' WriteClock): once the clock says the time is up,
 * no write of the batch starts, the grouped ones nor the inputs written one by one after them.
 */
const contacts = findObjectType('contacts');
if (!contacts) throw new Error('contacts are a registry type');
let hubSeed = 93_000_000 + Math.floor(Math.random() * 1_000_000);
const actorOfNewHub = () => {
  hubSeed += 1;
  return { hubId: hubSeed, appId: 7, userId: 3 };
};
const inputs = (count: number) =>
  Array.from({ length: count }, () => ({ properties: { email: `${unique('clock')}@example.com` } }));

describe('batch create and its caller clock', () => {
  it('writes none of the inputs one by one once the clock is out of time, and answers each as SERVICE_UNAVAILABLE', async () => {
    const actor = actorOfNewHub();
    // In time for the checks, out of time from the first write on: every group is skipped, so every
    // input reaches the one-by-one path, which must not write it either.
    let asked = 0;
    const isOutOfTime = () => {
      asked += 1;
      return asked > 1;
    };

    const answer = await batchCreateRecords(
      actor,
      contacts,
      { inputs: inputs(5) },
      Number.POSITIVE_INFINITY,
      isOutOfTime,
    );

    expect(answer.results).toEqual([]);
    expect(answer.errors?.map((error) => error.category)).toEqual(Array(5).fill('SERVICE_UNAVAILABLE'));
    expect(answer.errors?.map((error) => error.context.input)).toEqual([['0'], ['1'], ['2'], ['3'], ['4']]);
    const page = await records.listRecords(contacts, actor.hubId, false, 10, undefined);
    expect(page.records).toEqual([]);
  });

  it('writes every input while the clock has time', async () => {
    const actor = actorOfNewHub();

    const answer = await batchCreateRecords(
      actor,
      contacts,
      { inputs: inputs(5) },
      Number.POSITIVE_INFINITY,
      () => false,
    );

    expect(answer.results).toHaveLength(5);
    expect(answer.errors).toBeUndefined();
    const page = await records.listRecords(contacts, actor.hubId, false, 10, undefined);
    expect(page.records).toHaveLength(5);
  });
});
