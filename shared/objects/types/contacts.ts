import { contactRules as rules } from '../../contacts/contact-rules';
import type { ObjectType } from '../object-type';
import type { TypeAssociations, ScopeBits, ScopeDescriptions, TypeEvents } from '../standard-type';

/** Who may read and change contacts and their property definitions: the activities' scopes too (activities.ts). */
export const contactScopes = { read: ['crm.objects.contacts.read'], write: ['crm.objects.contacts.write'] } as const;
export const contactPropertyScopes = {
  read: ['crm.schemas.contacts.read', 'crm.objects.contacts.read'],
  write: ['crm.schemas.contacts.write'],
} as const;

/**
 * Contacts (0-1): HubSpot's ids, names, scopes and default properties
 * (reference/HUBSPOT-WIRE-FACTS-3.md); `email` is unique without case (the rules,
 * shared/contacts/contact-rules.ts). Their modified date is `lastmodifieddate`.
 */
export const objectType = {
  id: '0-1',
  name: 'contacts',
  singular: 'contact',
  keyPrefix: 'CONTACT',
  searchTag: '0-1#',
  isActivity: false,
  scopes: contactScopes,
  propertyScopes: contactPropertyScopes,
  modifiedProperty: 'lastmodifieddate',
  defaultProperties: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
  queryProperties: ['firstname', 'lastname', 'email', 'phone', 'hs_additional_emails', 'fax', 'mobilephone', 'company'],
  uniqueProperties: ['email'],
  additionalUniqueProperty: 'hs_additional_emails',
  primaryDisplayProperty: 'email',
  requiredProperties: [],
  isMergeable: true,
  isStored: true,
} as const satisfies ObjectType;

export { rules };

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.contacts.read': 6,
  'crm.objects.contacts.write': 7,
  'crm.schemas.contacts.read': 10,
  'crm.schemas.contacts.write': 22,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.contacts.read': 'See your contacts and every property on them.',
  'crm.objects.contacts.write': 'Create, change and delete your contacts.',
  'crm.schemas.contacts.read': 'See the contact properties your account defines.',
  'crm.schemas.contacts.write': 'Create and change contact properties.',
} as const satisfies ScopeDescriptions;

export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'associationChange', 'merge', 'restore', 'privacyDeletion'],
} as const satisfies TypeEvents;

/** Contacts' HubSpot-defined types (the wire facts' tables 7.1 and 7.2): to contacts (449), deals, tickets and the activities. */
export const associations: TypeAssociations = {
  type: objectType,
  toSelf: 449,
  pairs: [
    { to: '0-3', ids: [4, 3] },
    { to: '0-5', ids: [15, 16] },
    { to: '0-48', ids: [193, 194] },
    { to: '0-49', ids: [197, 198] },
    { to: '0-47', ids: [199, 200] },
    { to: '0-46', ids: [201, 202] },
    { to: '0-27', ids: [203, 204] },
  ],
};
