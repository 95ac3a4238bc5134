import { MissingScopesError, ValidationError } from '../../../shared/base/errors';
import { resolveScopedType } from '../../../shared/http/auth';
import {
  anyStoredObjectReadScopes,
  anyStoredObjectWriteScopes,
  anyStoredPropertyReadScopes,
  anyStoredPropertyWriteScopes,
} from '../../../shared/objects/object-type-scopes';
import {
  findObjectType,
  objectTypes,
  requireObjectType,
  requireMergeableObjectType,
  requireStoredObjectType,
  storedObjectTypes,
} from '../../../shared/objects/object-types';

describe('the object-type registry', () => {
  it.each([
    ['contacts', '0-1'],
    ['CONTACT', '0-1'],
    ['0-2', '0-2'],
    ['Companies', '0-2'],
    ['company', '0-2'],
    ['deals', '0-3'],
    ['0-5', '0-5'],
    ['Tickets', '0-5'],
    ['notes', '0-46'],
  ])('resolves %s to %s (plural, singular or id, any case)', (token, id) => {
    expect(requireObjectType(token).id).toBe(id);
  });

  it('answers 400 VALIDATION_ERROR naming an unknown token, under objectType or the field given', () => {
    expect(() => requireObjectType('widgets')).toThrow(ValidationError);
    expect(() => requireObjectType('widgets')).toThrow(/widgets/);
    try {
      requireObjectType('widgets', 'toObjectType');
    } catch (error) {
      expect(error).toMatchObject({
        status: 400,
        category: 'VALIDATION_ERROR',
        context: { toObjectType: ['widgets'] },
      });
    }
    expect(findObjectType('0-9999')).toBeUndefined();
  });

  it('stores contacts, companies, deals, tickets, products, line items and the five activities, by type id; merges the first four only', () => {
    expect(storedObjectTypes.map((type) => type.name)).toEqual([
      'contacts',
      'companies',
      'deals',
      'tickets',
      'products',
      'line_items',
      'tasks',
      'notes',
      'meetings',
      'calls',
      'emails',
    ]);
    expect(requireStoredObjectType('0-2').name).toBe('companies');
    expect(requireStoredObjectType('0-8').name).toBe('line_items');
    expect(requireMergeableObjectType('DEALS').name).toBe('deals');
    for (const token of ['notes', '0-47', 'products', 'line_item'])
      expect(() => requireMergeableObjectType(token)).toThrow(
        expect.objectContaining({ status: 400, category: 'VALIDATION_ERROR', context: { objectType: [token] } }),
      );
  });

  it('gives each stored type its own key prefix and search partition tag, companies keeping theirs', () => {
    const prefixes = storedObjectTypes.map((type) => type.keyPrefix);
    expect(prefixes).toEqual([
      'CONTACT',
      'COMPANY',
      'DEAL',
      'TICKET',
      'PRODUCT',
      'LINEITEM',
      'TASK',
      'NOTE',
      'MEETING',
      'CALL',
      'EMAIL',
    ]);
    expect(storedObjectTypes.map((type) => type.searchTag)).toEqual([
      '0-1#',
      '',
      '0-3#',
      '0-5#',
      '0-7#',
      '0-8#',
      '0-27#',
      '0-46#',
      '0-47#',
      '0-48#',
      '0-49#',
    ]);
    // Letters only: the stream's key parser (recordAddressedBy) reads them so, and `_MERGED`, `_UNIQUE` follow them.
    for (const prefix of prefixes) expect(prefix).toMatch(/^[A-Z]{1,30}$/);
    // No prefix is the start of another's, so a Query by one never reads another's items.
    for (const prefix of prefixes)
      for (const other of prefixes) if (other !== prefix) expect(`${other}#`.startsWith(`${prefix}#`)).toBe(false);
  });

  it("gives each CRM type HubSpot's scopes and modified-date property", () => {
    const byName = Object.fromEntries(objectTypes.map((type) => [type.name, type]));

    expect(byName.companies?.scopes).toEqual({
      read: ['crm.objects.companies.read'],
      write: ['crm.objects.companies.write'],
    });
    expect(byName.contacts?.scopes.write).toEqual(['crm.objects.contacts.write']);
    expect(byName.deals?.scopes.read).toEqual(['crm.objects.deals.read']);
    expect(byName.tickets?.scopes.read).toEqual(['tickets', 'crm.objects.tickets.read']);
    expect(byName.contacts?.modifiedProperty).toBe('lastmodifieddate');
    expect(byName.deals?.modifiedProperty).toBe('hs_lastmodifieddate');
    expect(byName.companies?.uniqueProperties).toEqual(['domain']);
    expect(byName.contacts?.uniqueProperties).toEqual(['email']);
    for (const type of objectTypes) expect(type.defaultProperties).toContain('hs_object_id');
  });

  it('gives the {objectType} record and properties rows the scopes of every stored type', () => {
    expect(anyStoredObjectReadScopes).toEqual([
      'crm.objects.contacts.read',
      'crm.objects.companies.read',
      'crm.objects.deals.read',
      'tickets',
      'crm.objects.tickets.read',
      'crm.objects.products.read',
      'e-commerce',
      'crm.objects.line_items.read',
      'crm.objects.custom.read',
    ]);
    expect(anyStoredObjectWriteScopes).toEqual([
      'crm.objects.contacts.write',
      'crm.objects.companies.write',
      'crm.objects.deals.write',
      'tickets',
      'crm.objects.tickets.write',
      'crm.objects.products.write',
      'e-commerce',
      'crm.objects.line_items.write',
      'crm.objects.custom.write',
    ]);
    expect(anyStoredPropertyReadScopes).toEqual([
      'crm.schemas.contacts.read',
      'crm.objects.contacts.read',
      'crm.schemas.companies.read',
      'crm.objects.companies.read',
      'crm.schemas.deals.read',
      'crm.objects.deals.read',
      'tickets',
      'crm.schemas.tickets.read',
      'crm.objects.tickets.read',
      'crm.objects.products.read',
      'e-commerce',
      'crm.objects.line_items.read',
      'crm.schemas.custom.read',
      'crm.objects.custom.read',
    ]);
    expect(anyStoredPropertyWriteScopes).toEqual([
      'crm.schemas.contacts.write',
      'crm.schemas.companies.write',
      'crm.schemas.deals.write',
      'tickets',
      'crm.schemas.tickets.write',
      'e-commerce',
      'crm.schemas.custom.write',
    ]);
  });

  it("requires the resolved type's own scope with the auth step's 403 body", () => {
    const auth = { scopes: ['crm.objects.companies.read'] } as const;

    expect(resolveScopedType(auth, 'COMPANIES', requireStoredObjectType, (type) => type.scopes.read).id).toBe('0-2');
    expect(() => resolveScopedType(auth, 'companies', requireStoredObjectType, (type) => type.scopes.write)).toThrow(
      MissingScopesError,
    );
    try {
      resolveScopedType(auth, 'companies', requireStoredObjectType, (type) => type.scopes.write);
    } catch (error) {
      expect(error).toMatchObject({
        status: 403,
        category: 'MISSING_SCOPES',
        errors: [{ context: { requiredGranularScopes: ['crm.objects.companies.write'] } }],
      });
    }
  });
});
