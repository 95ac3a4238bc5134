import type { Scope } from '../oauth/scopes';

/**
 * Builds a constant. Marked free of side effects: esbuild drops a constant that no code of a bundle
 * reads (the route table's unions below, which every function's module graph reaches but only the
 * table reads, and each bundle loads its own row of the table instead).
 */
/* @__NO_SIDE_EFFECTS__ */
function constant<T>(build: () => T): T {
  return build();
}

/** The lists the route table names itself (a property read of objectTypeScopes would keep that object in every bundle). */
export const contactWriteScopes = ['crm.objects.contacts.write'] as const;
export const companyReadScopes = ['crm.objects.companies.read'] as const;
export const companyWriteScopes = ['crm.objects.companies.write'] as const;

/**
 * Who may read and change the records of each CRM type (any one scope of a list suffices; tickets:
 * HubSpot's v3 spec asks for `tickets`, its newer guide for the granular scopes), and the types
 * whose records this service stores. Apart from the type registry (object-types.ts, which reads
 * both) so the route table takes the union without loading it.
 */
export const objectTypeScopes = {
  contacts: { read: ['crm.objects.contacts.read'], write: contactWriteScopes },
  companies: { read: companyReadScopes, write: companyWriteScopes },
  deals: { read: ['crm.objects.deals.read'], write: ['crm.objects.deals.write'] },
  tickets: { read: ['tickets', 'crm.objects.tickets.read'], write: ['tickets', 'crm.objects.tickets.write'] },
  // Products and line items: the granular scope or `e-commerce` (HubSpot's v3 specs).
  products: {
    read: ['crm.objects.products.read', 'e-commerce'],
    write: ['crm.objects.products.write', 'e-commerce'],
  },
  line_items: {
    read: ['crm.objects.line_items.read', 'e-commerce'],
    write: ['crm.objects.line_items.write', 'e-commerce'],
  },
} as const satisfies Record<string, { read: readonly Scope[]; write: readonly Scope[] }>;

/**
 * Who may read and change each type's property definitions (`/crm/v3/properties/{objectType}`):
 * read with the type's schema or record read scope, written with its schema write scope (tickets: `tickets` too).
 */
export const objectTypePropertyScopes = {
  contacts: { read: ['crm.schemas.contacts.read', 'crm.objects.contacts.read'], write: ['crm.schemas.contacts.write'] },
  companies: {
    read: ['crm.schemas.companies.read', 'crm.objects.companies.read'],
    write: ['crm.schemas.companies.write'],
  },
  deals: { read: ['crm.schemas.deals.read', 'crm.objects.deals.read'], write: ['crm.schemas.deals.write'] },
  tickets: {
    read: ['tickets', 'crm.schemas.tickets.read', 'crm.objects.tickets.read'],
    write: ['tickets', 'crm.schemas.tickets.write'],
  },
  // No `crm.schemas.products|line_items.*` scope exists: read with the records' scopes, written with `e-commerce`.
  products: { read: ['crm.objects.products.read', 'e-commerce'], write: ['e-commerce'] },
  line_items: { read: ['crm.objects.line_items.read', 'e-commerce'], write: ['e-commerce'] },
} as const satisfies Record<keyof typeof objectTypeScopes, { read: readonly Scope[]; write: readonly Scope[] }>;

/**
 * Custom objects (the account's own types, `2-<id>`): records with `crm.objects.custom.*`, property
 * definitions read with either custom scope and written with `crm.schemas.custom.write`
 * (reference/HUBSPOT-WIRE-FACTS-3.md §9).
 */
export const customObjectScopes = {
  records: { read: ['crm.objects.custom.read'], write: ['crm.objects.custom.write'] },
  properties: { read: ['crm.schemas.custom.read', 'crm.objects.custom.read'], write: ['crm.schemas.custom.write'] },
} as const satisfies Record<string, { read: readonly Scope[]; write: readonly Scope[] }>;

/** The schemas API (`/crm-object-schemas/v3/schemas`): read with either custom read scope, written with the schema write scope. */
export const schemaReadScopes = ['crm.schemas.custom.read', 'crm.objects.custom.read'] as const;
export const schemaWriteScopes = ['crm.schemas.custom.write'] as const;

/** The activities: HubSpot guards their records (and, inferred, their properties) with the contact scopes. */
export const activityTypeNames = ['notes', 'calls', 'emails', 'meetings', 'tasks'] as const;

// Spelled out, not spread from activityTypeNames: esbuild keeps an array built with a spread in every bundle.
export const storedObjectTypeNames: readonly (keyof typeof objectTypeScopes | (typeof activityTypeNames)[number])[] = [
  'contacts',
  'companies',
  'deals',
  'tickets',
  'notes',
  'calls',
  'emails',
  'meetings',
  'tasks',
  'products',
  'line_items',
];

/** The record and property scopes of a stored type by name (an activity's are the contacts'): the registry's entries and the unions below read them. */
export const scopesByName = (name: (typeof storedObjectTypeNames)[number]) => {
  const key = (activityTypeNames as readonly string[]).includes(name)
    ? 'contacts'
    : (name as keyof typeof objectTypeScopes);
  return { records: objectTypeScopes[key], properties: objectTypePropertyScopes[key] };
};

/** What an `{objectType}` row asks before it knows the type: any scope of any stored type; the handler then requires the type's own. */
export const anyStoredObjectReadScopes: readonly Scope[] = constant(() => [
  ...new Set([
    ...storedObjectTypeNames.flatMap((name) => scopesByName(name).records.read),
    ...customObjectScopes.records.read,
  ]),
]);
export const anyStoredObjectWriteScopes: readonly Scope[] = constant(() => [
  ...new Set([
    ...storedObjectTypeNames.flatMap((name) => scopesByName(name).records.write),
    ...customObjectScopes.records.write,
  ]),
]);

/** The same for the `/crm/v3/properties/{objectType}` rows. */
export const anyStoredPropertyReadScopes: readonly Scope[] = constant(() => [
  ...new Set([
    ...storedObjectTypeNames.flatMap((name) => scopesByName(name).properties.read),
    ...customObjectScopes.properties.read,
  ]),
]);
export const anyStoredPropertyWriteScopes: readonly Scope[] = constant(() => [
  ...new Set([
    ...storedObjectTypeNames.flatMap((name) => scopesByName(name).properties.write),
    ...customObjectScopes.properties.write,
  ]),
]);

/** The association label rows: any stored type's record or schema scope; the handler then requires the path's first type's. */
export const anyStoredLabelReadScopes: readonly Scope[] = constant(() => [
  ...new Set([...anyStoredObjectReadScopes, ...anyStoredPropertyReadScopes]),
]);
export const anyStoredLabelWriteScopes: readonly Scope[] = constant(() => [
  ...new Set([...anyStoredObjectWriteScopes, ...anyStoredPropertyWriteScopes]),
]);
