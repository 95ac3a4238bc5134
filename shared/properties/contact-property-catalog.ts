/**
 * HubSpot's standard contact properties: names, labels, types and field types as read from a
 * portal dump (HUBSPOT-WIRE-FACTS-3.md §3.1). Groups other than `contactinformation` and
 * `sales_properties` are not sourced, so every other row stays in the default group. Option lists
 * marked "inferred" are a few plausible values, not HubSpot's full list.
 */
import type { PropertyGroup } from './property-definition';
import { lifecycleStages } from './company-property-catalog';
import {
  readOnly,
  calculated,
  booleanOptions,
  checkbox,
  datetime,
  number,
  optionsOf,
  phoneNumber,
  radio,
  select,
  standardCatalog,
  standardOutline,
  standardRules,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
  type StandardCatalog,
  type StandardOutline,
  type StandardRules,
} from './standard-catalog';

const contactGroups: readonly PropertyGroup[] = [
  { name: 'contactinformation', label: 'Contact information', displayOrder: 0, archived: false },
  { name: 'sales_properties', label: 'Sales properties', displayOrder: 1, archived: false },
];

/** What the record functions read of each standard contact property: its name, type, options and flags. */
export const contactPropertyRows: readonly CatalogRow[] = [
  { name: 'email', ...text },
  { name: 'firstname', ...text },
  { name: 'lastname', ...text },
  { name: 'phone', ...phoneNumber },
  { name: 'mobilephone', ...phoneNumber },
  { name: 'fax', ...phoneNumber },
  { name: 'company', ...text },
  { name: 'jobtitle', ...text },
  { name: 'website', ...text },
  { name: 'address', ...text },
  { name: 'city', ...text },
  { name: 'state', ...text },
  { name: 'zip', ...text },
  { name: 'country', ...text },
  { name: 'industry', ...text },
  { name: 'salutation', ...text },
  { name: 'message', ...textarea },
  {
    name: 'lifecyclestage',
    ...radio,
    options: optionsOf(lifecycleStages),
  },
  {
    name: 'hs_lead_status',
    ...radio,
    groupName: 'sales_properties',
    options: optionsOf([
      'NEW',
      'OPEN',
      'IN_PROGRESS',
      'OPEN_DEAL',
      'UNQUALIFIED',
      'ATTEMPTED_TO_CONTACT',
      'CONNECTED',
      'BAD_TIMING',
    ]),
  },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  {
    name: 'hs_timezone',
    ...select,
    // Inferred: a few zones in HubSpot's `_slash_` spelling; the real list has every IANA zone.
    options: optionsOf([
      { value: 'america_slash_los_angeles', label: 'America/Los Angeles' },
      { value: 'america_slash_chicago', label: 'America/Chicago' },
      { value: 'america_slash_new_york', label: 'America/New York' },
      { value: 'europe_slash_london', label: 'Europe/London' },
      { value: 'europe_slash_berlin', label: 'Europe/Berlin' },
      { value: 'asia_slash_tokyo', label: 'Asia/Tokyo' },
      { value: 'australia_slash_sydney', label: 'Australia/Sydney' },
    ]),
  },
  {
    name: 'hs_persona',
    ...select,
    // Inferred: portals name their own personas; these are placeholders.
    options: optionsOf([
      { value: 'persona_1', label: 'Persona 1' },
      { value: 'persona_2', label: 'Persona 2' },
      { value: 'persona_3', label: 'Persona 3' },
    ]),
  },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
  { name: 'associatedcompanyid', ...number, ...calculated },
  { name: 'hs_email_domain', ...text, ...calculated },
  { name: 'hs_additional_emails', ...select, externalOptions: true },
  { name: 'hs_all_contact_vids', ...select, ...readOnly },
  {
    name: 'hs_full_name_or_email',
    type: 'string',
    fieldType: 'calculation_equation',
    readOnly: true,
    calculated: true,
  },
  {
    name: 'hs_is_contact',
    type: 'bool',
    fieldType: 'calculation_read_time',
    readOnly: true,
    calculated: true,
    options: booleanOptions(),
  },
  {
    name: 'hs_marketable_status',
    type: 'enumeration',
    fieldType: 'booleancheckbox',
    options: optionsOf([
      { value: 'true', label: 'Marketing contact' },
      { value: 'false', label: 'Non-marketing contact' },
    ]),
  },
  { name: 'hs_object_source', ...text, ...readOnly },
  {
    name: 'hs_object_source_label',
    ...select,
    // INTEGRATION and INTERNAL_PROCESSING were observed; CRM_UI and IMPORT are inferred.
    readOnly: true,
    options: optionsOf(['CRM_UI', 'IMPORT', 'INTEGRATION', 'INTERNAL_PROCESSING']),
  },
  { name: 'hs_pipeline', ...select, externalOptions: true },
  { name: 'hs_merged_object_ids', ...checkbox, ...readOnly },
  { name: 'notes_last_updated', ...datetime, ...calculated },
  { name: 'num_associated_deals', ...number, ...calculated },
];

