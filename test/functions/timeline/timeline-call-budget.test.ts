import { dynamoCallCounter } from '../../../shared/db/client';
import { install, useTestGateway, unique, type InstalledTokens } from '../../support/harness';
import { putCompanyRecordFixture } from '../../support/company-record-fixture';
import { callTimeline } from '../../support/timeline-client';

/** DynamoDB calls per timeline operation (the gateway runs in this process, so the counter sees them). */
const gateway = useTestGateway();
let installed: InstalledTokens;
let contactTypeId: number;
let companyTypeId: number;

const appPath = () => `/integrations/v1/${installed.appId}/timeline`;
const call = (method: string, path: string, body?: unknown) =>
  callTimeline(gateway.baseUrl, installed.accessToken, method, path, body);
/** Event types are managed with the app's developer API key. */
const manage = (method: string, path: string, body?: unknown) =>
  callTimeline(gateway.baseUrl, { hapikey: installed.developerApiKey }, method, path, body);

async function countCalls(action: () => Promise<unknown>): Promise<Record<string, number>> {
  dynamoCallCounter.reset();
  await action();
  return dynamoCallCounter.callsApartFromRetries();
}

beforeAll(async () => {
  installed = await install(gateway);
  contactTypeId = (await manage('POST', `${appPath()}/event-types`, { name: 'Budget' })).body.id as number;
  await manage('POST', `${appPath()}/event-types/${contactTypeId}/properties`, {
    name: 'note',
    label: 'Note',
    propertyType: 'String',
  });
  companyTypeId = (await manage('POST', `${appPath()}/event-types`, { name: 'Budget company', objectType: 'COMPANY' }))
    .body.id as number;
});

describe('DynamoDB calls per timeline operation', () => {
  it('reads an event with two GetItem calls', async () => {
    const id = unique('e');
    await call('POST', `${appPath()}/event`, { id, eventTypeId: contactTypeId, objectId: 1 });

    const calls = await countCalls(() => call('GET', `${appPath()}/event/${contactTypeId}/${id}`));

    expect(calls).toEqual({ GetItemCommand: 2 });
  });

  it('records a CONTACT event with one Query and one PutItem', async () => {
    const calls = await countCalls(() =>
      call('POST', `${appPath()}/event`, { id: unique('e'), eventTypeId: contactTypeId, objectId: 1, note: 'x' }),
    );

    expect(calls).toEqual({ QueryCommand: 1, PutItemCommand: 1 });
  });

  it('records a COMPANY event with one Query, one BatchGetItem and one PutItem', async () => {
    await putCompanyRecordFixture(installed.hubId, '1000000000000001');

    const calls = await countCalls(() =>
      call('POST', `${appPath()}/event`, { id: unique('e'), eventTypeId: companyTypeId, objectId: '1000000000000001' }),
    );

    expect(calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 1, PutItemCommand: 1 });
  });

  it('records a batch of 100 events of one type with one Query and one TransactWriteItems', async () => {
    const eventWrappers = Array.from({ length: 100 }, () => ({
      id: unique('e'),
      eventTypeId: contactTypeId,
      objectId: 1,
    }));

    const calls = await countCalls(() => call('POST', `${appPath()}/event/batch`, { eventWrappers }));

    expect(calls).toEqual({ QueryCommand: 1, TransactWriteItemsCommand: 1 });
  });

  it('reads an event type with one GetItem', async () => {
    const calls = await countCalls(() => call('GET', `${appPath()}/event-types/${contactTypeId}`));

    expect(calls).toEqual({ GetItemCommand: 1 });
  });

  it('reads an event type by the developer API key with one more GetItem (the key, found by its hash)', async () => {
    const calls = await countCalls(() => manage('GET', `${appPath()}/event-types/${contactTypeId}`));

    expect(calls).toEqual({ GetItemCommand: 2 });
  });
});
