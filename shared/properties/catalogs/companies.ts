import { lifecycleStages } from '../../records/lifecycle-stage';
import type { PropertyGroup } from '../property-definition';
import {
  readOnly,
  calculated,
  datetime,
  number,
  numberEquation,
  optionsOf,
  phoneNumber,
  radio,
  select,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from '../standard-catalog';

/** HubSpot's industry values, one string split at load (a list of 150 string literals would be 300 bytes more in every bundle with the catalog). */
const industries = (
  'ACCOUNTING|AIRLINES_AVIATION|ALTERNATIVE_DISPUTE_RESOLUTION|ALTERNATIVE_MEDICINE|ANIMATION|APPAREL_FASHION|' +
  'ARCHITECTURE_PLANNING|ARTS_AND_CRAFTS|AUTOMOTIVE|AVIATION_AEROSPACE|BANKING|BIOTECHNOLOGY|' +
  'BROADCAST_MEDIA|BUILDING_MATERIALS|BUSINESS_SUPPLIES_AND_EQUIPMENT|CAPITAL_MARKETS|CHEMICALS|CIVIC_SOCIAL_ORGANIZATION|' +
  'CIVIL_ENGINEERING|COMMERCIAL_REAL_ESTATE|COMPUTER_NETWORK_SECURITY|COMPUTER_GAMES|COMPUTER_HARDWARE|COMPUTER_NETWORKING|' +
  'COMPUTER_SOFTWARE|INTERNET|CONSTRUCTION|CONSUMER_ELECTRONICS|CONSUMER_GOODS|CONSUMER_SERVICES|' +
  'COSMETICS|DAIRY|DEFENSE_SPACE|DESIGN|EDUCATION_MANAGEMENT|E_LEARNING|' +
  'ELECTRICAL_ELECTRONIC_MANUFACTURING|ENTERTAINMENT|ENVIRONMENTAL_SERVICES|EVENTS_SERVICES|EXECUTIVE_OFFICE|FACILITIES_SERVICES|' +
  'FARMING|FINANCIAL_SERVICES|FINE_ART|FISHERY|FOOD_BEVERAGES|FOOD_PRODUCTION|' +
  'FUND_RAISING|FURNITURE|GAMBLING_CASINOS|GLASS_CERAMICS_CONCRETE|GOVERNMENT_ADMINISTRATION|GOVERNMENT_RELATIONS|' +
  'GRAPHIC_DESIGN|HEALTH_WELLNESS_AND_FITNESS|HIGHER_EDUCATION|HOSPITAL_HEALTH_CARE|HOSPITALITY|HUMAN_RESOURCES|' +
  'IMPORT_AND_EXPORT|INDIVIDUAL_FAMILY_SERVICES|INDUSTRIAL_AUTOMATION|INFORMATION_SERVICES|INFORMATION_TECHNOLOGY_AND_SERVICES|INSURANCE|' +
  'INTERNATIONAL_AFFAIRS|INTERNATIONAL_TRADE_AND_DEVELOPMENT|INVESTMENT_BANKING|INVESTMENT_MANAGEMENT|JUDICIARY|LAW_ENFORCEMENT|' +
  'LAW_PRACTICE|LEGAL_SERVICES|LEGISLATIVE_OFFICE|LEISURE_TRAVEL_TOURISM|LIBRARIES|LOGISTICS_AND_SUPPLY_CHAIN|' +
  'LUXURY_GOODS_JEWELRY|MACHINERY|MANAGEMENT_CONSULTING|MARITIME|MARKET_RESEARCH|MARKETING_AND_ADVERTISING|' +
  'MECHANICAL_OR_INDUSTRIAL_ENGINEERING|MEDIA_PRODUCTION|MEDICAL_DEVICES|MEDICAL_PRACTICE|MENTAL_HEALTH_CARE|MILITARY|' +
  'MINING_METALS|MOTION_PICTURES_AND_FILM|MUSEUMS_AND_INSTITUTIONS|MUSIC|NANOTECHNOLOGY|NEWSPAPERS|' +
  'NON_PROFIT_ORGANIZATION_MANAGEMENT|OIL_ENERGY|ONLINE_MEDIA|OUTSOURCING_OFFSHORING|PACKAGE_FREIGHT_DELIVERY|PACKAGING_AND_CONTAINERS|' +
  'PAPER_FOREST_PRODUCTS|PERFORMING_ARTS|PHARMACEUTICALS|PHILANTHROPY|PHOTOGRAPHY|PLASTICS|' +
  'POLITICAL_ORGANIZATION|PRIMARY_SECONDARY_EDUCATION|PRINTING|PROFESSIONAL_TRAINING_COACHING|PROGRAM_DEVELOPMENT|PUBLIC_POLICY|' +
  'PUBLIC_RELATIONS_AND_COMMUNICATIONS|PUBLIC_SAFETY|PUBLISHING|RAILROAD_MANUFACTURE|RANCHING|REAL_ESTATE|' +
  'RECREATIONAL_FACILITIES_AND_SERVICES|RELIGIOUS_INSTITUTIONS|RENEWABLES_ENVIRONMENT|RESEARCH|RESTAURANTS|RETAIL|' +
  'SECURITY_AND_INVESTIGATIONS|SEMICONDUCTORS|SHIPBUILDING|SPORTING_GOODS|SPORTS|STAFFING_AND_RECRUITING|' +
  'SUPERMARKETS|TELECOMMUNICATIONS|TEXTILES|THINK_TANKS|TOBACCO|TRANSLATION_AND_LOCALIZATION|' +
  'TRANSPORTATION_TRUCKING_RAILROAD|UTILITIES|VENTURE_CAPITAL_PRIVATE_EQUITY|VETERINARY|WAREHOUSING|WHOLESALE|' +
  'WINE_AND_SPIRITS|WIRELESS|WRITING_AND_EDITING'
).split('|');

/** What the record functions read of each standard company property: its name, type, options and flags. */
export const companyPropertyRows: readonly CatalogRow[] = [
  { name: 'name', ...text },
  { name: 'domain', ...text },
  { name: 'hs_additional_domains', ...text },
  { name: 'website', ...text },
  { name: 'phone', ...phoneNumber },
  { name: 'address', ...text },
  { name: 'address2', ...text },
  { name: 'city', ...text },
  { name: 'state', ...text },
  { name: 'zip', ...text },
  { name: 'country', ...text },
  {
    name: 'industry',
    ...select,
    options: optionsOf(industries),
  },
  {
    name: 'type',
    ...radio,
    options: optionsOf(['PROSPECT', 'PARTNER', 'RESELLER', 'VENDOR', 'OTHER']),
  },
  {
    name: 'lifecyclestage',
    ...radio,
    options: optionsOf(lifecycleStages),
  },
  {
    name: 'hs_lead_status',
    ...radio,
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
  { name: 'description', ...textarea },
  { name: 'about_us', ...text },
  { name: 'numberofemployees', ...number },
  { name: 'annualrevenue', ...number },
  { name: 'founded_year', ...text },
  {
    name: 'is_public',
    type: 'bool',
    fieldType: 'booleancheckbox',
    options: [
      { label: 'Yes', value: 'true', displayOrder: 0, hidden: false },
      { label: 'No', value: 'false', displayOrder: 1, hidden: false },
    ],
  },
  { name: 'timezone', ...text },
  { name: 'total_money_raised', ...text },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  { name: 'hubspot_team_id', ...select },
  { name: 'hs_pinned_engagement_id', ...number },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
  { name: 'hs_merged_object_ids', ...text, ...readOnly },
  { name: 'closedate', ...datetime },
  { name: 'first_deal_created_date', ...datetime, ...calculated },
  { name: 'recent_deal_amount', ...number, ...calculated },
  { name: 'recent_deal_close_date', ...datetime, ...calculated },
  { name: 'num_associated_contacts', ...number, ...calculated },
  { name: 'num_associated_deals', ...number, ...calculated },
  { name: 'hs_num_child_companies', ...number, ...calculated },
  { name: 'hs_parent_company_id', ...number, ...calculated },
  { name: 'total_revenue', type: 'number', fieldType: 'calculation_rollup', ...calculated },
  { name: 'days_to_close', ...numberEquation, ...calculated },
  { name: 'notes_last_updated', ...datetime, ...calculated },
  { name: 'notes_last_contacted', ...datetime, ...calculated },
  { name: 'num_contacted_notes', ...number, ...calculated },
  { name: 'linkedin_company_page', ...text, groupName: 'social_media_information' },
  { name: 'twitterhandle', ...text, groupName: 'social_media_information' },
  { name: 'facebook_company_page', ...text, groupName: 'social_media_information' },
  {
    name: 'hs_analytics_source',
    ...select,
    groupName: 'analyticsinformation',
    readOnly: true,
    calculated: true,
    options: optionsOf([
      'ORGANIC_SEARCH',
      'PAID_SEARCH',
      'EMAIL_MARKETING',
      'SOCIAL_MEDIA',
      'REFERRALS',
      'OTHER_CAMPAIGNS',
      'DIRECT_TRAFFIC',
      'OFFLINE',
      'PAID_SOCIAL',
    ]),
  },
  {
    name: 'hs_analytics_num_page_views',
    ...number,
    groupName: 'analyticsinformation',
    readOnly: true,
    calculated: true,
  },
];

/** The label of each row, by name (the properties API's). */
export const companyPropertyLabels: CatalogTexts = {
  name: 'Name',
  domain: 'Company Domain Name',
  hs_additional_domains: 'Additional Domains',
  website: 'Website URL',
  phone: 'Phone Number',
  address: 'Street Address',
  address2: 'Street Address 2',
  city: 'City',
  state: 'State/Region',
  zip: 'Postal Code',
  country: 'Country/Region',
  industry: 'Industry',
  type: 'Type',
  lifecyclestage: 'Lifecycle Stage',
  hs_lead_status: 'Lead Status',
  description: 'Description',
  about_us: 'About Us',
  numberofemployees: 'Number of Employees',
  annualrevenue: 'Annual Revenue',
  founded_year: 'Year Founded',
  is_public: 'Is Public',
  timezone: 'Time Zone',
  total_money_raised: 'Total Money Raised',
  hubspot_owner_id: 'Company owner',
  hubspot_team_id: 'HubSpot Team',
  hs_pinned_engagement_id: 'Pinned Engagement ID',
  createdate: 'Create Date',
  hs_lastmodifieddate: 'Last Modified Date',
  hs_object_id: 'Record ID',
  hs_merged_object_ids: 'Merged Company IDs',
  closedate: 'Close Date',
  first_deal_created_date: 'First Deal Created Date',
  recent_deal_amount: 'Recent Deal Amount',
  recent_deal_close_date: 'Recent Deal Close Date',
  num_associated_contacts: 'Number of Associated Contacts',
  num_associated_deals: 'Number of Associated Deals',
  hs_num_child_companies: 'Number of child companies',
  hs_parent_company_id: 'Parent Company',
  total_revenue: 'Total Revenue',
  days_to_close: 'Days to Close',
  notes_last_updated: 'Last Activity Date',
  notes_last_contacted: 'Last Contacted',
  num_contacted_notes: 'Number of times contacted',
  linkedin_company_page: 'LinkedIn Company Page',
  twitterhandle: 'Twitter Handle',
  facebook_company_page: 'Facebook Company Page',
  hs_analytics_source: 'Original Traffic Source',
  hs_analytics_num_page_views: 'Number of Pageviews',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const companyPropertyDescriptions: CatalogTexts = {
  name: 'The name of the company or organization.',
  domain: "The domain name of the company's website; unique within the account.",
  hs_additional_domains:
    'Further domains of the company, separated by semicolons; unique within the account like domain.',
  website: "The company's website.",
  phone: "The company's primary phone number.",
  address: "The street address of the company's main office.",
  address2: 'The second line of the street address.',
  city: "The city of the company's main office.",
  state: "The state or region of the company's main office.",
  zip: "The postal code of the company's main office.",
  country: "The country or region of the company's main office.",
  industry: "The company's industry.",
  type: 'The kind of relationship with the company.',
  lifecyclestage: 'The stage of the company in the marketing and sales process; it only moves forward unless cleared.',
  hs_lead_status: "The company's sales, prospecting or outreach status.",
  description: "A short statement about the company's mission and goals.",
  about_us: 'A short about-us text for the company.',
  numberofemployees: 'The total number of employees of the company.',
  annualrevenue: 'The actual or estimated annual revenue of the company.',
  founded_year: 'The year the company was founded.',
  is_public: 'Whether the company is publicly traded.',
  timezone: "The time zone of the company's main office.",
  total_money_raised: 'The total amount of money raised by the company.',
  hubspot_owner_id: 'The owner of the company (an owner id).',
  hubspot_team_id: 'The team of the owner of the company (a team id).',
  hs_pinned_engagement_id: 'The id of the activity pinned on the company; it must be associated with the company.',
  createdate: 'The date the company was created.',
  hs_lastmodifieddate: 'The most recent time any property of the company was changed.',
  hs_object_id: 'The unique id of the company; equals the record id.',
  hs_merged_object_ids: 'The ids of the companies merged into this one, separated by semicolons; set by a merge.',
  closedate: 'The date the company became a customer.',
  first_deal_created_date: 'The date the first deal of the company was created.',
  recent_deal_amount: 'The amount of the last closed-won deal of the company.',
  recent_deal_close_date: 'The close date of the last closed-won deal of the company.',
  num_associated_contacts: 'The number of contacts associated with the company.',
  num_associated_deals: 'The number of deals associated with the company.',
  hs_num_child_companies: 'The number of child companies of the company.',
  hs_parent_company_id: 'The id of the parent company.',
  total_revenue: 'The sum of the closed-won deals of the company.',
  days_to_close: 'The days between creation and the first closed-won deal.',
  notes_last_updated: 'The last time an activity was logged on the company.',
  notes_last_contacted: 'The last time a contact of the company was reached.',
  num_contacted_notes: 'The number of times the company was contacted.',
  linkedin_company_page: 'The URL of the LinkedIn company page.',
  twitterhandle: "The company's Twitter handle.",
  facebook_company_page: 'The URL of the Facebook company page.',
  hs_analytics_source: 'The first source through which the company found the website.',
  hs_analytics_num_page_views: 'The number of page views of the company contacts.',
};

/** The groups of HubSpot's standard company properties: they have no item and cannot change. */
export const standardCompanyPropertyGroups: readonly PropertyGroup[] = [
  { name: 'companyinformation', label: 'Company information', displayOrder: 0, archived: false },
  { name: 'social_media_information', label: 'Social media information', displayOrder: 1, archived: false },
  { name: 'analyticsinformation', label: 'Web analytics history', displayOrder: 2, archived: false },
];

/** The company catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const tables: CatalogTables = {
  rows: companyPropertyRows,
  labels: companyPropertyLabels,
  descriptions: companyPropertyDescriptions,
  defaultGroup: 'companyinformation',
  groups: standardCompanyPropertyGroups,
};
