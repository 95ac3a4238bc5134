import type { TypeRules } from '../objects/type-rules';
import { propertyValuesError } from '../properties/validate-property-values';

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
export const productRules: TypeRules = {
  requireOnWrite: requireNonNegativePrice,
};
