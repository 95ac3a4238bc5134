import type { Scope } from '../oauth/scopes';
import { customObjectScopes } from '../objects/custom-object-types';

/**
 * The limits tracking rows' scopes: of the scopes HubSpot's spec lets call them (any one suffices),
 * those this service grants (CRM/Limits Tracking/Rollouts/199890, v3 and 2026-03 alike). The spec
 * lists the custom, company, contact, deal, product and line item record scopes, `tickets` and
 * `e-commerce`, but not `crm.objects.tickets.*`.
 */
export const limitsTrackingScopes = [
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'crm.objects.line_items.read',
  'crm.objects.line_items.write',
  'crm.objects.products.read',
  'crm.objects.products.write',
  'e-commerce',
  'tickets',
] as const satisfies readonly Scope[];

/** The custom object limits row: any custom object scope, records' or schemas', as the spec lists them. */
export const customObjectLimitScopes = [
  ...customObjectScopes.properties.read,
  ...customObjectScopes.records.write,
  ...customObjectScopes.properties.write,
] as const satisfies readonly Scope[];
