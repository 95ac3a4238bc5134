import * as recordsDb from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import { archiveRecord, deleteRecordForGoodById } from '../../../shared/records/archive-record';
import { createRecord } from '../../../shared/records/create-record';
import { getRecord, resolveRecordId } from '../../../shared/records/read-records';
import { unique } from '../../support/harness';
import { engineActors } from '../../support/engine-actors';

/**
 * A record to the recycle bin, and a record deleted for good (shared/records/archive-record.ts),
 * against DynamoDB Local.
 */
const contacts = requireObjectType('contacts');

const newActor = engineActors(93_500_000, 400_000);

describe('archiveRecord', () => {
  it('keeps an archived copy readable with archived=true, and the active record is gone', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'Ada' } });

    expect(await archiveRecord(contacts, actor.hubId, id)).toBe(true);

    await expect(getRecord(contacts, actor.hubId, id, {})).rejects.toMatchObject({ status: 404 });
    const archived = await getRecord(contacts, actor.hubId, id, { archived: true, properties: 'firstname' });
    expect(archived).toMatchObject({ id, archived: true, properties: { firstname: 'Ada' } });
    expect(archived.archivedAt).toEqual(expect.any(String));
  });

  it('frees its unique values: a new record may take the email', async () => {
    const actor = newActor();
    const email = `${unique('freed')}@example.com`;
    const { id } = await createRecord(actor, contacts, { properties: { email } });

    await archiveRecord(contacts, actor.hubId, id);

    expect(await resolveRecordId(contacts, actor.hubId, email, 'email')).toBeUndefined();
    const again = await createRecord(actor, contacts, { properties: { email } });
    expect(await resolveRecordId(contacts, actor.hubId, email, 'email')).toBe(again.id);
  });

  it('answers false for a missing record, an archived one and an id that is no id', async () => {
    const actor = newActor();
    const { id } = await createRecord(actor, contacts, { properties: { firstname: 'A' } });
    await archiveRecord(contacts, actor.hubId, id);

    expect(await archiveRecord(contacts, actor.hubId, id)).toBe(false);
    expect(await archiveRecord(contacts, actor.hubId, '1999999999999999')).toBe(false);
    expect(await archiveRecord(contacts, actor.hubId, 'abc')).toBe(false);
  });
});

describe('deleteRecordForGoodById', () => {
  const exhausted = () => {
    throw new Error('a change won every retry');
  };

  it('deletes an active record and an archived one with their unique values, answering what it deleted', async () => {
    const actor = newActor();
    const email = `${unique('gone')}@example.com`;
    const active = await createRecord(actor, contacts, { properties: { email } });
    const archived = await createRecord(actor, contacts, { properties: { firstname: 'B' } });
    await archiveRecord(contacts, actor.hubId, archived.id);

    expect((await deleteRecordForGoodById(contacts, actor.hubId, active.id, exhausted))?.properties.email).toBe(email);
    expect((await deleteRecordForGoodById(contacts, actor.hubId, archived.id, exhausted))?.id).toBe(archived.id);

    for (const id of [active.id, archived.id]) {
      expect(await recordsDb.findRecord(contacts, actor.hubId, id)).toBeUndefined();
      expect(await recordsDb.findRecord(contacts, actor.hubId, id, true)).toBeUndefined();
    }
    expect(await resolveRecordId(contacts, actor.hubId, email, 'email')).toBeUndefined();
  });

  it('answers undefined when there is no such record', async () => {
    expect(await deleteRecordForGoodById(contacts, newActor().hubId, '1999999999999999', exhausted)).toBeUndefined();
  });
});
