import { tables as customObjectTables } from '../../../shared/properties/catalogs/custom-objects';
import { ValidationError } from '../../../shared/base/errors';
import { objectTypes } from '../../../shared/objects/object-types';
import { tables as callTables } from '../../../shared/properties/catalogs/calls';
import * as companyTables from '../../../shared/properties/catalogs/companies';
import * as contactTables from '../../../shared/properties/catalogs/contacts';
import * as dealTables from '../../../shared/properties/catalogs/deals';
import { tables as emailTables } from '../../../shared/properties/catalogs/emails';
import * as lineItemTables from '../../../shared/properties/catalogs/line-items';
import { tables as meetingTables } from '../../../shared/properties/catalogs/meetings';
import { tables as noteTables } from '../../../shared/properties/catalogs/notes';
import * as productTables from '../../../shared/properties/catalogs/products';
import { isReadOnly } from '../../../shared/properties/property-definition';
import { sourceCatalogTables } from '../../../shared/properties/source-catalog-tables';
import {
  type CatalogRow,
  type CatalogTexts,
  type StandardCatalog,
  standardCatalog,
} from '../../../shared/properties/standard-catalog';
import { catalogOf, standardOutlineOf, standardRulesOf } from '../../../shared/properties/standard-catalogs';
import { tables as taskTables } from '../../../shared/properties/catalogs/tasks';
import * as ticketTables from '../../../shared/properties/catalogs/tickets';
import { validatePropertyValues } from '../../../shared/properties/validate-property-values';

/**
 * The names of HUBSPOT-WIRE-FACTS-3.md §3.1-3.3, a row "a / b" read as two names; for products, line
 * items and the activities (which have no §3 table) the names of their catalogs, whose headers say
 * which are sourced (§2.1, §2.2, §2.6, §2.7) and which inferred.
 */
