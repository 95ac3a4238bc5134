import { createAccount, createApp, createUser } from '../shared/admin/provisioning';
import { findUserByEmail } from '../shared/db/users';
import { putJournalEntries } from '../shared/db/webhooks-journal-entries';
import { nowMs } from '../shared/base/clock';
import { journalRetentionMs } from '../shared/webhooks-journal/journal-events';
import { journalOffsetOf } from '../shared/webhooks-journal/journal-offsets';
import { checkAuthorizeRequest, decideConsent } from '../shared/oauth/install-flow';
import { clientCredentialsScopes } from '../shared/oauth/scopes';
import { formRequest, jsonRequest, type ApiClient } from './http-client';

export interface BenchInstall {
  appId: number;
  hubId: number;
  clientId: string;
  clientSecret: string;
  /** The app's developer API key: event types are managed with it (`?hapikey=`), not with access tokens. */
  developerApiKey: string;
  accessToken: string;
  refreshToken: string;
  /** The app's own token (the client-credentials grant's, every journal scope): the webhooks journal rows take it. */
  appToken: string;
}

const scopes = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'timeline',
  'crm.objects.deals.read',
  'crm.objects.owners.read',
  'e-commerce',
  'crm.lists.read',
  'crm.lists.write',
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
];
const redirectUri = 'https://bench.example.com/oauth/callback';
let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** An app installed in a fresh account, through the consent step and the real token endpoint. */
export async function installApp(api: ApiClient, options: { rateLimited?: boolean } = {}): Promise<BenchInstall> {
  // The app also lists its own scopes (the webhooks journal's), which an install never grants.
  const app = await createApp({
    name: uniqueName('Bench app'),
    redirectUris: [redirectUri],
    scopes: [...scopes, ...clientCredentialsScopes],
    optionalScopes: [],
  });
  const installed = await installInNewAccount(api, app, options);
  const granted = await api.expectOk(
    formRequest('/oauth/2026-03/token', {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: clientCredentialsScopes.join(' '),
    }),
  );
  return {
    appId: app.appId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    developerApiKey: app.developerApiKey ?? '',
    appToken: (JSON.parse(granted.body) as { access_token: string }).access_token,
    ...installed,
  };
}

/** An existing app installed in one more fresh account (same consent step and token endpoint): that account's tokens. */
export async function installInNewAccount(
  api: ApiClient,
  app: { clientId: string; clientSecret: string },
  options: { rateLimited?: boolean } = {},
): Promise<Pick<BenchInstall, 'hubId' | 'accessToken' | 'refreshToken'>> {
  // Limits off unless asked for: throughput runs would otherwise measure 429s. On: the default limits, high enough for a latency run.
  const account = await createAccount(
    `${uniqueName('bench')}.example`,
    options.rateLimited ? { tenSecondlyLimit: 1_000_000 } : { tenSecondlyLimit: 0, searchPerSecondLimit: 0 },
  );
  const email = `${uniqueName('bench')}@example.com`;
  await createUser(email, 'correct horse battery staple', [account.hubId]);
  const check = await checkAuthorizeRequest({
    client_id: app.clientId,
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
  });
  if (check.outcome !== 'ok') throw new Error(`authorize check failed: ${JSON.stringify(check)}`);
  const user = await findUserByEmail(email);
  if (!user) throw new Error('bench user missing');
  const code =
    new URL(await decideConsent(check.request, check.app, user, 'allow', account.hubId)).searchParams.get('code') ?? '';
  const response = await api.expectOk(
    formRequest('/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: redirectUri,
      code,
    }),
  );
  const tokens = JSON.parse(response.body) as { access_token: string; refresh_token: string };
  return { hubId: account.hubId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** Properties of a company as a client sends them: unique domain, a name, a few standard fields. */
export function companyProperties(tag: string): Record<string, string> {
  return {
    name: `Bench ${tag}`,
    domain: `${tag.toLowerCase()}.bench.example`,
    city: 'Cambridge',
    industry: 'COMPUTER_SOFTWARE',
    phone: '+1 617 555 0100',
  };
}

/**
 * Creates companies through the batch endpoint; returns their ids in order. 25 per request: a
 * batch of 100 transactions can pass the 10 s deadline on a heavily loaded 2-core machine.
 */
export async function createCompanies(api: ApiClient, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const inputs = Array.from({ length: Math.min(25, count - start) }, () => ({
      properties: companyProperties(uniqueName('pool')),
    }));
    const response = await api.expectOk(
      jsonRequest('POST', '/crm/v3/objects/companies/batch/create', token, { inputs }),
    );
    ids.push(...(JSON.parse(response.body) as { results: { id: string }[] }).results.map((result) => result.id));
  }
  return ids;
}

