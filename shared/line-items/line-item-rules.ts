import type { TypeRules } from '../objects/type-rules';
import { requireNonNegativePrice } from '../products/product-rules';

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
export const lineItemRules: TypeRules = {
  requireOnWrite: requireNonNegativePrice,
  computed: { amount: lineItemAmount },
  valuesFromReference: { property: 'hs_product_id', typeId: '0-7', copied: ['name', 'price', 'hs_sku', 'description'] },
  singleAssociation: { typeId: '0-3' },
};
