import type { Scope } from './scopes';

/** Each scope in plain words for the consent page: what the app may read or change. */
export const scopeDescriptions: Record<Scope, string> = {
  oauth: 'Know who installed it: your user id, your email address and the account it is installed in.',
  'crm.objects.companies.read': 'See your companies and every property on them, and their associations.',
  'crm.objects.companies.write': 'Create, change, associate and delete your companies.',
  'crm.schemas.companies.read': 'See the company properties and association labels your account defines.',
  'crm.schemas.companies.write': 'Create company properties and association labels.',
  timeline: 'Add events to the timelines of your contacts and companies, and manage its event types.',
  'crm.objects.contacts.read': 'See your contacts and every property on them.',
  'crm.objects.contacts.write': 'Create, change and delete your contacts.',
  'crm.objects.deals.read': 'See your deals and every property on them.',
  'crm.objects.deals.write': 'Create, change and delete your deals.',
  'crm.schemas.contacts.read': 'See the contact properties your account defines.',
  'crm.schemas.deals.read': 'See the deal properties and pipelines your account defines.',
  tickets: 'See, create, change and delete your support tickets, and change their pipelines and properties.',
  content: 'See and change your website pages, blog posts and other content.',
  forms: 'See your forms and the submissions to them, and change the forms.',
  files: 'See, upload and delete files in your file manager.',
  automation: 'See and change your workflows and sequences.',
  'e-commerce': 'See and change your products, line items and quotes.',
  'crm.lists.read': 'See your lists and who is on them.',
  'crm.lists.write': 'Create and change your lists and their members.',
  'crm.objects.tickets.read': 'See your support tickets and every property on them.',
  'crm.objects.tickets.write': 'Create, change and delete your support tickets.',
  'crm.schemas.contacts.write': 'Create and change contact properties.',
  'crm.schemas.deals.write': 'Create and change deal properties and deal pipelines with their stages.',
  'crm.schemas.tickets.read': 'See the ticket properties and pipelines your account defines.',
  'crm.schemas.tickets.write': 'Create and change ticket properties and ticket pipelines with their stages.',
  'crm.objects.owners.read': 'See the users of your account who can own records: their names and email addresses.',
  'crm.objects.products.read': 'See your products and every property on them.',
  'crm.objects.products.write': 'Create, change and delete your products.',
  'crm.objects.line_items.read': 'See the line items of your deals and quotes.',
  'crm.objects.line_items.write': 'Create, change and delete the line items of your deals and quotes.',
  'crm.objects.custom.read': 'See the records of your custom objects.',
  'crm.objects.custom.write': 'Create, change and delete the records of your custom objects.',
  'crm.schemas.custom.read': 'See the custom object types your account defines and their properties.',
  'crm.schemas.custom.write': 'Create and change custom object types and their properties.',
};

export function describeScope(scope: string): string {
  return (scopeDescriptions as Record<string, string | undefined>)[scope] ?? `Use the ${scope} permission.`;
}
