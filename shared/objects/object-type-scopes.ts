import type { Scope } from '../oauth/scopes';

/**
 * Who may read and change the records of each CRM type (any one scope of a list suffices; tickets:
 * HubSpot's v3 spec asks for `tickets`, its newer guide for the granular scopes), and the types
 * whose records this service stores. Apart from the type registry (object-types.ts, which reads
 * both) so the route table, in every function's bundle, takes the union without loading it.
 */
export const objectTypeScopes = {
  contacts: { read: ['crm.objects.contacts.read'], write: ['crm.objects.contacts.write'] },
  companies: { read: ['crm.objects.companies.read'], write: ['crm.objects.companies.write'] },
  deals: { read: ['crm.objects.deals.read'], write: ['crm.objects.deals.write'] },
  tickets: { read: ['tickets', 'crm.objects.tickets.read'], write: ['tickets', 'crm.objects.tickets.write'] },
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
} as const satisfies Record<keyof typeof objectTypeScopes, { read: readonly Scope[]; write: readonly Scope[] }>;

export const storedObjectTypeNames: readonly (keyof typeof objectTypeScopes)[] = [
  'contacts',
  'companies',
  'deals',
  'tickets',
];

/** What an `{objectType}` row asks before it knows the type: any scope of any stored type; the handler then requires the type's own. */
export const anyStoredObjectReadScopes: readonly Scope[] = [
  ...new Set(storedObjectTypeNames.flatMap((name) => objectTypeScopes[name].read)),
];
export const anyStoredObjectWriteScopes: readonly Scope[] = [
  ...new Set(storedObjectTypeNames.flatMap((name) => objectTypeScopes[name].write)),
];

/** The same for the `/crm/v3/properties/{objectType}` rows. */
export const anyStoredPropertyReadScopes: readonly Scope[] = [
  ...new Set(storedObjectTypeNames.flatMap((name) => objectTypePropertyScopes[name].read)),
];
export const anyStoredPropertyWriteScopes: readonly Scope[] = [
  ...new Set(storedObjectTypeNames.flatMap((name) => objectTypePropertyScopes[name].write)),
];
