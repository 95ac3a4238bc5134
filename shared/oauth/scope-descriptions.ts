import { standardScopeDescriptions } from '#standard-scope-descriptions';
import type { ScopeDescriptions } from '../objects/standard-type';
import type { Scope } from './scopes';

/** The scopes of no one standard type in plain words; each type's own are in its module (shared/objects/types/). */
const sharedScopeDescriptions = {
  oauth: 'Know who installed it: your user id, your email address and the account it is installed in.',
  timeline: 'Add events to the timelines of your contacts and companies, and manage its event types.',
  content: 'See and change your website pages, blog posts and other content.',
  forms: 'See your forms and the submissions to them, and change the forms.',
  files: 'See, upload and delete files in your file manager.',
  automation: 'See and change your workflows and sequences.',
  'e-commerce': 'See and change your products, line items and quotes.',
  tickets: 'See, create, change and delete your support tickets, and change their pipelines and properties.',
  'crm.lists.read': 'See your lists and who is on them.',
  'crm.lists.write': 'Create and change your lists and their members.',
  'crm.objects.owners.read': 'See the users of your account who can own records: their names and email addresses.',
  'crm.objects.custom.read': 'See the records of your custom objects.',
  'crm.objects.custom.write': 'Create, change and delete the records of your custom objects.',
  'crm.schemas.custom.read': 'See the custom object types your account defines and their properties.',
  'crm.schemas.custom.write': 'Create and change custom object types and their properties.',
  // Never on the consent page (no install grants them): the words of the catalog for the app's own scopes.
  'developer.webhooks_journal.read':
    "Read the app's webhooks journal: the changes of its subscriptions, in every account it is installed in.",
  'developer.webhooks_journal.subscriptions.read': "See the app's webhooks journal subscriptions and their filters.",
  'developer.webhooks_journal.subscriptions.write':
    "Create, change and delete the app's webhooks journal subscriptions and their filters.",
  'developer.webhooks_journal.snapshots.read': 'See the status of the snapshots of CRM records the app asked for.',
  'developer.webhooks_journal.snapshots.write': "Ask for snapshots of CRM records into the app's webhooks journal.",
} as const satisfies ScopeDescriptions;

/** Each scope in plain words for the consent page: what the app may read or change. */
export function scopeDescriptionsOf(typeDescriptions: readonly ScopeDescriptions[]): ScopeDescriptions {
  return Object.assign({}, sharedScopeDescriptions, ...typeDescriptions);
}

let standardDescriptions: Readonly<Record<Scope, string>> | undefined;

/** Every scope's words, built on first use (test/shared/oauth/scope-descriptions.test.ts checks that each scope has them). */
export function scopeDescriptions(): Readonly<Record<Scope, string>> {
  standardDescriptions ??= scopeDescriptionsOf(standardScopeDescriptions) as Record<Scope, string>;
  return standardDescriptions;
}

export function describeScope(scope: string): string {
  return (scopeDescriptions() as Record<string, string | undefined>)[scope] ?? `Use the ${scope} permission.`;
}
