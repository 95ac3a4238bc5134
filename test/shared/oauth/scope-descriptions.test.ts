import { describeScope, scopeDescriptions } from '../../../shared/oauth/scope-descriptions';
import { standardPipelineTypes, standardScopeBits, standardTypes } from '../../../shared/objects/standard-types';
import { routes } from '../../../shared/routes';
import { isKnownScope, platformScopeBits, scopeBitProblems, scopeCatalog } from '../../../shared/oauth/scopes';

/** The object engine's scopes: each type of the object engine, pipelines, owners, and the surface planned next. */
const objectEngineScopes = [
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
    expect(objectEngineScopes.filter((scope) => !isKnownScope(scope))).toEqual([]);
  });

  it('keeps the bit of every scope tokens were issued with', () => {
    expect(scopeCatalog()).toEqual([
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
      'crm.objects.tickets.read',
      'crm.objects.tickets.write',
      'crm.schemas.contacts.write',
      'crm.schemas.deals.write',
      'crm.schemas.tickets.read',
      'crm.schemas.tickets.write',
      'crm.objects.owners.read',
      'crm.objects.products.read',
      'crm.objects.products.write',
      'crm.objects.line_items.read',
      'crm.objects.line_items.write',
      'crm.objects.custom.read',
      'crm.objects.custom.write',
      'crm.schemas.custom.read',
      'crm.schemas.custom.write',
      'developer.webhooks_journal.read',
      'developer.webhooks_journal.subscriptions.read',
      'developer.webhooks_journal.subscriptions.write',
      'developer.webhooks_journal.snapshots.read',
      'developer.webhooks_journal.snapshots.write',
    ]);
  });

  it('lists each scope once', () => {
    expect(new Set(scopeCatalog()).size).toBe(scopeCatalog().length);
  });

  it('knows every scope a route row, a type or a pipeline type names (a misspelled scope is not caught by the compiler)', () => {
    const named = [
      ...routes.flatMap((route) => (route.scopes === 'public' ? [] : route.scopes)),
      ...standardTypes.flatMap((type) => [
        ...type.scopes.read,
        ...type.scopes.write,
        ...type.propertyScopes.read,
        ...type.propertyScopes.write,
      ]),
      ...standardPipelineTypes.flatMap((type) => [...type.scopes.read, ...type.scopes.write]),
    ];
    expect(named.length).toBeGreaterThan(100);
    expect([...new Set(named)].filter((scope) => !isKnownScope(scope))).toEqual([]);
  });

  it('gives every bit up to the highest one scope, the platform and the type modules together', () => {
    expect(scopeBitProblems([platformScopeBits, ...standardScopeBits])).toEqual([]);
    expect(scopeCatalog()).toHaveLength(40);
    expect(
      scopeBitProblems([
        { a: 0, b: 2 },
        { c: 2, a: 3 },
      ]),
    ).toEqual(['c (bit 2) is stated twice', 'a (bit 3) is stated twice', 'no scope takes bit 1']);
  });

  it('describes every scope in words on the consent page, not with the generic fallback', () => {
    const generic = scopeCatalog().filter(
      (scope) =>
        describeScope(scope) === `Use the ${scope} permission.` || (scopeDescriptions()[scope] ?? '').trim() === '',
    );

    expect(generic).toEqual([]);
  });
});
