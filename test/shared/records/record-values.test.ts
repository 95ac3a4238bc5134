import { AppError, ValidationError } from '../../../shared/base/errors';
import type { CrmRecord, HistoryEntry } from '../../../shared/db/records';
import { requireObjectType, type ObjectType } from '../../../shared/objects/object-types';
import { createProperty, loadPropertySchema } from '../../../shared/properties/type-properties';
import {
  appendHistory,
  fitItemSize,
  historyEntry,
  maxUniqueValueBytes,
  normalizeValues,
  requireRecordProperties,
  toStringValues,
  uniqueNamespaceOf,
  uniqueSourceNames,
  uniqueValuesOf,
} from '../../../shared/records/record-values';
import { uniqueUnderscored } from '../../support/fresh-crm-account';

/**
 * The record engine's value rules (shared/records/record-values.ts): what a write's values become
 * before they are stored, which unique values a record claims, what a record must hold, and how
 * its history and size are kept. Custom definitions are read from DynamoDB Local, in hubs of their own.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');
const deals = requireObjectType('deals');
const products = requireObjectType('products');

let hubSeed = 95_000_000 + Math.floor(Math.random() * 1_000_000);
const newHubId = () => {
  hubSeed += 1;
  return hubSeed;
};
const actor = { hubId: 1, appId: 7, userId: 3 };

/** The error a call throws, for its fields to be compared. */
function thrownBy(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call threw nothing');
}

const standardSchema = (type: ObjectType, names: readonly string[]) => loadPropertySchema(type, 1, names);

describe('toStringValues', () => {
  it('keeps strings, prints numbers and booleans, and turns null into the empty string (a clear)', () => {
    expect(toStringValues({ name: 'Acme', numberofemployees: 12, is_public: true, city: null })).toEqual({
      name: 'Acme',
      numberofemployees: '12',
      is_public: 'true',
      city: '',
    });
  });

  it('keeps a property named like an Object.prototype member as an own value', () => {
    const values = toStringValues({ constructor: 'x', toString: 'y' });

    expect(Object.hasOwn(values, 'constructor')).toBe(true);
    expect(values.constructor).toBe('x');
    expect(values.toString).toBe('y');
  });
});

describe('normalizeValues: the unique property and its list', () => {
  it('stores an email trimmed and in lower case, and a domain without scheme, www. and path', async () => {
    expect(
      normalizeValues(contacts, { email: '  Ada@Example.COM ' }, await standardSchema(contacts, ['email'])).email,
    ).toBe('ada@example.com');
    expect(
      normalizeValues(
        companies,
        { domain: 'https://www.Example.com/about' },
        await standardSchema(companies, ['domain']),
      ).domain,
    ).toBe('example.com');
  });

  it("refuses a value that is no address with the type's own error code and message", async () => {
    const schema = await standardSchema(contacts, ['email']);

    const refused = thrownBy(() => normalizeValues(contacts, { email: 'not-an-address' }, schema));

    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.errors).toEqual([
      {
        message: 'Email address "not-an-address" is invalid',
        code: 'INVALID_EMAIL',
        in: 'email',
        context: { propertyName: ['email'] },
      },
    ]);
  });

  it('leaves an empty unique value alone (a clear is not checked as an address)', async () => {
    const schema = await standardSchema(contacts, ['email']);

    expect(normalizeValues(contacts, { email: '' }, schema)).toEqual({ email: '' });
  });

  it('normalizes each additional value, drops empty parts and repeats, and keeps the order', async () => {
    const schema = await standardSchema(contacts, ['hs_additional_emails']);

    const values = normalizeValues(
      contacts,
      { hs_additional_emails: ' B@Example.com ;; a@example.com;b@example.COM ; ' },
      schema,
    );

    expect(values.hs_additional_emails).toBe('b@example.com;a@example.com');
  });

  it('refuses the list when one of its values is invalid, naming the list', async () => {
    const schema = await standardSchema(companies, ['hs_additional_domains']);

    const refused = thrownBy(() =>
      normalizeValues(companies, { hs_additional_domains: 'example.com;not a domain' }, schema),
    );

    expect(refused.errors).toEqual([
      {
        message: 'Every additional domain must be a valid domain',
        code: 'INVALID_DOMAIN',
        in: 'hs_additional_domains',
        context: { propertyName: ['hs_additional_domains'] },
      },
    ]);
  });

  it('takes 20 distinct additional values and refuses 21 (repeats count once)', async () => {
    const schema = await standardSchema(contacts, ['hs_additional_emails']);
    const emails = (count: number) => Array.from({ length: count }, (_, index) => `a${index}@example.com`);

    expect(
      normalizeValues(
        contacts,
        { hs_additional_emails: [...emails(20), ...emails(20)].join(';') },
        schema,
      ).hs_additional_emails?.split(';'),
    ).toHaveLength(20);
    const refused = thrownBy(() => normalizeValues(contacts, { hs_additional_emails: emails(21).join(';') }, schema));
    expect(refused.errors?.map((error) => [error.in, error.message])).toEqual([
      ['hs_additional_emails', 'At most 20 additional emails are allowed'],
    ]);
  });

  it('reports every bad property in one error', async () => {
    const schema = await standardSchema(contacts, ['email', 'hs_additional_emails']);

    const refused = thrownBy(() =>
      normalizeValues(contacts, { email: 'nobody', hs_additional_emails: 'also nobody' }, schema),
    );

    expect(refused.context?.properties).toEqual(['email', 'hs_additional_emails']);
    expect(refused.errors?.map((error) => error.code)).toEqual(['INVALID_EMAIL', 'INVALID_EMAIL']);
  });
});

