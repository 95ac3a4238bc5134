import type { FieldType, PropertyDefinition, PropertyGroup, PropertyOption, PropertyType } from './property-definition';

/** HubSpot's default lifecycle stages in pipeline order; the order drives the forward-only rule. */
export const lifecycleStages = [
  { value: 'subscriber', label: 'Subscriber' },
  { value: 'lead', label: 'Lead' },
  { value: 'marketingqualifiedlead', label: 'Marketing Qualified Lead' },
  { value: 'salesqualifiedlead', label: 'Sales Qualified Lead' },
  { value: 'opportunity', label: 'Opportunity' },
  { value: 'customer', label: 'Customer' },
  { value: 'evangelist', label: 'Evangelist' },
  { value: 'other', label: 'Other' },
] as const;

const industries = [
  'ACCOUNTING', 'AIRLINES_AVIATION', 'ALTERNATIVE_DISPUTE_RESOLUTION', 'ALTERNATIVE_MEDICINE', 'ANIMATION', 'APPAREL_FASHION',
  'ARCHITECTURE_PLANNING', 'ARTS_AND_CRAFTS', 'AUTOMOTIVE', 'AVIATION_AEROSPACE', 'BANKING', 'BIOTECHNOLOGY', 'BROADCAST_MEDIA',
  'BUILDING_MATERIALS', 'BUSINESS_SUPPLIES_AND_EQUIPMENT', 'CAPITAL_MARKETS', 'CHEMICALS', 'CIVIC_SOCIAL_ORGANIZATION',
  'CIVIL_ENGINEERING', 'COMMERCIAL_REAL_ESTATE', 'COMPUTER_NETWORK_SECURITY', 'COMPUTER_GAMES', 'COMPUTER_HARDWARE',
  'COMPUTER_NETWORKING', 'COMPUTER_SOFTWARE', 'INTERNET', 'CONSTRUCTION', 'CONSUMER_ELECTRONICS', 'CONSUMER_GOODS',
  'CONSUMER_SERVICES', 'COSMETICS', 'DAIRY', 'DEFENSE_SPACE', 'DESIGN', 'EDUCATION_MANAGEMENT', 'E_LEARNING',
  'ELECTRICAL_ELECTRONIC_MANUFACTURING', 'ENTERTAINMENT', 'ENVIRONMENTAL_SERVICES', 'EVENTS_SERVICES', 'EXECUTIVE_OFFICE',
  'FACILITIES_SERVICES', 'FARMING', 'FINANCIAL_SERVICES', 'FINE_ART', 'FISHERY', 'FOOD_BEVERAGES', 'FOOD_PRODUCTION',
  'FUND_RAISING', 'FURNITURE', 'GAMBLING_CASINOS', 'GLASS_CERAMICS_CONCRETE', 'GOVERNMENT_ADMINISTRATION',
  'GOVERNMENT_RELATIONS', 'GRAPHIC_DESIGN', 'HEALTH_WELLNESS_AND_FITNESS', 'HIGHER_EDUCATION', 'HOSPITAL_HEALTH_CARE',
  'HOSPITALITY', 'HUMAN_RESOURCES', 'IMPORT_AND_EXPORT', 'INDIVIDUAL_FAMILY_SERVICES', 'INDUSTRIAL_AUTOMATION',
  'INFORMATION_SERVICES', 'INFORMATION_TECHNOLOGY_AND_SERVICES', 'INSURANCE', 'INTERNATIONAL_AFFAIRS',
  'INTERNATIONAL_TRADE_AND_DEVELOPMENT', 'INVESTMENT_BANKING', 'INVESTMENT_MANAGEMENT', 'JUDICIARY', 'LAW_ENFORCEMENT',
  'LAW_PRACTICE', 'LEGAL_SERVICES', 'LEGISLATIVE_OFFICE', 'LEISURE_TRAVEL_TOURISM', 'LIBRARIES', 'LOGISTICS_AND_SUPPLY_CHAIN',
  'LUXURY_GOODS_JEWELRY', 'MACHINERY', 'MANAGEMENT_CONSULTING', 'MARITIME', 'MARKET_RESEARCH', 'MARKETING_AND_ADVERTISING',
  'MECHANICAL_OR_INDUSTRIAL_ENGINEERING', 'MEDIA_PRODUCTION', 'MEDICAL_DEVICES', 'MEDICAL_PRACTICE', 'MENTAL_HEALTH_CARE',
  'MILITARY', 'MINING_METALS', 'MOTION_PICTURES_AND_FILM', 'MUSEUMS_AND_INSTITUTIONS', 'MUSIC', 'NANOTECHNOLOGY', 'NEWSPAPERS',
  'NON_PROFIT_ORGANIZATION_MANAGEMENT', 'OIL_ENERGY', 'ONLINE_MEDIA', 'OUTSOURCING_OFFSHORING', 'PACKAGE_FREIGHT_DELIVERY',
  'PACKAGING_AND_CONTAINERS', 'PAPER_FOREST_PRODUCTS', 'PERFORMING_ARTS', 'PHARMACEUTICALS', 'PHILANTHROPY', 'PHOTOGRAPHY',
  'PLASTICS', 'POLITICAL_ORGANIZATION', 'PRIMARY_SECONDARY_EDUCATION', 'PRINTING', 'PROFESSIONAL_TRAINING_COACHING',
  'PROGRAM_DEVELOPMENT', 'PUBLIC_POLICY', 'PUBLIC_RELATIONS_AND_COMMUNICATIONS', 'PUBLIC_SAFETY', 'PUBLISHING',
  'RAILROAD_MANUFACTURE', 'RANCHING', 'REAL_ESTATE', 'RECREATIONAL_FACILITIES_AND_SERVICES', 'RELIGIOUS_INSTITUTIONS',
  'RENEWABLES_ENVIRONMENT', 'RESEARCH', 'RESTAURANTS', 'RETAIL', 'SECURITY_AND_INVESTIGATIONS', 'SEMICONDUCTORS',
  'SHIPBUILDING', 'SPORTING_GOODS', 'SPORTS', 'STAFFING_AND_RECRUITING', 'SUPERMARKETS', 'TELECOMMUNICATIONS', 'TEXTILES',
  'THINK_TANKS', 'TOBACCO', 'TRANSLATION_AND_LOCALIZATION', 'TRANSPORTATION_TRUCKING_RAILROAD', 'UTILITIES',
  'VENTURE_CAPITAL_PRIVATE_EQUITY', 'VETERINARY', 'WAREHOUSING', 'WHOLESALE', 'WINE_AND_SPIRITS', 'WIRELESS',
  'WRITING_AND_EDITING',
];