/** The label of each row, by name (the properties API's). */
export const contactPropertyLabels: CatalogTexts = {
  email: 'Email',
  firstname: 'First Name',
  lastname: 'Last Name',
  phone: 'Phone Number',
  mobilephone: 'Mobile Phone Number',
  fax: 'Fax Number',
  company: 'Company Name',
  jobtitle: 'Job Title',
  website: 'Website URL',
  address: 'Street Address',
  city: 'City',
  state: 'State/Region',
  zip: 'Postal Code',
  country: 'Country/Region',
  industry: 'Industry',
  salutation: 'Salutation',
  message: 'Message',
  lifecyclestage: 'Lifecycle Stage',
  hs_lead_status: 'Lead Status',
  hubspot_owner_id: 'Contact owner',
  hs_timezone: 'Time Zone',
  hs_persona: 'Persona',
  createdate: 'Create Date',
  lastmodifieddate: 'Last Modified Date',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Object last modified date/time',
  hs_object_id: 'Record ID',
  associatedcompanyid: 'Primary Associated Company ID',
  hs_email_domain: 'Email Domain',
  hs_additional_emails: 'Additional email addresses',
  hs_all_contact_vids: 'All vids for a contact',
  hs_full_name_or_email: 'Full name or email',
  hs_is_contact: 'Is a contact',
  hs_marketable_status: 'Marketing contact status',
  hs_object_source: 'Record creation source',
  hs_object_source_label: 'Record source',
  hs_pipeline: 'Pipeline',
  hs_merged_object_ids: 'Merged Contact IDs',
  notes_last_updated: 'Last Activity Date',
  num_associated_deals: 'Number of Associated Deals',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const contactPropertyDescriptions: CatalogTexts = {
  email: "The contact's email address; unique within the account.",
  firstname: "The contact's first name.",
  lastname: "The contact's last name.",
  phone: "The contact's primary phone number.",
  mobilephone: "The contact's mobile phone number.",
  fax: "The contact's fax number.",
  company: 'The name of the company the contact works for, as text (not an association).',
  jobtitle: "The contact's job title.",
  website: "The contact's company website.",
  address: "The contact's street address.",
  city: "The contact's city.",
  state: "The contact's state or region.",
  zip: "The contact's postal code.",
  country: "The contact's country or region.",
  industry: "The industry the contact works in, as free text (unlike the company's list).",
  salutation: 'How to address the contact (Mr., Ms., Dr., ...).',
  message: 'A message the contact sent, for example through a form.',
  lifecyclestage: 'The stage of the contact in the marketing and sales process; it only moves forward unless cleared.',
  hs_lead_status: "The contact's sales, prospecting or outreach status.",
  hubspot_owner_id: 'The owner of the contact (an owner id).',
  hs_timezone: "The contact's time zone.",
  hs_persona: 'The persona the contact fits.',
  createdate: 'The date the contact was created.',
  lastmodifieddate: 'The most recent time any property of the contact was changed.',
  hs_createdate: 'The date the contact was created (the generic object field).',
  hs_lastmodifieddate: 'The most recent time any property of the contact was changed (the generic object field).',
  hs_object_id: 'The unique id of the contact; equals the record id.',
  associatedcompanyid: "The id of the contact's primary associated company; follows the associations.",
  hs_email_domain: "The domain of the contact's email address.",
  hs_additional_emails:
    "The contact's further email addresses, separated by semicolons; unique within the account like email (checked with the contact, not against options).",
  hs_all_contact_vids: 'The ids of this contact and of the contacts merged into it, separated by semicolons.',
  hs_full_name_or_email: "The contact's first and last name, or the email when both are empty.",
  hs_is_contact: 'Whether the record is a contact (always true for a contact record).',
  hs_marketable_status: 'Whether the contact is a marketing contact.',
  hs_object_source: 'How the contact was created (for example INTEGRATION or API).',
  hs_object_source_label: 'The kind of source that created the contact.',
  hs_pipeline: "The lifecycle pipeline of the contact (its options are the account's pipelines).",
  hs_merged_object_ids: 'The ids of the contacts merged into this one, separated by semicolons; set by a merge.',
  notes_last_updated: 'The last time an activity was logged on the contact.',
  num_associated_deals: 'The number of deals associated with the contact.',
};

const contactTables: CatalogTables = {
  rows: contactPropertyRows,
  labels: contactPropertyLabels,
  descriptions: contactPropertyDescriptions,
  defaultGroup: 'contactinformation',
  groups: contactGroups,
};

// Built only in the bundles that read them (@__PURE__: esbuild drops an unused one, and the tables only it names).
export const contactCatalog: StandardCatalog = /* @__PURE__ */ standardCatalog(contactTables);
export const contactPropertyOutline: StandardOutline = /* @__PURE__ */ standardOutline({
  rows: contactPropertyRows,
  labels: contactPropertyLabels,
  groups: contactGroups,
});
export const contactPropertyRules: StandardRules = /* @__PURE__ */ standardRules(contactPropertyRows);
