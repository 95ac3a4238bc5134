import type { TypeRules } from '../objects/type-rules';
import { requireNonNegativePrice } from '../products/product-rules';

/**
 * What only line items do (reference/HUBSPOT-WIRE-FACTS-3.md 2.6): a line item created with
 * `hs_product_id` takes the product's name, price, SKU and description unless it sends its own; it
 * belongs to at most one deal; its price is not negative.
 */
export const lineItemRules: TypeRules = {
  requireOnWrite: requireNonNegativePrice,
  valuesFromReference: { property: 'hs_product_id', typeId: '0-7', copied: ['name', 'price', 'hs_sku', 'description'] },
  singleAssociation: { typeId: '0-3' },
};