describe('normalizeValues: custom unique values', () => {
  it(`takes a unique value of ${maxUniqueValueBytes} bytes and refuses one byte more (it is part of a key)`, async () => {
    const hubId = newHubId();
    const name = uniqueUnderscored('code');
    await createProperty(contacts, hubId, 3, {
      name,
      label: 'Code',
      type: 'string',
      fieldType: 'text',
      groupName: 'contactinformation',
      hasUniqueValue: true,
    });
    const schema = await loadPropertySchema(contacts, hubId, [name]);

    expect(normalizeValues(contacts, { [name]: 'é'.repeat(maxUniqueValueBytes / 2) }, schema)[name]).toHaveLength(
      maxUniqueValueBytes / 2,
    );
    const refused = thrownBy(() =>
      normalizeValues(contacts, { [name]: `${'é'.repeat(maxUniqueValueBytes / 2)}x` }, schema),
    );
    expect(refused.errors?.map((error) => [error.in, error.code])).toEqual([[name, 'INVALID_STRING_LENGTH']]);
  });
});

describe('uniqueValuesOf and the namespaces of unique values', () => {
  it("claims the unique property's value and each additional value in the unique property's namespace", async () => {
    const schema = await standardSchema(companies, ['domain', 'hs_additional_domains', 'name']);

    const claimed = uniqueValuesOf(
      companies,
      { domain: 'a.example', hs_additional_domains: 'b.example;a.example', name: 'Acme' },
      schema,
      ['domain', 'hs_additional_domains', 'name'],
    );

    expect(claimed).toEqual([
      { propertyName: 'domain', value: 'a.example' },
      { propertyName: 'domain', value: 'b.example' },
    ]);
  });

  it('claims only among the given names, and nothing for an empty value', async () => {
    const schema = await standardSchema(contacts, ['email', 'hs_additional_emails']);
    const properties = { email: 'a@example.com', hs_additional_emails: 'b@example.com' };

    expect(uniqueValuesOf(contacts, properties, schema, ['hs_additional_emails'])).toEqual([
      { propertyName: 'email', value: 'b@example.com' },
    ]);
    expect(uniqueValuesOf(contacts, { email: '' }, schema, ['email'])).toEqual([]);
  });

  it('claims a custom unique property in its own namespace, and no value of a plain property', async () => {
    const hubId = newHubId();
    const name = uniqueUnderscored('sku_code');
    await createProperty(products, hubId, 3, {
      name,
      label: 'SKU code',
      type: 'string',
      fieldType: 'text',
      groupName: 'productinformation',
      hasUniqueValue: true,
    });
    const schema = await loadPropertySchema(products, hubId, [name, 'description']);

    expect(uniqueValuesOf(products, { [name]: 'X-1', description: 'X-1' }, schema, [name, 'description'])).toEqual([
      { propertyName: name, value: 'X-1' },
    ]);
    expect(uniqueSourceNames(products, name, schema)).toEqual([name]);
    expect(uniqueSourceNames(products, 'description', schema)).toEqual([]);
    expect(uniqueNamespaceOf(products, name)).toBe(name);
  });

  it('names the unique property and its list as the sources of either, and puts the list in the property namespace', async () => {
    const schema = await standardSchema(contacts, []);

    expect(uniqueSourceNames(contacts, 'email', schema)).toEqual(['email', 'hs_additional_emails']);
    expect(uniqueSourceNames(contacts, 'hs_additional_emails', schema)).toEqual(['email', 'hs_additional_emails']);
    expect(uniqueNamespaceOf(contacts, 'hs_additional_emails')).toBe('email');
    expect(uniqueNamespaceOf(contacts, 'email')).toBe('email');
  });
});

