import type { ObjectType } from '../../../../shared/objects/object-type';
import type {
  ScopeBits,
  ScopeDescriptions,
  TypeAssociations,
  TypeEvents,
} from '../../../../shared/objects/standard-type';
import type { TypeRules } from '../../../../shared/objects/type-rules';

/**
 * The worked example of docs/crm-objects.md "Adding a type": a standard type's module as it is
 * written in shared/objects/types/, kept in a folder of its own so that the service does not serve
 * it; test/shared/objects/standard-types.test.ts reads this folder beside the real one.
 */
export const objectType = {
  id: '0-990',
  name: 'widgets',
  singular: 'widget',
  keyPrefix: 'WIDGET',
  searchTag: '0-990#',
  isActivity: false,
  scopes: { read: ['crm.objects.widgets.read'], write: ['crm.objects.widgets.write'] },
  propertyScopes: { read: ['crm.objects.widgets.read'], write: ['crm.objects.widgets.write'] },
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'widget_name'],
  queryProperties: ['widget_name'],
  uniqueProperties: [],
  requiredProperties: ['widget_name'],
  isMergeable: false,
  isStored: true,
} as const satisfies ObjectType;

/** A new widget is blue unless told. */
export const rules: TypeRules = { valuesOnCreate: { widget_color: 'blue' } };

export const events = { type: objectType, kinds: ['creation', 'deletion'] } as const satisfies TypeEvents;

/** Widgets to widgets (9901) and to contacts (9902, and 9903 back). */
export const associations: TypeAssociations = {
  type: objectType,
  toSelf: 9901,
  pairs: [{ to: '0-1', ids: [9902, 9903] }],
};

/** Its scopes take the next free bits of the token's scope mask. */
export const scopeBits = {
  'crm.objects.widgets.read': 40,
  'crm.objects.widgets.write': 41,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.widgets.read': 'See your widgets.',
  'crm.objects.widgets.write': 'Create, change and delete your widgets.',
} as const satisfies ScopeDescriptions;
