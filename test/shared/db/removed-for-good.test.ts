import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import { archivedRecordKey, mergedRecordKey, recordKey } from '../../../shared/db/keys';
import { findRemovedForGood } from '../../../shared/db/records';
import { findObjectType } from '../../../shared/objects/object-types';

/**
 * Whether a removed record item took its record with it, read from the real DynamoDB Local: what
 * an archive, a merge and a restore leave behind is written here as those writes leave it.
 */
const contacts = findObjectType('contacts');
if (!contacts) throw new Error('no contacts type');
const hubId = 700_000_000 + Math.floor(Math.random() * 99_000_000);

const put = (key: { pk: string; sk: string }) =>
  db.send(new PutCommand({ TableName: tableName, Item: { ...key, id: key.sk.split('#')[1], version: 2 } }));

describe('findRemovedForGood', () => {
  it('tells a GDPR delete (nothing left) from an archive, a merge and a restore', async () => {
    const archivedId = '1000000000000201';
    const mergedId = '1000000000000202';
    const restoredId = '1000000000000203';
    await put(archivedRecordKey(contacts, hubId, archivedId));
    await put(mergedRecordKey(contacts, hubId, mergedId));
    await put(recordKey(contacts, hubId, restoredId));

    const gone = await findRemovedForGood([
      { type: contacts, hubId, id: archivedId, isArchived: false },
      { type: contacts, hubId, id: mergedId, isArchived: false },
      { type: contacts, hubId, id: restoredId, isArchived: true },
      { type: contacts, hubId, id: '1000000000000204', isArchived: false },
      { type: contacts, hubId, id: '1000000000000205', isArchived: true },
      // The archived item of the first contact was removed too (a GDPR delete of the archived contact):
      // its active item is gone, so that removal took the record.
      { type: contacts, hubId, id: archivedId, isArchived: true },
    ]);

    expect([...gone].sort()).toEqual([3, 4, 5]);
  });

  it('reads nothing for no removals', async () => {
    expect(await findRemovedForGood([])).toEqual(new Set());
  });
});
