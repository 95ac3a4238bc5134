import type { ObjectType } from '../object-type';
import type { TypeRules } from '../type-rules';
import { requireNonNegativePrice } from './products';
import type { ScopeBits, ScopeDescriptions, TypeEvents } from '../standard-type';

/**
 * Line items (0-8): HubSpot's ids, names and scopes (the granular scope or `e-commerce`, as for
 * products). A line item belongs to at most one deal (the pair is deals', shared/objects/types/deals.ts).
 */
export const objectType = {
  id: '0-8',
  name: 'line_items',
  singular: 'line_item',
  // No underscore: key prefixes are letters only (recordAddressedBy), and _MERGED, _UNIQUE follow them.
  keyPrefix: 'LINEITEM',
  searchTag: '0-8#',
  isActivity: false,
  scopes: {
    read: ['crm.objects.line_items.read', 'e-commerce'],
    write: ['crm.objects.line_items.write', 'e-commerce'],
  },
  propertyScopes: { read: ['crm.objects.line_items.read', 'e-commerce'], write: ['e-commerce'] },
  modifiedProperty: 'hs_lastmodifieddate',
  // Unverified beyond the system keys: the line-item guide's examples read these.
  defaultProperties: [
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_product_id',
    'name',
    'price',
    'quantity',
  ],
  queryProperties: ['name', 'description', 'hs_sku'],
  uniqueProperties: [],
  primaryDisplayProperty: 'name',
  requiredProperties: [],
  isMergeable: false,
  isStored: true,
} as const satisfies ObjectType;

/** A number a line item holds, or undefined when it holds none (or not a number). */
function numberOf(properties: Readonly<Record<string, string>>, name: string): number | undefined {
  const value = properties[name];
  const parsed = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * A line item's `amount`: its quantity (1 when unset) times its unit price after the unit discount
 * (`discount`, an amount) or else the percentage (`hs_discount_percentage`); none without a price.
 * HubSpot's own formula is not documented beyond "the total": inferred from its property descriptions.
 */
export function lineItemAmount(properties: Readonly<Record<string, string>>): string | undefined {
  const price = numberOf(properties, 'price');
  if (price === undefined) return undefined;
  const quantity = numberOf(properties, 'quantity') ?? 1;
  const discount = numberOf(properties, 'discount');
  const percentage = numberOf(properties, 'hs_discount_percentage');
  const unit =
    discount !== undefined ? price - discount : percentage !== undefined ? price * (1 - percentage / 100) : price;
  // Rounded to cents' precision and printed without float noise (3 x 0.1 is 0.3, not 0.30000000000000004).
  return String(Math.round(unit * quantity * 1e6) / 1e6);
}

/**
 * What only line items do (reference/HUBSPOT-WIRE-FACTS-3.md 2.6): a line item created with
 * `hs_product_id` takes the product's name, price, SKU and description unless it sends its own; it
 * belongs to at most one deal; its price is not negative; its `amount` is computed.
 */
export const rules: TypeRules = {
  requireOnWrite: requireNonNegativePrice,
  computed: { amount: lineItemAmount },
  // Products (0-7), deals (0-3).
  valuesFromReference: { property: 'hs_product_id', typeId: '0-7', copied: ['name', 'price', 'hs_sku', 'description'] },
  singleAssociation: { typeId: '0-3' },
};

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.line_items.read': 29,
  'crm.objects.line_items.write': 30,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.line_items.read': 'See the line items of your deals and quotes.',
  'crm.objects.line_items.write': 'Create, change and delete the line items of your deals and quotes.',
} as const satisfies ScopeDescriptions;

export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'associationChange', 'merge', 'restore'],
} as const satisfies TypeEvents;
