import { companyObjectType, requireStoredObjectType } from '../objects/object-types';
import { nowMs } from '../base/clock';
import { clientCredentialsScopes } from '../oauth/scopes';
import { createRecord } from '../records/create-record';
import { createTimelineEventTypeProperty } from '../timeline/event-type-properties';
import { createTimelineEventType } from '../timeline/event-types';
import { recordTimelineEvent } from '../timeline/events';
import { createAccount, createApp, createDeveloperForApp, createUser } from './provisioning';

export interface DemoData {
  appId: number;
  clientId: string;
  clientSecret: string;
  /** The demo app's developer account and its API key (`?hapikey=`), which manages the app's timeline event types. */
  developerId?: number;
  developerApiKey?: string;
  redirectUri: string;
  scopes: string[];
  hubId: number;
  hubDomain: string;
  userEmail: string;
  userPassword: string;
  /** Absent in demo.json files written before the company seed existed. */
  companyId?: string;
  /** Contact (Jane Doe), deal (Acme Widgets renewal) and ticket (Printer on fire): absent in demo.json files written before they were seeded. */
  contactId?: string;
  dealId?: string;
  ticketId?: string;
  /** Absent in demo.json files written before the timeline seed existed. */
  timeline?: DemoTimeline;
}

export interface DemoTimeline {
  eventTypeId: number;
  eventId: string;
}

export const demoScopes = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
  'timeline',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'crm.schemas.deals.write',
  'tickets',
  'crm.objects.owners.read',
  // Products and line items.
  'e-commerce',
  // Lists and their memberships.
  'crm.lists.read',
  'crm.lists.write',
  // Custom objects: the schemas API and the records of the account's own types.
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
];

/** The demo app, account and user that `npm start` seeds on first run. */
export async function seedDemo(baseUrl: string): Promise<DemoData> {
  const redirectUri = `${baseUrl}/oauth/demo-callback`;
  const app = await createApp({
    name: 'Demo App',
    redirectUris: [redirectUri],
    // Beside what the install asks for (demoScopes), the app's own scopes: docs/oauth.md's client-credentials example.
    scopes: [...demoScopes, ...clientCredentialsScopes],
    optionalScopes: [],
  });
  const account = await createAccount('demo-company.example');
  const userPassword = 'demo-password';
  const user = await createUser('demo@example.com', userPassword, [account.hubId]);
  const actor = { hubId: account.hubId, appId: app.appId, userId: user.userId };
  const company = await createRecord(actor, companyObjectType, {
    properties: {
      name: 'Acme Widgets',
      domain: 'acme-widgets.example',
      industry: 'COMPUTER_SOFTWARE',
      lifecyclestage: 'lead',
    },
  });
  const ownerId = user.owners.find((owner) => owner.hubId === account.hubId)?.ownerId;
  if (ownerId === undefined) throw new Error(`the demo user has no owner in account ${account.hubId}`);
  const contact = await createRecord(actor, requireStoredObjectType('contacts'), {
    properties: {
      email: 'jane.doe@acme-widgets.example',
      firstname: 'Jane',
      lastname: 'Doe',
      company: 'Acme Widgets',
      jobtitle: 'Head of Procurement',
    },
  });
  const deal = await createRecord(actor, requireStoredObjectType('deals'), {
    properties: {
      dealname: 'Acme Widgets renewal',
      dealstage: 'appointmentscheduled',
      amount: '12000',
      hubspot_owner_id: String(ownerId),
    },
  });
  const ticket = await createRecord(actor, requireStoredObjectType('tickets'), {
    properties: {
      subject: 'Printer on fire',
      content: 'The printer on the third floor is on fire.',
      hs_pipeline_stage: '1',
      hs_ticket_priority: 'HIGH',
    },
  });
  const timeline = await seedDemoTimeline(app.appId, account.hubId, company.id);
  return {
    ...app,
    redirectUri,
    scopes: demoScopes,
    hubId: account.hubId,
    hubDomain: account.domain,
    userEmail: user.email,
    userPassword,
    companyId: company.id,
    contactId: contact.id,
    dealId: deal.id,
    ticketId: ticket.id,
    timeline,
  };
}

/**
 * The shell variables of the demo (`npm start` prints them as one `export` line, and
 * `npm run admin -- demo env` gives the same line); the ids a demo.json lacks are left out.
 */
export function demoShellVariables(baseUrl: string, demo: DemoData): Record<string, string | number | undefined> {
  return {
    BASE: baseUrl,
    APP_ID: demo.appId,
    CLIENT_ID: demo.clientId,
    CLIENT_SECRET: demo.clientSecret,
    HAPIKEY: demo.developerApiKey,
    HUB_ID: demo.hubId,
    COMPANY_ID: demo.companyId,
    CONTACT_ID: demo.contactId,
    DEAL_ID: demo.dealId,
    TICKET_ID: demo.ticketId,
    EVENT_TYPE_ID: demo.timeline?.eventTypeId,
    INSTALL_URL: installUrl(baseUrl, demo),
  };
}

/** A COMPANY event type with a String and a Numeric property, and one event on the demo company. */
export async function seedDemoTimeline(appId: number, hubId: number, companyId: string): Promise<DemoTimeline> {
  const caller = { appId, hubId };
  const type = await createTimelineEventType(caller, appId, {
    name: 'Webinar attended',
    headerTemplate: 'Attended **{{webinarName}}**',
    detailTemplate: '{{attendeeCount}} people attended',
    objectType: 'COMPANY',
  });
  await createTimelineEventTypeProperty(caller, appId, String(type.id), {
    name: 'webinarName',
    label: 'Webinar name',
    propertyType: 'String',
  });
  await createTimelineEventTypeProperty(caller, appId, String(type.id), {
    name: 'attendeeCount',
    label: 'Attendees',
    propertyType: 'Numeric',
  });
  const eventId = 'demo-webinar-1';
  await recordTimelineEvent(caller, appId, {
    id: eventId,
    eventTypeId: type.id,
    objectId: Number(companyId),
    timestamp: nowMs(),
    webinarName: 'Q2 roadmap',
    attendeeCount: '42',
    extraData: { questions: [{ q: 'Pricing?', a: 'Later' }] },
  });
  return { eventTypeId: type.id, eventId };
}

/** demo.json files written before developer accounts existed: give the demo app a developer account and key. */
export async function withDemoDeveloper(demo: DemoData): Promise<DemoData> {
  if (demo.developerApiKey !== undefined) return demo;
  return { ...demo, ...(await createDeveloperForApp(demo.appId)) };
}

export function installUrl(baseUrl: string, demo: DemoData, state = 'demo-state'): string {
  const params = new URLSearchParams({
    client_id: demo.clientId,
    redirect_uri: demo.redirectUri,
    scope: demo.scopes.join(' '),
    state,
  });
  return `${baseUrl}/oauth/authorize?${params.toString().replaceAll('+', '%20')}`;
}