/** Properties of a contact as a client sends them: a unique email (mixed case: stored lower-cased), a name, a few standard fields. */
export function contactProperties(tag: string): Record<string, string> {
  return {
    email: `${tag}@Bench.example`,
    firstname: 'Bench',
    lastname: tag,
    city: 'Cambridge',
    phone: '+1 617 555 0100',
  };
}

export interface BenchContact {
  id: string;
  /** As sent; the account holds it lower-cased. */
  email: string;
}

/** Creates contacts through the batch endpoint, 25 per request (as createCompanies); returns them in order. */
export async function createContacts(api: ApiClient, token: string, count: number): Promise<BenchContact[]> {
  const contacts: BenchContact[] = [];
  for (let start = 0; start < count; start += 25) {
    const inputs = Array.from({ length: Math.min(25, count - start) }, () => ({
      properties: contactProperties(uniqueName('pool')),
    }));
    const response = await api.expectOk(
      jsonRequest('POST', '/crm/v3/objects/contacts/batch/create', token, { inputs }),
    );
    const results = (JSON.parse(response.body) as { results: { id: string; properties: { email: string } }[] }).results;
    contacts.push(...results.map((result) => ({ id: result.id, email: result.properties.email })));
  }
  return contacts;
}

/** A custom object schema as the bench creates one (a fresh name each time: names are unique per account). */
export function benchSchemaBody(): Record<string, unknown> {
  return {
    name: uniqueName('bench_object').replaceAll('-', '_'),
    labels: { singular: 'Bench object', plural: 'Bench objects' },
    properties: [
      { name: 'serial', label: 'Serial', type: 'string', fieldType: 'text' },
      { name: 'size', label: 'Size', type: 'number', fieldType: 'number' },
    ],
    requiredProperties: ['serial'],
    associatedObjects: ['CONTACT'],
  };
}

/** A custom object type of the install's account: its type id. */
export async function createCustomType(api: ApiClient, token: string): Promise<string> {
  const response = await api.expectOk(jsonRequest('POST', '/crm-object-schemas/v3/schemas', token, benchSchemaBody()));
  return (JSON.parse(response.body) as { objectTypeId: string }).objectTypeId;
}

export interface TimelineFixture {
  eventTypeId: number;
  eventId: string;
}

export async function createTimelineEvent(api: ApiClient, install: BenchInstall): Promise<TimelineFixture> {
  const base = `/integrations/v1/${install.appId}/timeline`;
  const hapikey = `hapikey=${encodeURIComponent(install.developerApiKey)}`;
  const type = await api.expectOk(
    jsonRequest('POST', `${base}/event-types?${hapikey}`, undefined, { name: 'Bench events', objectType: 'CONTACT' }),
  );
  const eventTypeId = (JSON.parse(type.body) as { id: number }).id;
  await api.expectOk(
    jsonRequest('POST', `${base}/event-types/${eventTypeId}/properties?${hapikey}`, undefined, {
      name: 'note',
      label: 'Note',
      propertyType: 'String',
    }),
  );
  const eventId = uniqueName('event');
  await api.expectOk(
    jsonRequest('POST', `${base}/event`, install.accessToken, {
      id: eventId,
      eventTypeId,
      objectId: 1,
      note: 'benchmark',
    }),
  );
  return { eventTypeId, eventId };
}

/** Entries the journal rows read: one more than a 100-entry batch after the first. */
export const benchJournalEntries = 101;

/**
 * The install's app's journal, as the stream consumer writes it (shared/db/webhooks-journal-entries.ts
 * putJournalEntries, the consumer's own write): `benchJournalEntries` OBJECT UPDATE entries of one
 * contact in the install's account, a millisecond apart. Returns their offsets, in journal order.
 */
export async function seedJournal(install: BenchInstall): Promise<string[]> {
  const startMs = nowMs() - benchJournalEntries;
  const entries = Array.from({ length: benchJournalEntries }, (_, index) => {
    const offset = journalOffsetOf(startMs + index, String(index + 1), 0);
    const file = {
      offset,
      portalId: install.hubId,
      appId: install.appId,
      subscriptionIds: [1],
      subscriptionType: 'OBJECT',
      action: 'UPDATE',
      objectTypeId: '0-1',
      objectId: '1',
      occurredAt: startMs + index,
      changedProperties: { firstname: `Name ${index}` },
    };
    return {
      appId: install.appId,
      portalId: install.hubId,
      offset,
      expiresAtMs: startMs + index + journalRetentionMs,
      file: JSON.stringify(file),
    };
  });
  await putJournalEntries(entries);
  return entries.map((entry) => entry.offset);
}