function labelOf(value: string): string {
  return value.toLowerCase().split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

function optionsOf(values: readonly (string | { value: string; label: string })[]): PropertyOption[] {
  return values.map((entry, index) => {
    const { value, label } = typeof entry === 'string' ? { value: entry, label: labelOf(entry) } : entry;
    return { label, value, displayOrder: index, hidden: false };
  });
}

interface Row {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  groupName?: string;
  description: string;
  options?: PropertyOption[];
  /** Maintained by the platform: never accepted as input. */
  readOnly?: boolean;
  calculated?: boolean;
  referencedObjectType?: string;
}

const rows: Row[] = [
  { name: 'name', label: 'Name', type: 'string', fieldType: 'text', description: 'The name of the company or organization.' },
  { name: 'domain', label: 'Company Domain Name', type: 'string', fieldType: 'text', description: "The domain name of the company's website; unique within the account." },
  { name: 'hs_additional_domains', label: 'Additional Domains', type: 'string', fieldType: 'text', description: 'Further domains of the company, separated by semicolons; unique within the account like domain.' },
  { name: 'website', label: 'Website URL', type: 'string', fieldType: 'text', description: "The company's website." },
  { name: 'phone', label: 'Phone Number', type: 'string', fieldType: 'phonenumber', description: "The company's primary phone number." },
  { name: 'address', label: 'Street Address', type: 'string', fieldType: 'text', description: "The street address of the company's main office." },
  { name: 'address2', label: 'Street Address 2', type: 'string', fieldType: 'text', description: 'The second line of the street address.' },
  { name: 'city', label: 'City', type: 'string', fieldType: 'text', description: "The city of the company's main office." },
  { name: 'state', label: 'State/Region', type: 'string', fieldType: 'text', description: "The state or region of the company's main office." },
  { name: 'zip', label: 'Postal Code', type: 'string', fieldType: 'text', description: "The postal code of the company's main office." },
  { name: 'country', label: 'Country/Region', type: 'string', fieldType: 'text', description: "The country or region of the company's main office." },
  { name: 'industry', label: 'Industry', type: 'enumeration', fieldType: 'select', description: "The company's industry.", options: optionsOf(industries) },
  { name: 'type', label: 'Type', type: 'enumeration', fieldType: 'radio', description: 'The kind of relationship with the company.', options: optionsOf(['PROSPECT', 'PARTNER', 'RESELLER', 'VENDOR', 'OTHER']) },
  { name: 'lifecyclestage', label: 'Lifecycle Stage', type: 'enumeration', fieldType: 'radio', description: 'The stage of the company in the marketing and sales process; it only moves forward unless cleared.', options: optionsOf(lifecycleStages) },
  { name: 'hs_lead_status', label: 'Lead Status', type: 'enumeration', fieldType: 'radio', description: "The company's sales, prospecting or outreach status.", options: optionsOf(['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING']) },
  { name: 'description', label: 'Description', type: 'string', fieldType: 'textarea', description: "A short statement about the company's mission and goals." },
  { name: 'about_us', label: 'About Us', type: 'string', fieldType: 'text', description: 'A short about-us text for the company.' },
  { name: 'numberofemployees', label: 'Number of Employees', type: 'number', fieldType: 'number', description: 'The total number of employees of the company.' },
  { name: 'annualrevenue', label: 'Annual Revenue', type: 'number', fieldType: 'number', description: 'The actual or estimated annual revenue of the company.' },
  { name: 'founded_year', label: 'Year Founded', type: 'string', fieldType: 'text', description: 'The year the company was founded.' },
  { name: 'is_public', label: 'Is Public', type: 'bool', fieldType: 'booleancheckbox', description: 'Whether the company is publicly traded.', options: [{ label: 'Yes', value: 'true', displayOrder: 0, hidden: false }, { label: 'No', value: 'false', displayOrder: 1, hidden: false }] },
  { name: 'timezone', label: 'Time Zone', type: 'string', fieldType: 'text', description: "The time zone of the company's main office." },
  { name: 'total_money_raised', label: 'Total Money Raised', type: 'string', fieldType: 'text', description: 'The total amount of money raised by the company.' },
  { name: 'hubspot_owner_id', label: 'Company owner', type: 'enumeration', fieldType: 'select', description: 'The owner of the company (an owner id).', referencedObjectType: 'OWNER' },
  { name: 'hubspot_team_id', label: 'HubSpot Team', type: 'enumeration', fieldType: 'select', description: 'The team of the owner of the company (a team id).' },
  { name: 'hs_pinned_engagement_id', label: 'Pinned Engagement ID', type: 'number', fieldType: 'number', description: 'The id of the activity pinned on the company; it must be associated with the company.' },
  { name: 'createdate', label: 'Create Date', type: 'datetime', fieldType: 'date', description: 'The date the company was created.', readOnly: true },
  { name: 'hs_lastmodifieddate', label: 'Last Modified Date', type: 'datetime', fieldType: 'date', description: 'The most recent time any property of the company was changed.', readOnly: true },
  { name: 'hs_object_id', label: 'Record ID', type: 'number', fieldType: 'number', description: 'The unique id of the company; equals the record id.', readOnly: true },
  { name: 'hs_merged_object_ids', label: 'Merged Company IDs', type: 'string', fieldType: 'text', description: 'The ids of the companies merged into this one, separated by semicolons; set by a merge.', readOnly: true },
  { name: 'closedate', label: 'Close Date', type: 'datetime', fieldType: 'date', description: 'The date the company became a customer.' },
  { name: 'first_deal_created_date', label: 'First Deal Created Date', type: 'datetime', fieldType: 'date', description: 'The date the first deal of the company was created.', readOnly: true, calculated: true },
  { name: 'recent_deal_amount', label: 'Recent Deal Amount', type: 'number', fieldType: 'number', description: 'The amount of the last closed-won deal of the company.', readOnly: true, calculated: true },
  { name: 'recent_deal_close_date', label: 'Recent Deal Close Date', type: 'datetime', fieldType: 'date', description: 'The close date of the last closed-won deal of the company.', readOnly: true, calculated: true },
  { name: 'num_associated_contacts', label: 'Number of Associated Contacts', type: 'number', fieldType: 'number', description: 'The number of contacts associated with the company.', readOnly: true, calculated: true },
  { name: 'num_associated_deals', label: 'Number of Associated Deals', type: 'number', fieldType: 'number', description: 'The number of deals associated with the company.', readOnly: true, calculated: true },
  { name: 'hs_num_child_companies', label: 'Number of child companies', type: 'number', fieldType: 'number', description: 'The number of child companies of the company.', readOnly: true, calculated: true },
  { name: 'hs_parent_company_id', label: 'Parent Company', type: 'number', fieldType: 'number', description: 'The id of the parent company.', readOnly: true, calculated: true },
  { name: 'total_revenue', label: 'Total Revenue', type: 'number', fieldType: 'calculation_rollup', description: 'The sum of the closed-won deals of the company.', readOnly: true, calculated: true },
  { name: 'days_to_close', label: 'Days to Close', type: 'number', fieldType: 'calculation_equation', description: 'The days between creation and the first closed-won deal.', readOnly: true, calculated: true },
  { name: 'notes_last_updated', label: 'Last Activity Date', type: 'datetime', fieldType: 'date', description: 'The last time an activity was logged on the company.', readOnly: true, calculated: true },
  { name: 'notes_last_contacted', label: 'Last Contacted', type: 'datetime', fieldType: 'date', description: 'The last time a contact of the company was reached.', readOnly: true, calculated: true },
  { name: 'num_contacted_notes', label: 'Number of times contacted', type: 'number', fieldType: 'number', description: 'The number of times the company was contacted.', readOnly: true, calculated: true },
  { name: 'linkedin_company_page', label: 'LinkedIn Company Page', type: 'string', fieldType: 'text', groupName: 'social_media_information', description: 'The URL of the LinkedIn company page.' },
  { name: 'twitterhandle', label: 'Twitter Handle', type: 'string', fieldType: 'text', groupName: 'social_media_information', description: "The company's Twitter handle." },
  { name: 'facebook_company_page', label: 'Facebook Company Page', type: 'string', fieldType: 'text', groupName: 'social_media_information', description: 'The URL of the Facebook company page.' },
  { name: 'hs_analytics_source', label: 'Original Traffic Source', type: 'enumeration', fieldType: 'select', groupName: 'analyticsinformation', description: 'The first source through which the company found the website.', readOnly: true, calculated: true, options: optionsOf(['ORGANIC_SEARCH', 'PAID_SEARCH', 'EMAIL_MARKETING', 'SOCIAL_MEDIA', 'REFERRALS', 'OTHER_CAMPAIGNS', 'DIRECT_TRAFFIC', 'OFFLINE', 'PAID_SOCIAL']) },
  { name: 'hs_analytics_num_page_views', label: 'Number of Pageviews', type: 'number', fieldType: 'number', groupName: 'analyticsinformation', description: 'The number of page views of the company contacts.', readOnly: true, calculated: true },
];

/** A stable date for the standard definitions, so the catalog reads the same on every call. */
const catalogDate = '2019-08-06T02:41:08.029Z';

function definitionOf(row: Row): PropertyDefinition {
  const readOnly = row.readOnly ?? false;
  return {
    name: row.name,
    label: row.label,
    type: row.type,
    fieldType: row.fieldType,
    description: row.description,
    groupName: row.groupName ?? 'companyinformation',
    options: row.options ?? [],
    displayOrder: -1,
    calculated: row.calculated ?? false,
    externalOptions: row.referencedObjectType !== undefined,
    hasUniqueValue: false,
    hidden: false,
    hubspotDefined: true,
    formField: !readOnly,
    dataSensitivity: 'non_sensitive',
    modificationMetadata: { archivable: false, readOnlyDefinition: true, readOnlyValue: readOnly },
    ...(row.referencedObjectType ? { referencedObjectType: row.referencedObjectType } : {}),
    archived: false,
    createdAt: catalogDate,
    updatedAt: catalogDate,
  };
}

export const standardCompanyProperties: readonly PropertyDefinition[] = rows.map(definitionOf);

const byName = new Map(standardCompanyProperties.map((definition) => [definition.name, definition]));

export function findStandardCompanyProperty(name: string): PropertyDefinition | undefined {
  return byName.get(name);
}

/** What a read returns when the client names no properties (HubSpot's default company properties). */
export const defaultCompanyPropertyNames = ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'] as const;

/** The groups of HubSpot's standard company properties: they have no item and cannot change. */
export const standardCompanyPropertyGroups: readonly PropertyGroup[] = [
  { name: 'companyinformation', label: 'Company information', displayOrder: 0, archived: false },
  { name: 'social_media_information', label: 'Social media information', displayOrder: 1, archived: false },
  { name: 'analyticsinformation', label: 'Web analytics history', displayOrder: 2, archived: false },
];

export const isStandardCompanyPropertyGroup = (name: string): boolean => standardCompanyPropertyGroups.some((group) => group.name === name);