const wireFactNames = {
  contacts: [
    'email',
    'hs_pinned_engagement_id',
    'firstname',
    'lastname',
    'phone',
    'mobilephone',
    'fax',
    'company',
    'jobtitle',
    'website',
    'address',
    'city',
    'state',
    'zip',
    'country',
    'industry',
    'salutation',
    'message',
    'lifecyclestage',
    'hs_lead_status',
    'hubspot_owner_id',
    'hs_timezone',
    'hs_persona',
    'createdate',
    'lastmodifieddate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'associatedcompanyid',
    'hs_email_domain',
    'hs_additional_emails',
    'hs_all_contact_vids',
    'hs_full_name_or_email',
    'hs_is_contact',
    'hs_marketable_status',
    'hs_object_source',
    'hs_object_source_label',
    'hs_pipeline',
    'hs_merged_object_ids',
    'notes_last_updated',
    'num_associated_deals',
  ],
  deals: [
    'dealname',
    'hs_pinned_engagement_id',
    'amount',
    'closedate',
    'dealstage',
    'pipeline',
    'dealtype',
    'hubspot_owner_id',
    'description',
    'createdate',
    'hs_lastmodifieddate',
    'hs_createdate',
    'hs_object_id',
    'closed_lost_reason',
    'closed_won_reason',
    'hs_priority',
    'hs_deal_stage_probability',
    'deal_currency_code',
    'amount_in_home_currency',
    'hs_is_closed',
    'hs_is_closed_won',
    'hs_is_closed_lost',
    'hs_closed_amount',
    'hs_projected_amount',
    'hs_forecast_amount',
    'hs_forecast_probability',
    'hs_next_step',
    'hs_all_collaborator_owner_ids',
    'num_associated_contacts',
    'notes_last_updated',
    'hs_merged_object_ids',
    'hs_object_source',
  ],
  tickets: [
    'subject',
    'hs_pinned_engagement_id',
    'content',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_priority',
    'hs_ticket_category',
    'hubspot_owner_id',
    'source_type',
    'hs_resolution',
    'createdate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'closed_date',
    'first_agent_reply_date',
    'last_reply_date',
    'time_to_close',
    'hs_object_id',
    'hs_ticket_id',
    'hs_helpdesk_sort_timestamp',
    'hs_last_message_from_visitor',
    'hs_object_source',
    'hs_object_source_label',
    'hs_num_associated_companies',
    'num_notes',
    'hs_merged_object_ids',
    'hs_file_upload',
  ],
  products: [
    'name',
    'description',
    'price',
    'hs_sku',
    'hs_cost_of_goods_sold',
    'hs_recurring_billing_period',
    'hs_url',
    'hs_product_type',
    'hs_folder_id',
    'hubspot_owner_id',
    'createdate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  line_items: [
    'name',
    'description',
    'price',
    'quantity',
    'amount',
    'hs_product_id',
    'hs_sku',
    'discount',
    'hs_discount_percentage',
    'tax',
    'hs_line_item_currency_code',
    'hs_recurring_billing_period',
    'createdate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  notes: [
    'hs_timestamp',
    'hs_note_body',
    'hubspot_owner_id',
    'hs_attachment_ids',
    'hs_body_preview',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  calls: [
    'hs_timestamp',
    'hs_call_title',
    'hs_call_body',
    'hs_call_direction',
    'hs_call_duration',
    'hs_call_status',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_recording_url',
    'hs_call_disposition',
    'hubspot_owner_id',
    'hs_attachment_ids',
    'hs_body_preview',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  emails: [
    'hs_timestamp',
    'hs_email_direction',
    'hs_email_subject',
    'hs_email_text',
    'hs_email_html',
    'hs_email_headers',
    'hs_email_status',
    'hubspot_owner_id',
    'hs_attachment_ids',
    'hs_body_preview',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  meetings: [
    'hs_timestamp',
    'hs_meeting_title',
    'hs_meeting_body',
    'hs_internal_meeting_notes',
    'hs_meeting_external_url',
    'hs_meeting_location',
    'hs_meeting_start_time',
    'hs_meeting_end_time',
    'hs_meeting_outcome',
    'hubspot_owner_id',
    'hs_attachment_ids',
    'hs_body_preview',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  tasks: [
    'hs_timestamp',
    'hs_task_subject',
    'hs_task_body',
    'hs_task_status',
    'hs_task_priority',
    'hs_task_type',
    'hubspot_owner_id',
    'hs_attachment_ids',
    'hs_body_preview',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
} as const;

/** The properties the platform maintains: a client never writes them. */
const platformMaintained = {
  contacts: [
    'createdate',
    'lastmodifieddate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'associatedcompanyid',
    'hs_email_domain',
    'hs_all_contact_vids',
    'hs_full_name_or_email',
    'hs_is_contact',
    'hs_object_source',
    'hs_object_source_label',
    'hs_merged_object_ids',
    'notes_last_updated',
    'num_associated_deals',
  ],
  deals: [
    'createdate',
    'hs_lastmodifieddate',
    'hs_createdate',
    'hs_object_id',
    'amount_in_home_currency',
    'hs_is_closed',
    'hs_is_closed_won',
    'hs_is_closed_lost',
    'hs_closed_amount',
    'hs_projected_amount',
    'num_associated_contacts',
    'notes_last_updated',
    'hs_merged_object_ids',
    'hs_object_source',
  ],
  tickets: [
    'createdate',
    'hs_createdate',
    'hs_lastmodifieddate',
    'first_agent_reply_date',
    'last_reply_date',
    'time_to_close',
    'hs_object_id',
    'hs_ticket_id',
    'hs_helpdesk_sort_timestamp',
    'hs_last_message_from_visitor',
    'hs_object_source',
    'hs_object_source_label',
    'hs_num_associated_companies',
    'num_notes',
    'hs_merged_object_ids',
  ],
  products: ['createdate', 'hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  line_items: ['createdate', 'hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'amount'],
  notes: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_body_preview'],
  calls: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_body_preview'],
  emails: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_body_preview'],
  meetings: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_body_preview'],
  tasks: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_body_preview'],
} as const;

/**
 * The catalog of a registered type as the engine reads it; a type with tables but no registry entry
 * yet (products and line items, until shared/objects/object-types.ts holds them) is read from its
 * tables, so that its other checks run (its default-properties check fails until it is registered).
 */
const catalogByName = (name: string): StandardCatalog => {
  const type = objectTypes.find((entry) => entry.name === name);
  if (type !== undefined) return catalogOf(type);
  const tables = Object.hasOwn(sourceCatalogTables, name) ? sourceCatalogTables[name] : undefined;
  if (tables === undefined) throw new Error(`no type ${name}`);
  return standardCatalog(tables);
};
const companyCatalog = catalogByName('companies');
const contactCatalog = catalogByName('contacts');
const dealCatalog = catalogByName('deals');
const ticketCatalog = catalogByName('tickets');

const catalogs: Record<keyof typeof wireFactNames, StandardCatalog> = {
  contacts: contactCatalog,
  deals: dealCatalog,
  tickets: ticketCatalog,
  products: catalogByName('products'),
  line_items: catalogByName('line_items'),
  notes: catalogByName('notes'),
  calls: catalogByName('calls'),
  emails: catalogByName('emails'),
  meetings: catalogByName('meetings'),
  tasks: catalogByName('tasks'),
};
const typeNames = Object.keys(catalogs) as (keyof typeof catalogs)[];

function errorOf(values: Record<string, string>, catalog: StandardCatalog): ValidationError {
  try {
    validatePropertyValues(values, catalog);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe.each(typeNames)('the standard %s catalog', (typeName) => {
  const catalog = catalogs[typeName];
  const names = catalog.properties.map((definition) => definition.name);

  it('holds every name of its wire-facts table and no other', () => {
    expect([...names].sort()).toEqual([...wireFactNames[typeName]].sort());
  });

  it('names each property once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it('puts each property in one of its groups, and the default group is one of them', () => {
    const groupNames = catalog.groups.map((group) => group.name);
    expect(groupNames).toContain(catalog.defaultGroup);
    for (const definition of catalog.properties) {
      expect([definition.name, groupNames.includes(definition.groupName)]).toEqual([definition.name, true]);
    }
    expect(catalog.properties.filter((definition) => !catalog.isStandardGroup(definition.groupName))).toEqual([]);
    expect(catalog.isStandardGroup('no_such_group')).toBe(false);
  });

  it("holds the type's default properties", () => {
    const objectType = objectTypes.find((type) => type.name === typeName);
    expect(objectType?.defaultProperties.length).toBeGreaterThan(0);
    for (const name of objectType?.defaultProperties ?? [])
      expect([name, catalog.find(name)?.name]).toEqual([name, name]);
  });

  it('marks what the platform maintains read-only, and what it calculates calculated', () => {
    for (const name of platformMaintained[typeName]) {
      const definition = catalog.find(name);
      expect([name, definition && isReadOnly(definition), definition?.formField]).toEqual([name, true, false]);
    }
    for (const definition of catalog.properties.filter((entry) => entry.fieldType.startsWith('calculation_'))) {
      expect([definition.name, definition.calculated, isReadOnly(definition)]).toEqual([definition.name, true, true]);
    }
  });

  it('lists options for every enumeration unless they are kept elsewhere or the value is read-only', () => {
    const bare = catalog.properties.filter(
      (definition) =>
        definition.type === 'enumeration' &&
        definition.options.length === 0 &&
        !definition.externalOptions &&
        !isReadOnly(definition),
    );
    expect(bare.map((definition) => definition.name)).toEqual([]);
  });

  it('refuses a read-only value, as for companies', () => {
    expect(errorOf({ hs_object_id: '1' }, catalog).errors?.[0]?.code).toBe('READ_ONLY_VALUE');
  });
});

describe('validatePropertyValues with the standard catalogs', () => {
  it('accepts an owner, a pipeline and a stage of a deal', () => {
    const values = { hubspot_owner_id: '123', dealstage: 'appointmentscheduled', pipeline: 'default' };
    expect(validatePropertyValues(values, dealCatalog)).toEqual(values);
  });

  it('accepts deal collaborators as semicolon-separated owner ids', () => {
    expect(validatePropertyValues({ hs_all_collaborator_owner_ids: ';12345678;9101112' }, dealCatalog)).toEqual({
      hs_all_collaborator_owner_ids: ';12345678;9101112',
    });
    expect(errorOf({ hs_all_collaborator_owner_ids: '123;someone' }, dealCatalog).errors?.[0]?.code).toBe(
      'INVALID_OPTION',
    );
  });

  it('accepts the pipeline and stage of a ticket, numeric or not', () => {
    expect(validatePropertyValues({ hs_pipeline: '0', hs_pipeline_stage: '1' }, ticketCatalog)).toEqual({
      hs_pipeline: '0',
      hs_pipeline_stage: '1',
    });
    expect(
      validatePropertyValues({ hs_pipeline: 'support_2', hs_pipeline_stage: 'waiting_on_us' }, ticketCatalog),
    ).toEqual({ hs_pipeline: 'support_2', hs_pipeline_stage: 'waiting_on_us' });
  });

  it("accepts a contact's additional emails", () => {
    expect(validatePropertyValues({ hs_additional_emails: 'a@x.com;b@y.com' }, contactCatalog)).toEqual({
      hs_additional_emails: 'a@x.com;b@y.com',
    });
  });

  it('still checks owner ids as ids', () => {
    for (const catalog of [contactCatalog, dealCatalog, ticketCatalog, companyCatalog]) {
      expect(errorOf({ hubspot_owner_id: 'someone' }, catalog).errors?.[0]?.code).toBe('INVALID_OPTION');
      expect(validatePropertyValues({ hubspot_owner_id: '123' }, catalog)).toEqual({ hubspot_owner_id: '123' });
    }
  });

  it("refuses a value outside a listed enumeration's options", () => {
    const error = errorOf({ hs_ticket_priority: 'CRITICAL', hs_ticket_category: 'BILLING_ISSUE;NOPE' }, ticketCatalog);
    expect(error.errors?.map((entry) => [entry.in, entry.code])).toEqual([
      ['hs_ticket_priority', 'INVALID_OPTION'],
      ['hs_ticket_category', 'INVALID_OPTION'],
    ]);
    expect(
      validatePropertyValues(
        { hs_ticket_priority: 'URGENT', hs_ticket_category: 'BILLING_ISSUE;PRODUCT_ISSUE' },
        ticketCatalog,
      ),
    ).toEqual({ hs_ticket_priority: 'URGENT', hs_ticket_category: 'BILLING_ISSUE;PRODUCT_ISSUE' });
    expect(errorOf({ dealtype: 'oldbusiness' }, dealCatalog).errors?.[0]?.code).toBe('INVALID_OPTION');
    expect(errorOf({ lifecyclestage: 'prospect' }, contactCatalog).errors?.[0]?.code).toBe('INVALID_OPTION');
  });
});

/**
 * Each type's tables (rows, labels, descriptions) make three views, so that a function's bundle
 * carries only what it reads: they must tell the same story as the whole catalog.
 */
const tablesOf: Record<string, { rows: readonly CatalogRow[]; labels: CatalogTexts; descriptions: CatalogTexts }> = {
  companies: {
    rows: companyTables.companyPropertyRows,
    labels: companyTables.companyPropertyLabels,
    descriptions: companyTables.companyPropertyDescriptions,
  },
  contacts: {
    rows: contactTables.contactPropertyRows,
    labels: contactTables.contactPropertyLabels,
    descriptions: contactTables.contactPropertyDescriptions,
  },
  deals: {
    rows: dealTables.dealPropertyRows,
    labels: dealTables.dealPropertyLabels,
    descriptions: dealTables.dealPropertyDescriptions,
  },
  tickets: {
    rows: ticketTables.ticketPropertyRows,
    labels: ticketTables.ticketPropertyLabels,
    descriptions: ticketTables.ticketPropertyDescriptions,
  },
  products: {
    rows: productTables.productPropertyRows,
    labels: productTables.productPropertyLabels,
    descriptions: productTables.productPropertyDescriptions,
  },
  line_items: {
    rows: lineItemTables.lineItemPropertyRows,
    labels: lineItemTables.lineItemPropertyLabels,
    descriptions: lineItemTables.lineItemPropertyDescriptions,
  },
  notes: noteTables,
  calls: callTables,
  emails: emailTables,
  meetings: meetingTables,
  tasks: taskTables,
  custom_objects: customObjectTables,
};

describe.each(Object.keys(sourceCatalogTables))('the tables of the %s catalog', (name) => {
  it("are its module's, and label and describe every row, and nothing else", () => {
    const tables = tablesOf[name];
    expect([tables?.rows, tables?.labels, tables?.descriptions]).toEqual([
      sourceCatalogTables[name]?.rows,
      sourceCatalogTables[name]?.labels,
      sourceCatalogTables[name]?.descriptions,
    ]);
    const names = tables?.rows.map((row) => row.name);
    expect(Object.keys(tables?.labels ?? {})).toEqual(names);
    expect(Object.keys(tables?.descriptions ?? {})).toEqual(names);
  });
});

/** The stored types, and the registered types with a catalog that are not stored yet (the activities). */
const typesWithViews = objectTypes.filter((type) => type.isStored || Object.hasOwn(sourceCatalogTables, type.name));

describe.each(typesWithViews.map((type) => [type.name, type] as const))('the views of the %s catalog', (name, type) => {
  const catalog = catalogOf(type);

  it('labels and describes every row, and nothing else', () => {
    const tables = tablesOf[name];
    const names = tables?.rows.map((row) => row.name);
    expect(Object.keys(tables?.labels ?? {})).toEqual(names);
    expect(Object.keys(tables?.descriptions ?? {})).toEqual(names);
  });

  it('gives the record functions the rules of each definition', () => {
    for (const definition of catalog.properties) {
      expect(standardRulesOf(type).find(definition.name)).toEqual({
        name: definition.name,
        type: definition.type,
        fieldType: definition.fieldType,
        options: definition.options,
        externalOptions: definition.externalOptions,
        hasUniqueValue: definition.hasUniqueValue,
        modificationMetadata: definition.modificationMetadata,
        ...(definition.referencedObjectType ? { referencedObjectType: definition.referencedObjectType } : {}),
      });
    }
    expect(standardRulesOf(type).find('no_such_property')).toBeUndefined();
  });

  it("gives the properties API's writes each label and group", () => {
    const outline = standardOutlineOf(type);
    expect([...outline.labels]).toEqual(catalog.properties.map((definition) => [definition.name, definition.label]));
    expect(outline.groups).toEqual(catalog.groups);
    for (const group of catalog.groups) expect(outline.isStandardGroup(group.name)).toBe(true);
    expect(outline.isStandardGroup('no_such_group')).toBe(false);
  });
});
