import { propertyValuesError } from '../../properties/property-values-error';
import type { ObjectType } from '../object-type';
import type { TypeRules } from '../type-rules';
import type { ScopeBits, ScopeDescriptions, TypeEvents } from '../standard-type';

/**
 * Products (0-7): HubSpot's ids, names and scopes (the granular scope or `e-commerce`, HubSpot's v3
 * specs; no `crm.schemas.products.*` scope exists: properties are read with the records' scopes and
 * written with `e-commerce`). Products have no associations of their own and no merge.
 */
export const objectType = {
  id: '0-7',
  name: 'products',
  singular: 'product',
  keyPrefix: 'PRODUCT',
  searchTag: '0-7#',
  isActivity: false,
  scopes: {
    read: ['crm.objects.products.read', 'e-commerce'],
    write: ['crm.objects.products.write', 'e-commerce'],
  },
  propertyScopes: { read: ['crm.objects.products.read', 'e-commerce'], write: ['e-commerce'] },
  modifiedProperty: 'hs_lastmodifieddate',
  // The spec's table (name, description, price) and the system keys (inferred).
  defaultProperties: ['createdate', 'description', 'hs_lastmodifieddate', 'hs_object_id', 'name', 'price'],
  // Inferred: HubSpot does not document where `query` looks for products.
  queryProperties: ['name', 'description', 'hs_sku'],
  uniqueProperties: [],
  // The object-API guide lists hs_sku, hs_folder, price, name and description as required; the
  // products guide creates products with name and price alone, as integrations do: none is enforced.
  primaryDisplayProperty: 'name',
  requiredProperties: [],
  isMergeable: false,
  isStored: true,
} as const satisfies ObjectType;

/** A price is never negative (products and line items; reference/HUBSPOT-WIRE-FACTS-3.md 2.6, unverified there). */
export function requireNonNegativePrice(properties: Record<string, string>): void {
  const price = properties.price;
  if (price !== undefined && Number(price) < 0) {
    throw propertyValuesError([
      { name: 'price', error: 'INVALID_PRICE', message: `${price} is not a valid price: a price cannot be negative` },
    ]);
  }
}

/** What only products do: their price is not negative. */
export const rules: TypeRules = {
  requireOnWrite: requireNonNegativePrice,
};

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.products.read': 27,
  'crm.objects.products.write': 28,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.products.read': 'See your products and every property on them.',
  'crm.objects.products.write': 'Create, change and delete your products.',
} as const satisfies ScopeDescriptions;

/** HubSpot has no `product.associationChange`. */
export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'merge', 'restore'],
} as const satisfies TypeEvents;
