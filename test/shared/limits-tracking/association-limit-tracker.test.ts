import { randomInt } from 'node:crypto';
import { dynamoCallCounter } from '../../../shared/db/client';
import { trackAssociationLimits } from '../../../shared/limits-tracking/association-limit-tracker';
import { readAssociationRecordLimits } from '../../../shared/limits-tracking/association-limits';
import { streamRecord } from '../../support/stream-records';

/**
 * The stream consumer against DynamoDB Local, fed stream records as the stream hands them out:
 * markers follow a company's last state toward contacts, whatever the stream repeats.
 */
const companyId = '0000000000000042';
let hubId: number;

beforeEach(() => {
  hubId = randomInt(100_000_000_000, 900_000_000_000);
});

/** `count` contact association keys (unlabeled), plus `extraKeys` primary-style keys on the first ones. */
function associations(count: number, extraKeys = 0): Record<string, string> {
  const keys: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) keys[`0-1/${String(index + 1).padStart(16, '0')}/280`] = 'x';
  for (let index = 0; index < extraKeys; index += 1) keys[`0-1/${String(index + 1).padStart(16, '0')}/2`] = 'y';
  return keys;
}

function company(count: number, { isArchived = false, extraKeys = 0 } = {}): Record<string, unknown> {
  return {
    pk: `HUB#${hubId}`,
    sk: `${isArchived ? 'ARCHIVED_' : ''}COMPANY#${companyId}`,
    id: companyId,
    properties: { name: 'Crowded Inc' },
    history: {},
    associations: associations(count, extraKeys),
    uniqueValues: [],
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    archived: isArchived,
    version: 1,
  };
}

const pair = () => readAssociationRecordLimits(hubId, '0-2', '0-1');

describe('trackAssociationLimits', () => {
  it('marks a company with 800 contacts near the limit once, however often the stream hands the change out', async () => {
    const change = streamRecord('MODIFY', company(800), company(799), { recordId: 'c1' });

    await trackAssociationLimits([change]);
    await trackAssociationLimits([change, change]);

    expect(await pair()).toEqual({
      limit: 1000,
      totalRecordsNearLimit: 1,
      totalRecordsAtLimit: 0,
      nearLimitFromRecordSamples: [{ objectId: 42, label: 'Crowded Inc', usage: 800, percentage: 80 }],
      atLimitFromRecordSamples: [],
    });
  });

  it('moves the marker to at the limit at 1,000 contacts, and when the keys leave no room sooner', async () => {
    await trackAssociationLimits([streamRecord('MODIFY', company(900), company(799))]);
    await trackAssociationLimits([streamRecord('MODIFY', company(1000), company(900))]);
    const atThousand = await pair();
    await trackAssociationLimits([streamRecord('MODIFY', company(998, { extraKeys: 2 }), company(1000))]);

    expect(atThousand).toMatchObject({ totalRecordsNearLimit: 0, totalRecordsAtLimit: 1 });
    expect(await pair()).toMatchObject({
      totalRecordsNearLimit: 0,
      totalRecordsAtLimit: 1,
      atLimitFromRecordSamples: [{ objectId: 42, label: 'Crowded Inc' }],
    });
  });

  it('follows the last change of a record within one batch', async () => {
    await trackAssociationLimits([
      streamRecord('MODIFY', company(850), company(10)),
      streamRecord('MODIFY', company(10), company(850)),
    ]);

    expect(await pair()).toMatchObject({ totalRecordsNearLimit: 0, nearLimitFromRecordSamples: [] });
  });

  it('drops the marker when the record is archived, in whichever order its two items arrive', async () => {
    await trackAssociationLimits([streamRecord('MODIFY', company(850), company(10))]);
    const archivedInsert = streamRecord('INSERT', company(850, { isArchived: true }));
    const activeRemove = streamRecord('REMOVE', undefined, company(850));

    await trackAssociationLimits([archivedInsert]);
    const afterArchivedCopy = await pair();
    await trackAssociationLimits([activeRemove]);

    expect(afterArchivedCopy.totalRecordsNearLimit).toBe(1);
    expect(await pair()).toMatchObject({ totalRecordsNearLimit: 0, nearLimitFromRecordSamples: [] });
  });

  it('makes no DynamoDB call for records below the threshold in every image', async () => {
    dynamoCallCounter.reset();

    await trackAssociationLimits([
      streamRecord('MODIFY', company(799), company(10)),
      streamRecord('INSERT', company(5)),
    ]);

    expect(dynamoCallCounter.totalApartFromRetries()).toBe(0);
  });
});