describe('requireRecordProperties', () => {
  it("refuses a record without the type's required properties, naming each", () => {
    const refused = thrownBy(() => requireRecordProperties(deals, { amount: '10' }));

    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.message).toBe('A deal needs the properties dealname, dealstage');
    expect(refused.context).toEqual({ properties: ['dealname', 'dealstage'] });
    expect(refused.errors).toEqual([
      { message: 'dealname is required', code: 'REQUIRED_PROPERTY', context: { propertyName: ['dealname'] } },
      { message: 'dealstage is required', code: 'REQUIRED_PROPERTY', context: { propertyName: ['dealstage'] } },
    ]);
  });

  it('counts an empty value as missing, and names one missing property in the singular', () => {
    expect(thrownBy(() => requireRecordProperties(deals, { dealname: 'A', dealstage: '' })).message).toBe(
      'A deal needs the property dealstage',
    );
  });

  it("passes a record that holds them, and applies the type's own rule on top", () => {
    expect(() => requireRecordProperties(deals, { dealname: 'A', dealstage: 'appointmentscheduled' })).not.toThrow();
    expect(thrownBy(() => requireRecordProperties(companies, { city: 'Berlin' })).context).toEqual({
      properties: ['name', 'domain'],
    });
    expect(() => requireRecordProperties(companies, { domain: 'a.example' })).not.toThrow();
    expect(thrownBy(() => requireRecordProperties(products, { price: '-1' })).errors?.[0]?.code).toBe('INVALID_PRICE');
  });
});

describe('history', () => {
  it('writes an entry from the integration that is the app', () => {
    expect(historyEntry('x', '2024-01-01T00:00:00.000Z', actor)).toEqual({
      value: 'x',
      timestamp: '2024-01-01T00:00:00.000Z',
      sourceType: 'INTEGRATION',
      sourceId: '7',
    });
  });

  it('puts the newest entry first and keeps the newest 20', () => {
    let history: HistoryEntry[] | undefined;
    for (let index = 0; index < 25; index += 1)
      history = appendHistory(history, historyEntry(String(index), '2024-01-01T00:00:00.000Z', actor));

    expect(history?.map((entry) => entry.value)).toEqual(Array.from({ length: 20 }, (_, index) => String(24 - index)));
  });
});

describe('fitItemSize', () => {
  const entries = (value: string, count: number) =>
    Array.from({ length: count }, () => historyEntry(value, '2024-01-01T00:00:00.000Z', actor));
  const record = (properties: Record<string, string>, history: CrmRecord['history']): CrmRecord => ({
    id: '1000000000000001',
    properties,
    history,
    associations: {},
    uniqueValues: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    archived: false,
    version: 1,
  });

  it('leaves a record that fits as it is', () => {
    const small = record({ name: 'a' }, { name: entries('a', 3) });

    expect(fitItemSize(small)).toBe(small);
  });

  it("shortens every property's history to its newest entry before it refuses", () => {
    const value = 'v'.repeat(20_000);
    const large = record({ a: value, b: value }, { a: entries(value, 10), b: entries(value, 10) });

    const fitted = fitItemSize(large);

    expect(Object.values(fitted.history).map((history) => history.length)).toEqual([1, 1]);
    expect(fitted.properties).toBe(large.properties);
  });

  it('refuses a record whose values alone do not fit', () => {
    const value = 'v'.repeat(100_000);
    const properties = { a: value, b: value, c: value, d: value };

    const refused = thrownBy(() =>
      fitItemSize(record(properties, { a: entries(value, 1), b: entries(value, 1), c: entries(value, 1) })),
    );

    expect(refused.status).toBe(400);
    expect(refused.message).toBe('The record would exceed the maximum record size; shorten its property values');
    expect(refused.context).toEqual({ properties: ['a', 'b', 'c', 'd'] });
  });
});
