/**
 * HubSpot's standard product properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `name`, `description`
 * and `price` are in the spec's default set, `createdate`, `hs_lastmodifieddate` and `hs_object_id`
 * are the inferred system keys of it (§2.1); `hs_sku`, `price`, `name` and `description` are named
 * required on create by the objects guide (§2.2, which writes `hs_folder` where the catalog has
 * HubSpot's `hs_folder_id`); `price` is a number (§2.6, "cannot be negative" unverified);
 * `productinformation` is the default group (§3.4, v1 docs example), which holds every row.
 * Inferred (HubSpot's product properties as commonly seen, not in the facts file):
 * `hs_cost_of_goods_sold`, `hs_recurring_billing_period`, `hs_url`, `hs_product_type` and its
 * options, `hs_folder_id`, `hs_createdate`, every label, and the types and field types;
 * `hubspot_owner_id` is an owner id as on the other types (§2.4).
 */
import type { PropertyGroup } from '../property-definition';
import {
  readOnly,
  datetime,
  number,
  optionsOf,
  select,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from '../standard-catalog';

const productGroups: readonly PropertyGroup[] = [
  { name: 'productinformation', label: 'Product information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard product property: its name, type, options and flags. */
export const productPropertyRows: readonly CatalogRow[] = [
  { name: 'name', ...text },
  { name: 'description', ...textarea },
  { name: 'price', ...number },
  { name: 'hs_sku', ...text },
  { name: 'hs_cost_of_goods_sold', ...number },
  { name: 'hs_recurring_billing_period', ...text },
  { name: 'hs_url', ...text },
  {
    name: 'hs_product_type',
    ...select,
    // Inferred: the kinds of product HubSpot's product library offers.
    options: optionsOf([
      { value: 'inventory', label: 'Inventory' },
      { value: 'non_inventory', label: 'Non-inventory' },
      { value: 'service', label: 'Service' },
    ]),
  },
  { name: 'hs_folder_id', ...number },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const productPropertyLabels: CatalogTexts = {
  name: 'Name',
  description: 'Description',
  price: 'Unit price',
  hs_sku: 'SKU',
  hs_cost_of_goods_sold: 'Unit cost',
  hs_recurring_billing_period: 'Term',
  hs_url: 'URL',
  hs_product_type: 'Product type',
  hs_folder_id: 'Folder',
  hubspot_owner_id: 'Owner',
  createdate: 'Create Date',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last Modified Date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const productPropertyDescriptions: CatalogTexts = {
  name: 'The name of the product.',
  description: 'A description of the product.',
  price: 'The price of one unit of the product, in the currency of the account.',
  hs_sku: 'The stock keeping unit of the product.',
  hs_cost_of_goods_sold: 'What one unit of the product costs the seller.',
  hs_recurring_billing_period: 'How long a recurring product is billed for, as an ISO-8601 period (for example P12M).',
  hs_url: 'The URL of a page about the product.',
  hs_product_type: 'The kind of product: stocked goods, goods not stocked, or a service.',
  hs_folder_id: 'The id of the folder of the product library the product is in.',
  hubspot_owner_id: 'The owner of the product (an owner id).',
  createdate: 'The date the product was created.',
  hs_createdate: 'The date the product was created (the generic object field).',
  hs_lastmodifieddate: 'The most recent time any property of the product was changed.',
  hs_object_id: 'The unique id of the product; equals the record id.',
};

/** The product catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const tables: CatalogTables = {
  rows: productPropertyRows,
  labels: productPropertyLabels,
  descriptions: productPropertyDescriptions,
  defaultGroup: 'productinformation',
  groups: productGroups,
};
