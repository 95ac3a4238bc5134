import { describeScope, scopeDescriptions } from '../../../shared/oauth/scope-descriptions';
import { isKnownScope, scopeCatalog } from '../../../shared/oauth/scopes';

/** The object engine's scopes: each type of the object engine, pipelines, owners, and the surface planned next. */
const issue19Scopes = [
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'tickets',
  'crm.objects.tickets.read',
  'crm.objects.tickets.write',
  'crm.schemas.contacts.read',
  'crm.schemas.contacts.write',
  'crm.schemas.deals.read',
  'crm.schemas.deals.write',
  'crm.schemas.tickets.read',
  'crm.schemas.tickets.write',
  'crm.objects.owners.read',
  'e-commerce',
  'crm.objects.products.read',
  'crm.objects.products.write',
  'crm.objects.line_items.read',
  'crm.objects.line_items.write',
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
];

describe('the scope catalogue', () => {
  it('knows every scope of the object engine, pipelines, owners and the types planned next', () => {
    expect(issue19Scopes.filter((scope) => !isKnownScope(scope))).toEqual([]);
  });

  it('keeps the positions of the scopes tokens were issued with (append only)', () => {
    expect(scopeCatalog.slice(0, 20)).toEqual([
      'oauth',
      'crm.objects.companies.read',
      'crm.objects.companies.write',
      'crm.schemas.companies.read',
      'crm.schemas.companies.write',
      'timeline',
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.deals.read',
      'crm.objects.deals.write',
      'crm.schemas.contacts.read',
      'crm.schemas.deals.read',
      'tickets',
      'content',
      'forms',
      'files',
      'automation',
      'e-commerce',
      'crm.lists.read',
      'crm.lists.write',
    ]);
  });

  it('lists each scope once', () => {
    expect(new Set(scopeCatalog).size).toBe(scopeCatalog.length);
  });

  it('describes every scope in words on the consent page, not with the generic fallback', () => {
    const generic = scopeCatalog.filter(
      (scope) => describeScope(scope) === `Use the ${scope} permission.` || scopeDescriptions()[scope].trim() === '',
    );

    expect(generic).toEqual([]);
  });
});
