import type { CrmRecord } from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';
import type { PropertyDefinition } from '../../../shared/properties/property-definition';
import {
  associationKey,
  associationsOf,
  defaultsAnd,
  namesNeedingDefinitions,
  parseAssociationKey,
  parseAssociationTypes,
  parseNameList,
  propertyValue,
  standardLookupOf,
  toRecordView,
} from '../../../shared/records/record-view';

/**
 * The v3 record shape (shared/records/record-view.ts): which properties a read answers with and
 * how, the values the platform keeps, and the associations by type.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');
const deals = requireObjectType('deals');
const lineItems = requireObjectType('line_items');

const written = { timestamp: '2024-03-01T10:00:00.000Z', sourceType: 'INTEGRATION', sourceId: '7' };
const record = (properties: Record<string, string>, associations: Record<string, string> = {}): CrmRecord => ({
  id: '1000000000000042',
  properties,
  history: Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, [{ value, ...written }]])),
  associations,
  uniqueValues: [],
  createdAt: '2024-03-01T10:00:00.000Z',
  updatedAt: '2024-03-02T11:00:00.000Z',
  archived: false,
  version: 1,
});

describe('parseNameList', () => {
  it('splits comma-joined and repeated values, trims them and drops repeats and empty names', () => {
    expect(parseNameList('name, domain,,name')).toEqual(['name', 'domain']);
    expect(parseNameList(['name,city', ' phone ', 'city'])).toEqual(['name', 'city', 'phone']);
  });

  it('answers undefined (the defaults) for no parameter and for one with no name in it', () => {
    expect(parseNameList(undefined)).toBeUndefined();
    expect(parseNameList('')).toBeUndefined();
    expect(parseNameList([' , '])).toBeUndefined();
  });
});

describe('parseAssociationTypes', () => {
  it('resolves names and ids, ignores unknown types and keeps each type once', () => {
    expect(parseAssociationTypes('companies,0-1,unicorns,contacts,0-2')?.map((type) => type.name)).toEqual([
      'companies',
      'contacts',
    ]);
    expect(parseAssociationTypes(undefined)).toBeUndefined();
  });
});

describe('associationKey and parseAssociationKey', () => {
  it('read back what they write, and refuse a key with a part missing', () => {
    expect(parseAssociationKey(associationKey('0-2', '123', 280))).toEqual({
      toObjectTypeId: '0-2',
      toObjectId: '123',
      typeId: 280,
    });
    expect(parseAssociationKey('0-2/123')).toBeUndefined();
  });
});

describe('associationsOf', () => {
  const associations = {
    [associationKey('0-2', '20', 280)]: 'contact_to_company',
    [associationKey('0-2', '3', 280)]: 'contact_to_company',
    [associationKey('0-2', '100', 1)]: 'contact_to_company',
    [associationKey('0-2', '3', 1)]: 'contact_to_company',
    [associationKey('0-3', '7', 4)]: 'contact_to_deal',
  };

  it('answers the requested types by name, ids in numeric order (then by type), and each association its type', () => {
    expect(associationsOf(record({}, associations), [companies])).toEqual({
      companies: {
        results: [
          { id: '3', type: 'contact_to_company' },
          { id: '3', type: 'contact_to_company' },
          { id: '20', type: 'contact_to_company' },
          { id: '100', type: 'contact_to_company' },
        ],
      },
    });
  });

  it('leaves out a requested type without associations, and answers undefined when none has any', () => {
    expect(Object.keys(associationsOf(record({}, associations), [deals, lineItems]) ?? {})).toEqual(['deals']);
    expect(associationsOf(record({}, associations), [lineItems])).toBeUndefined();
  });
});

describe('propertyValue: the values the platform keeps', () => {
  it("answers the id and the create and modified dates under each of the type's names", () => {
    const stored = record({ firstname: 'Ada' });

    expect(propertyValue(contacts, stored, 'hs_object_id')).toBe('1000000000000042');
    expect(propertyValue(contacts, stored, 'createdate')).toBe('2024-03-01T10:00:00.000Z');
    expect(propertyValue(contacts, stored, 'hs_createdate')).toBe('2024-03-01T10:00:00.000Z');
    expect(propertyValue(contacts, stored, 'lastmodifieddate')).toBe('2024-03-02T11:00:00.000Z');
    expect(propertyValue(contacts, stored, 'hs_lastmodifieddate')).toBe('2024-03-02T11:00:00.000Z');
    expect(propertyValue(contacts, stored, 'firstname')).toBe('Ada');
  });

  it("answers a contact's primary company as associatedcompanyid, and nothing without one", () => {
    const primary = record({}, { [associationKey('0-2', '55', 279)]: 'x', [associationKey('0-2', '77', 1)]: 'y' });

    expect(propertyValue(contacts, primary, 'associatedcompanyid')).toBe('77');
    expect(
      propertyValue(contacts, record({}, { [associationKey('0-2', '55', 279)]: 'x' }), 'associatedcompanyid'),
    ).toBe(undefined);
  });

  it("answers what the type's rules compute, never a stored value of the same name", () => {
    expect(propertyValue(lineItems, record({ price: '3', quantity: '2', amount: '99' }), 'amount')).toBe('6');
  });

  it('does not answer a name inherited from Object.prototype', () => {
    expect(propertyValue(contacts, record({}), 'constructor')).toBeUndefined();
  });
});

describe('toRecordView', () => {
  it('answers the defaults when no properties are named, a property without a value as null', () => {
    const view = toRecordView(companies, record({ name: 'Acme', city: 'Berlin' }), {});

    expect(view).toEqual({
      id: '1000000000000042',
      properties: {
        createdate: '2024-03-01T10:00:00.000Z',
        domain: null,
        hs_lastmodifieddate: '2024-03-02T11:00:00.000Z',
        hs_object_id: '1000000000000042',
        name: 'Acme',
      },
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-03-02T11:00:00.000Z',
      archived: false,
    });
  });

  it('leaves out unknown names, and with omitUnset properties without a value too', () => {
    const stored = record({ name: 'Acme' });
    const options = { properties: ['name', 'city', 'no_such_property'] };

    expect(toRecordView(companies, stored, options).properties).toEqual({ name: 'Acme', city: null });
    expect(toRecordView(companies, stored, options, standardLookupOf(companies), true).properties).toEqual({
      name: 'Acme',
    });
  });

  it('answers a custom property only while the lookup knows it (values of an archived one stay stored)', () => {
    const stored = record({ name: 'Acme', tier: 'gold' });
    const tier = { name: 'tier', type: 'string', fieldType: 'text' } as PropertyDefinition;
    const withTier = { find: (name: string) => (name === 'tier' ? tier : standardLookupOf(companies).find(name)) };

    expect(toRecordView(companies, stored, { properties: ['tier'] }, withTier).properties).toEqual({ tier: 'gold' });
    expect(toRecordView(companies, stored, { properties: ['tier'] }).properties).toEqual({});
  });

  it('answers stored history as written and a kept value as one CALCULATED entry at its time', () => {
    const view = toRecordView(companies, record({ name: 'Acme' }), {
      properties: [],
      propertiesWithHistory: ['name', 'hs_lastmodifieddate', 'createdate', 'city', 'no_such_property'],
    });

    expect(view.propertiesWithHistory).toEqual({
      name: [{ value: 'Acme', ...written }],
      hs_lastmodifieddate: [
        { value: '2024-03-02T11:00:00.000Z', timestamp: '2024-03-02T11:00:00.000Z', sourceType: 'CALCULATED' },
      ],
      createdate: [
        { value: '2024-03-01T10:00:00.000Z', timestamp: '2024-03-01T10:00:00.000Z', sourceType: 'CALCULATED' },
      ],
      city: [],
    });
  });

  it('answers archivedAt and the requested associations when there are any', () => {
    const archived = {
      ...record({ name: 'Acme' }, { [associationKey('0-1', '9', 280)]: 'company_to_contact' }),
      archived: true,
      archivedAt: '2024-04-01T00:00:00.000Z',
    };

    const view = toRecordView(companies, archived, { properties: ['name'], associations: [contacts, deals] });

    expect(view.archived).toBe(true);
    expect(view.archivedAt).toBe('2024-04-01T00:00:00.000Z');
    expect(view.associations).toEqual({ contacts: { results: [{ id: '9', type: 'company_to_contact' }] } });
    expect('associations' in toRecordView(companies, archived, { associations: [deals] })).toBe(false);
  });
});

describe('defaultsAnd and namesNeedingDefinitions', () => {
  it('answers a write with the defaults and every property it sent, each once', () => {
    expect(defaultsAnd(companies, ['city', 'name'])).toEqual([...companies.defaultProperties, 'city']);
  });

  it('names only what the standard catalog does not know, among the properties and history asked for', () => {
    expect(namesNeedingDefinitions(companies, {})).toEqual([]);
    expect(
      namesNeedingDefinitions(companies, { properties: ['name', 'tier'], propertiesWithHistory: ['city', 'score'] }),
    ).toEqual(['tier', 'score']);
  });
});
