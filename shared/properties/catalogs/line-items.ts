/**
 * HubSpot's standard line item properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `createdate`,
 * `hs_lastmodifieddate` and `hs_object_id` are in the default set, with `name`, `price`, `quantity`
 * and `hs_product_id` (§2.1, the last four unverified); a create names `name`, `quantity`, `price`,
 * or `hs_product_id` to copy a product's name, SKU and description (§2.6, 3p); `lineiteminformation`
 * is the default group (§3.4, 3p), which holds every row. Inferred (HubSpot's line item properties
 * as commonly seen, not in the facts file): `description`, `amount` and its rule (price × quantity
 * less the discount), `hs_sku`, `discount`, `hs_discount_percentage`, `tax`,
 * `hs_line_item_currency_code` (text here; HubSpot lists currency codes),
 * `hs_recurring_billing_period`, `hs_createdate`, every label, and the types and field types.
 */
import type { PropertyGroup } from '../property-definition';
import {
  readOnly,
  calculated,
  datetime,
  number,
  numberEquation,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from '../standard-catalog';

const lineItemGroups: readonly PropertyGroup[] = [
  { name: 'lineiteminformation', label: 'Line item information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard line item property: its name, type, options and flags. */
export const lineItemPropertyRows: readonly CatalogRow[] = [
  { name: 'name', ...text },
  { name: 'description', ...textarea },
  { name: 'price', ...number },
  { name: 'quantity', ...number },
  { name: 'amount', ...numberEquation, ...calculated },
  { name: 'hs_product_id', ...number },
  { name: 'hs_sku', ...text },
  { name: 'discount', ...number },
  { name: 'hs_discount_percentage', ...number },
  { name: 'tax', ...number },
  { name: 'hs_line_item_currency_code', ...text },
  { name: 'hs_recurring_billing_period', ...text },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const lineItemPropertyLabels: CatalogTexts = {
  name: 'Name',
  description: 'Description',
  price: 'Unit price',
  quantity: 'Quantity',
  amount: 'Net price',
  hs_product_id: 'Product ID',
  hs_sku: 'SKU',
  discount: 'Unit discount',
  hs_discount_percentage: 'Discount percentage',
  tax: 'Tax',
  hs_line_item_currency_code: 'Currency',
  hs_recurring_billing_period: 'Term',
  createdate: 'Create Date',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last Modified Date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const lineItemPropertyDescriptions: CatalogTexts = {
  name: 'The name of the line item (copied from its product when hs_product_id is given).',
  description: 'A description of the line item (copied from its product when hs_product_id is given).',
  price: 'The price of one unit.',
  quantity: 'The number of units.',
  amount: 'The total of the line item: the price times the quantity, less the discount; computed.',
  hs_product_id: 'The id of the product the line item was made from.',
  hs_sku: 'The stock keeping unit (copied from its product when hs_product_id is given).',
  discount: 'The discount on each unit, as an amount.',
  hs_discount_percentage: 'The discount on each unit, as a percentage of the price.',
  tax: 'The tax on the line item, as an amount.',
  hs_line_item_currency_code: 'The currency of the line item (an ISO-4217 code such as USD).',
  hs_recurring_billing_period:
    'How long a recurring line item is billed for, as an ISO-8601 period (for example P12M).',
  createdate: 'The date the line item was created.',
  hs_createdate: 'The date the line item was created (the generic object field).',
  hs_lastmodifieddate: 'The most recent time any property of the line item was changed.',
  hs_object_id: 'The unique id of the line item; equals the record id.',
};

/** The line item catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const tables: CatalogTables = {
  rows: lineItemPropertyRows,
  labels: lineItemPropertyLabels,
  descriptions: lineItemPropertyDescriptions,
  defaultGroup: 'lineiteminformation',
  groups: lineItemGroups,
};
