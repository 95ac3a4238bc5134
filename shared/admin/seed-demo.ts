import { companyObjectType } from '../objects/object-types';
import { nowMs } from '../base/clock';
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
  'crm.objects.deals.read',
  'crm.schemas.deals.write',
  'tickets',
  'crm.objects.owners.read',
];

/** The demo app, account and user that `npm start` seeds on first run. */
export async function seedDemo(baseUrl: string): Promise<DemoData> {
  const redirectUri = `${baseUrl}/oauth/demo-callback`;
  const app = await createApp({
    name: 'Demo App',
    redirectUris: [redirectUri],
    scopes: demoScopes,
    optionalScopes: ['crm.objects.contacts.read'],
  });
  const account = await createAccount('demo-company.example');
  const userPassword = 'demo-password';
  const user = await createUser('demo@example.com', userPassword, [account.hubId]);
  const company = await createRecord(
    { hubId: account.hubId, appId: app.appId, userId: user.userId },
    companyObjectType,
    {
      properties: {
        name: 'Acme Widgets',
        domain: 'acme-widgets.example',
        industry: 'COMPUTER_SOFTWARE',
        lifecyclestage: 'lead',
      },
    },
  );
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
    timeline,
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
