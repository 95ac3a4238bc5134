/**
 * HubSpot's standard deal properties: names, labels, types and field types as read from a portal
 * dump (HUBSPOT-WIRE-FACTS-3.md §3.2). Per-property groups are not sourced, so every row is in
 * `dealinformation`. `pipeline` and `dealstage` take their options from the account's pipelines,
 * so the catalog lists none.
 */
import type { PropertyGroup } from './property-definition';
import {
  readOnly,
  calculated,
  booleanOptions,
  boolEquation,
  checkbox,
  datetime,
  number,
  numberEquation,
  optionsOf,
  radio,
  select,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from './standard-catalog';

const dealGroups: readonly PropertyGroup[] = [
  { name: 'dealinformation', label: 'Deal information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard deal property: its name, type, options and flags. */
export const dealPropertyRows: readonly CatalogRow[] = [
  { name: 'dealname', ...text },
  { name: 'amount', ...number },
  { name: 'closedate', ...datetime },
  { name: 'dealstage', ...radio, externalOptions: true },
  { name: 'pipeline', ...select, externalOptions: true },
  {
    name: 'dealtype',
    ...radio,
    options: optionsOf([
      { value: 'newbusiness', label: 'New Business' },
      { value: 'existingbusiness', label: 'Existing Business' },
    ]),
  },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  { name: 'description', ...textarea },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
  { name: 'closed_lost_reason', ...textarea },
  { name: 'closed_won_reason', ...textarea },
  {
    name: 'hs_priority',
    ...select,
    options: optionsOf([
      { value: 'low', label: 'Low' },
      { value: 'medium', label: 'Medium' },
      { value: 'high', label: 'High' },
    ]),
  },
  { name: 'hs_deal_stage_probability', ...number },
  {
    name: 'deal_currency_code',
    ...select,
    // Inferred: a few ISO 4217 codes; an account lists the currencies it has turned on.
    options: optionsOf([
      { value: 'USD', label: 'US Dollar' },
      { value: 'EUR', label: 'Euro' },
      { value: 'GBP', label: 'British Pound' },
      { value: 'CAD', label: 'Canadian Dollar' },
      { value: 'AUD', label: 'Australian Dollar' },
      { value: 'JPY', label: 'Japanese Yen' },
    ]),
  },
  { name: 'amount_in_home_currency', ...numberEquation, ...calculated },
  {
    name: 'hs_is_closed',
    ...boolEquation,
    options: booleanOptions(),
    readOnly: true,
    calculated: true,
  },
  {
    name: 'hs_is_closed_won',
    ...boolEquation,
    options: booleanOptions(),
    readOnly: true,
    calculated: true,
  },
  {
    name: 'hs_is_closed_lost',
    ...boolEquation,
    options: booleanOptions(),
    readOnly: true,
    calculated: true,
  },
  { name: 'hs_closed_amount', ...numberEquation, ...calculated },
  { name: 'hs_projected_amount', ...numberEquation, ...calculated },
  { name: 'hs_forecast_amount', ...number },
  { name: 'hs_forecast_probability', ...number },
  { name: 'hs_next_step', ...textarea },
  { name: 'hs_all_collaborator_owner_ids', ...checkbox, referencedObjectType: 'OWNER' },
  { name: 'num_associated_contacts', ...number, ...calculated },
  { name: 'notes_last_updated', ...datetime, ...calculated },
  { name: 'hs_merged_object_ids', ...checkbox, ...readOnly },
  { name: 'hs_object_source', ...text, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const dealPropertyLabels: CatalogTexts = {
  dealname: 'Deal Name',
  amount: 'Amount',
  closedate: 'Close Date',
  dealstage: 'Deal Stage',
  pipeline: 'Pipeline',
  dealtype: 'Deal Type',
  hubspot_owner_id: 'Deal owner',
  description: 'Deal Description',
  createdate: 'Create Date',
  hs_lastmodifieddate: 'Last Modified Date',
  hs_createdate: 'Object create date/time',
  hs_object_id: 'Record ID',
  closed_lost_reason: 'Closed Lost Reason',
  closed_won_reason: 'Closed Won Reason',
  hs_priority: 'Priority',
  hs_deal_stage_probability: 'Deal probability',
  deal_currency_code: 'Currency',
  amount_in_home_currency: 'Amount in company currency',
  hs_is_closed: 'Is Deal Closed?',
  hs_is_closed_won: 'Is Closed Won',
  hs_is_closed_lost: 'Is closed lost',
  hs_closed_amount: 'Closed Deal Amount',
  hs_projected_amount: 'Weighted amount',
  hs_forecast_amount: 'Forecast amount',
  hs_forecast_probability: 'Forecast probability',
  hs_next_step: 'Next step',
  hs_all_collaborator_owner_ids: 'Deal Collaborator',
  num_associated_contacts: 'Number of Associated Contacts',
  notes_last_updated: 'Last Activity Date',
  hs_merged_object_ids: 'Merged Deal IDs',
  hs_object_source: 'Record creation source',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const dealPropertyDescriptions: CatalogTexts = {
  dealname: 'The name of the deal.',
  amount: 'The total value of the deal in its currency.',
  closedate: 'The date the deal closed or is expected to close.',
  dealstage: "The stage of the deal in its pipeline (a stage id of the deal's pipeline).",
  pipeline: 'The pipeline of the deal (a pipeline id; the default pipeline is `default`).',
  dealtype: 'Whether the deal is with a new or an existing customer.',
  hubspot_owner_id: 'The owner of the deal (an owner id).',
  description: 'A description of the deal.',
  createdate: 'The date the deal was created.',
  hs_lastmodifieddate: 'The most recent time any property of the deal was changed.',
  hs_createdate: 'The date the deal was created (the generic object field).',
  hs_object_id: 'The unique id of the deal; equals the record id.',
  closed_lost_reason: 'Why the deal was lost.',
  closed_won_reason: 'Why the deal was won.',
  hs_priority: 'The priority of the deal.',
  hs_deal_stage_probability: 'The probability of winning the deal (0 to 1); defaults to the probability of its stage.',
  deal_currency_code: 'The currency of the deal amount.',
  amount_in_home_currency: "The deal amount converted to the account's currency.",
  hs_is_closed: 'Whether the deal is in a closed stage.',
  hs_is_closed_won: 'Whether the deal is in a closed-won stage.',
  hs_is_closed_lost: 'Whether the deal is in a closed-lost stage.',
  hs_closed_amount: 'The amount of the deal once it is closed won, otherwise 0.',
  hs_projected_amount: 'The amount of the deal times its deal probability.',
  hs_forecast_amount: 'The amount expected for the forecast.',
  hs_forecast_probability: 'The probability used for the forecast (0 to 1).',
  hs_next_step: 'The next step to close the deal.',
  hs_all_collaborator_owner_ids: 'The owners who collaborate on the deal (owner ids, separated by semicolons).',
  num_associated_contacts: 'The number of contacts associated with the deal.',
  notes_last_updated: 'The last time an activity was logged on the deal.',
  hs_merged_object_ids: 'The ids of the deals merged into this one, separated by semicolons; set by a merge.',
  hs_object_source: 'How the deal was created (for example INTEGRATION or API).',
};

/** The deal catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const dealTables: CatalogTables = {
  rows: dealPropertyRows,
  labels: dealPropertyLabels,
  descriptions: dealPropertyDescriptions,
  defaultGroup: 'dealinformation',
  groups: dealGroups,
};
