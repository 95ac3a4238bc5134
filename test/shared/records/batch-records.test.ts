import { dynamoCallCounter } from '../../../shared/db/client';
import * as recordsDb from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import {
  batchReadRecords,
  createPreparedRecords,
  requireFreeUniqueValues,
} from '../../../shared/records/batch-records';
import { createRecord, prepareRecord } from '../../../shared/records/create-record';
import { mergeRecords } from '../../../shared/records/merge-records';
import { unique } from '../../support/harness';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * The batch rules of the record engine (shared/records/batch-records.ts), against DynamoDB Local:
 * the writes of checked creates and what each input answers, the unique values a batch checks
 * across its inputs, and a batch read by id or unique value.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');

const newActor = engineActors(90_000_000, 900_000);

describe('createPreparedRecords', () => {
  it('answers each input in order, a refused one with its own error and status, and writes the others', async () => {
    const actor = newActor();
    const [email, other] = [`${unique('same')}@example.com`, `${unique('other')}@example.com`];
    // Prepared one by one, so no check across them: two claim one email.
    const prepared = [
      await prepareRecord(actor, contacts, { properties: { email } }),
      await prepareRecord(actor, contacts, { properties: { email: other } }),
      await prepareRecord(actor, contacts, { properties: { email } }),
    ];

    const outcomes = await createPreparedRecords(actor, contacts, prepared);

    expect(outcomes).toHaveLength(3);
    const records = outcomes.flatMap((outcome) => ('record' in outcome ? [outcome.record] : []));
    const errors = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome.error] : []));
    expect(records.map((record) => record.properties.email).sort()).toEqual([email, other].sort());
    expect('record' in (outcomes[1] ?? {})).toBe(true);
    expect(errors).toHaveLength(1);
    const holder = records.find((record) => record.properties.email === email);
    expect([errors[0]?.status, errors[0]?.category, errors[0]?.message]).toEqual([
      409,
      'CONFLICT',
      `Contact already exists. Existing ID: ${holder?.id}`,
    ]);
    expect((await recordsDb.listRecords(contacts, actor.hubId, false, 10, undefined)).records).toHaveLength(2);
  });

  it('answers 503 with Retry-After and writes nothing when too little time is left to start', async () => {
    const actor = newActor();
    const prepared = [await prepareRecord(actor, contacts, { properties: { firstname: 'A' } })];

    const refused = await refusalOf(createPreparedRecords(actor, contacts, prepared, performance.now() + 1000));

    expect([refused.status, refused.headers?.['retry-after']]).toEqual([503, '1']);
    expect((await recordsDb.listRecords(contacts, actor.hubId, false, 10, undefined)).records).toEqual([]);
  });

  it("answers an input left unwritten by the caller's clock with its own SERVICE_UNAVAILABLE, naming the input", async () => {
    const actor = newActor();
    const prepared = [
      await prepareRecord(actor, contacts, { properties: { firstname: 'A' } }),
      await prepareRecord(actor, contacts, { properties: { firstname: 'B' } }),
    ];
    let asked = 0;

    const outcomes = await createPreparedRecords(actor, contacts, prepared, Number.POSITIVE_INFINITY, () => {
      asked += 1;
      return asked > 1;
    });

    expect(
      outcomes.map((outcome) => ('error' in outcome ? [outcome.error.status, outcome.error.context?.input] : 'record')),
    ).toEqual([
      [503, ['0']],
      [503, ['1']],
    ]);
    expect((await recordsDb.listRecords(contacts, actor.hubId, false, 10, undefined)).records).toEqual([]);
  });
});

describe('requireFreeUniqueValues', () => {
  it('refuses one value sent by two inputs with 400 naming it', async () => {
    const email = `${unique('twice')}@example.com`;

    const refused = await refusalOf(
      requireFreeUniqueValues(contacts, newActor().hubId, [{ values: [email] }, { values: [email] }]),
    );

    expect([refused.status, refused.message, refused.context]).toEqual([
      400,
      `Duplicate values of email found in batch input: [${email}]. Values must be unique`,
      { email: [email] },
    ]);
  });

  it("refuses a value another record holds with the type's 409, and passes the input that is that record", async () => {
    const actor = newActor();
    const email = `${unique('held')}@example.com`;
    const holder = await createRecord(actor, contacts, { properties: { email } });

    const refused = await refusalOf(requireFreeUniqueValues(contacts, actor.hubId, [{ values: [email] }]));

    expect([refused.status, refused.message]).toEqual([409, `Contact already exists. Existing ID: ${holder.id}`]);
    await expect(
      requireFreeUniqueValues(contacts, actor.hubId, [{ ownId: holder.id, values: [email] }]),
    ).resolves.toBeUndefined();
  });

  it('reads nothing for a type whose duplicate fails only its own input', async () => {
    dynamoCallCounter.reset();

    await requireFreeUniqueValues(companies, newActor().hubId, [{ values: ['a.example'] }, { values: ['a.example'] }]);

    expect(dynamoCallCounter.totalApartFromRetries()).toBe(0);
  });
});

describe('batchReadRecords', () => {
  it('reads by id and by unique value, each record once, and names the ids it did not find', async () => {
    const actor = newActor();
    const email = `${unique('read')}@example.com`;
    const { id } = await createRecord(actor, contacts, { properties: { email, firstname: 'Ada' } });

    const byId = await batchReadRecords(contacts, actor.hubId, {
      inputs: [{ id }, { id }, { id: '1999999999999999' }, { id: 'abc' }],
      properties: ['firstname'],
    });
    const byEmail = await batchReadRecords(contacts, actor.hubId, {
      inputs: [{ id: email.toUpperCase() }],
      idProperty: 'email',
    });

    expect(byId.results.map((view) => [view.id, view.properties.firstname])).toEqual([[id, 'Ada']]);
    expect(byId.errors?.map((error) => [error.category, error.context.ids])).toEqual([
      ['OBJECT_NOT_FOUND', ['1999999999999999', 'abc']],
    ]);
    expect(byEmail.results.map((view) => view.id)).toEqual([id]);
  });

  it('reads an id merged away as the record that holds the merge', async () => {
    const actor = newActor();
    const first = (await createRecord(actor, contacts, { properties: { firstname: 'A' } })).id;
    const second = (await createRecord(actor, contacts, { properties: { firstname: 'B' } })).id;
    const merged = await mergeRecords(actor, contacts, { primaryObjectId: first, objectIdToMerge: second });

    const read = await batchReadRecords(contacts, actor.hubId, { inputs: [{ id: first }, { id: second }] });

    expect(read.results.map((view) => view.id)).toEqual([merged.id]);
    expect(read.errors).toBeUndefined();
  });
});
