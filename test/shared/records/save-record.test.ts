import * as recordsDb from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import { createRecord } from '../../../shared/records/create-record';
import { addedEdges, saveRecordChange } from '../../../shared/records/save-record';
import { updateRecord } from '../../../shared/records/update-record';
import { engineActors } from '../../support/engine-actors';

/**
 * How the record engine saves a change (shared/records/save-record.ts), against DynamoDB Local: on
 * the version it read, read again and built again when another write came first.
 */
const contacts = requireObjectType('contacts');

const newActor = engineActors(89_000_000, 900_000);

describe('saveRecordChange', () => {
  it('builds the change again from a fresh read when another write came between its read and its write', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'Ada' } });
    const versionsRead: number[] = [];

    const saved = await saveRecordChange(contacts, actor.hubId, id, async (record) => {
      versionsRead.push(record.version);
      // The first time only: a concurrent update lands after this read.
      if (versionsRead.length === 1) await updateRecord(actor, contacts, id, { properties: { city: 'London' } });
      return {
        record: {
          ...record,
          properties: { ...record.properties, lastname: 'Lovelace' },
          version: record.version + 1,
        },
        expectedVersion: record.version,
        addUnique: [],
        removeUnique: [],
        linked: [],
      };
    });

    expect(versionsRead).toEqual([1, 2]);
    expect(saved?.write?.record.version).toBe(3);
    expect((await recordsDb.findRecord(contacts, actor.hubId, id))?.properties).toEqual({
      firstname: 'Ada',
      city: 'London',
      lastname: 'Lovelace',
      lifecyclestage: 'lead',
    });
  });

  it('answers the record read and no write when the change builds none, and undefined for a missing record', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'Ada' } });
    let built = 0;
    const build = () => {
      built += 1;
      return undefined;
    };

    const unchanged = await saveRecordChange(contacts, actor.hubId, id, build);
    const missing = await saveRecordChange(contacts, actor.hubId, '1999999999999999', build);

    expect(unchanged?.record.id).toBe(id);
    expect(unchanged?.write).toBeUndefined();
    expect(missing).toBeUndefined();
    expect(built).toBe(1);
  });
});

describe('addedEdges', () => {
  it('names each record of a type this service does not store (an id the registry does not know) that the change newly associates, once', () => {
    expect(
      addedEdges(
        { '0-998/5/1001': 'kept' },
        {
          '0-998/5/1001': 'kept',
          '0-998/6/1001': 'a',
          '0-998/6/1002': 'b',
          '0-999/6/1003': 'c',
          '0-2/123/279': 'stored',
        },
      ),
    ).toEqual([
      { objectTypeId: '0-998', objectId: '6' },
      { objectTypeId: '0-999', objectId: '6' },
    ]);
  });
});
