import { companyRules as rules } from '../../companies/company-rules';
import type { ObjectType } from '../object-type';
import type { TypeAssociations, ScopeBits, ScopeDescriptions, TypeEvents } from '../standard-type';

/**
 * Companies (0-2): HubSpot's ids, names, scopes and default properties
 * (reference/HUBSPOT-WIRE-FACTS-3.md); a company needs a name or a domain, and domains are unique
 * (the rules, shared/companies/company-rules.ts).
 */
export const objectType = {
  id: '0-2',
  name: 'companies',
  singular: 'company',
  // As shared/companies/company-keys.ts states them (test/shared/companies/company-keys.test.ts compares).
  keyPrefix: 'COMPANY',
  searchTag: '',
  isActivity: false,
  scopes: { read: ['crm.objects.companies.read'], write: ['crm.objects.companies.write'] },
  propertyScopes: {
    read: ['crm.schemas.companies.read', 'crm.objects.companies.read'],
    write: ['crm.schemas.companies.write'],
  },
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  queryProperties: ['name', 'domain', 'website', 'phone'],
  uniqueProperties: ['domain'],
  additionalUniqueProperty: 'hs_additional_domains',
  primaryDisplayProperty: 'name',
  requiredProperties: [],
  isMergeable: true,
  isStored: true,
} as const satisfies ObjectType;

export { rules };

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.companies.read': 1,
  'crm.objects.companies.write': 2,
  'crm.schemas.companies.read': 3,
  'crm.schemas.companies.write': 4,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.companies.read': 'See your companies and every property on them, and their associations.',
  'crm.objects.companies.write': 'Create, change, associate and delete your companies.',
  'crm.schemas.companies.read': 'See the company properties and association labels your account defines.',
  'crm.schemas.companies.write': 'Create company properties and association labels.',
} as const satisfies ScopeDescriptions;

export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'associationChange', 'merge', 'restore'],
} as const satisfies TypeEvents;

/**
 * Companies' HubSpot-defined types (the wire facts' tables 7.1 and 7.2): to companies (450, and
 * parent/child 13/14), contacts, deals and tickets (each with a Primary pair), and the activities.
 */
export const associations: TypeAssociations = {
  type: objectType,
  toSelf: 450,
  labeledToSelf: [
    { typeId: 13, name: 'parent_to_child_company', label: 'Parent to child company', inverseTypeId: 14 },
    { typeId: 14, name: 'child_to_parent_company', label: 'Child to parent company', inverseTypeId: 13 },
  ],
  pairs: [
    { to: '0-1', ids: [280, 279], primary: [2, 1] },
    { to: '0-3', ids: [342, 341], primary: [6, 5] },
    { to: '0-5', ids: [340, 339], primary: [25, 26] },
    { to: '0-48', ids: [181, 182] },
    { to: '0-49', ids: [185, 186] },
    { to: '0-47', ids: [187, 188] },
    { to: '0-46', ids: [189, 190] },
    { to: '0-27', ids: [191, 192] },
  ],
};
