import { requireObjectType } from '../../../shared/objects/object-types';
import { createProperty } from '../../../shared/properties/type-properties';
import { createRecord } from '../../../shared/records/create-record';
import {
  getRecord,
  recordNotFound,
  requireIdProperty,
  resolveRecordId,
  uniqueValueOf,
} from '../../../shared/records/read-records';
import { uniqueUnderscored } from '../../support/fresh-crm-account';
import { engineActors, refusalOf } from '../../support/engine-actors';

/**
 * How a read finds a record (shared/records/read-records.ts): by id or by a unique value, in the
 * form the type stores it, and what it answers when nothing holds it; against DynamoDB Local.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');

const newActor = engineActors(99_500_000, 400_000);

describe('reading a record by id and by unique value', () => {
  it('finds a record by its id and by its unique value in any spelling the type normalizes', async () => {
    const actor = newActor();
    const created = await createRecord(actor, contacts, { properties: { email: 'ada@example.com' } });

    expect((await getRecord(contacts, actor.hubId, created.id, {})).id).toBe(created.id);
    expect(await resolveRecordId(contacts, actor.hubId, ' ADA@example.com', 'email')).toBe(created.id);
    expect(
      (await getRecord(contacts, actor.hubId, 'Ada@Example.com', { idProperty: 'email', properties: 'email' }))
        .properties,
    ).toEqual({ email: 'ada@example.com' });
  });

  it('answers a missing record, one of another account, and a non-numeric id with the not-found error', async () => {
    const actor = newActor();
    const created = await createRecord(actor, contacts, { properties: { email: 'x@example.com' } });

    const missing = await refusalOf(getRecord(contacts, actor.hubId, '1999999999999999', {}));
    const otherAccount = await refusalOf(getRecord(contacts, newActor().hubId, created.id, {}));
    const notNumeric = await refusalOf(getRecord(contacts, actor.hubId, 'abc', {}));

    expect([missing.status, missing.message, missing.context]).toEqual([
      404,
      'resource not found',
      { id: ['1999999999999999'] },
    ]);
    expect([otherAccount.status, otherAccount.message, otherAccount.context]).toEqual([
      404,
      recordNotFound(created.id).message,
      { id: [created.id] },
    ]);
    expect([notNumeric.status, notNumeric.message]).toEqual([404, 'Object not found.  objectId are usually numeric.']);
  });

  it('takes the id, the unique property or a custom unique property as idProperty, and refuses any other', async () => {
    const actor = newActor();
    const code = uniqueUnderscored('code');
    await createProperty(companies, actor.hubId, 3, {
      name: code,
      label: 'Code',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
      hasUniqueValue: true,
    });

    expect(await requireIdProperty(companies, actor.hubId, undefined)).toBe('hs_object_id');
    expect(await requireIdProperty(companies, actor.hubId, 'domain')).toBe('domain');
    expect(await requireIdProperty(companies, actor.hubId, code)).toBe(code);
    const refused = await refusalOf(requireIdProperty(companies, actor.hubId, 'name'));
    expect([refused.status, refused.message]).toEqual([400, 'idProperty "name" is not a property with unique values']);
    expect((await refusalOf(requireIdProperty(companies, actor.hubId, 'no_such_property'))).status).toBe(400);
  });

  it('normalizes only the unique property of the type, and finds nothing for a value no key could hold', () => {
    expect(uniqueValueOf(companies, 'domain', 'https://www.Example.com/x')).toBe('example.com');
    expect(uniqueValueOf(companies, 'my_code', ' Mixed ')).toBe(' Mixed ');
    expect(uniqueValueOf(companies, 'domain', 'not a domain')).toBeUndefined();
    expect(uniqueValueOf(companies, 'my_code', 'x'.repeat(801))).toBeUndefined();
    expect(uniqueValueOf(companies, 'my_code', '')).toBeUndefined();
  });
});
