// First: this file scans its whole table, so it has a DynamoDB Local of its own (see the module).
import '../../support/own-dynamodb';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { purgeAccount } from '../../../shared/db/account-purge';
import { db, tableName } from '../../../shared/db/client';
import type { Item } from '../../../shared/db/core';
import {
  accountKey,
  faultKey,
  faultsPartition,
  hubPartition,
  installKey,
  timelineEventKey,
  timelineEventListedBy,
  timelineEventListingKey,
  webhookDeliveryPrefix,
  webhookPendingKey,
  associationLimitMarkerKey,
  associationLimitPartition,
  associationLimitTotalsKey,
  webhookPendingPartition,
} from '../../../shared/db/keys';
import { insertDeliveryAttempt } from '../../../shared/db/webhooks';
import { storedObjectTypes } from '../../../shared/objects/object-types';
import { purgedTypeOf } from '../../../shared/sandbox/test-accounts';
import { recordTimelineEvent, recordTimelineEvents } from '../../../shared/timeline/events';
import { createTimelineEventType } from '../../../shared/timeline/event-types';
import { crmClient, createRecords, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway, type InstalledTokens } from '../../support/harness';

/**
 * The purge of a test account (the sandbox controls' reset and delete) against the real DynamoDB
 * Local: data of many kinds is written through the routes and the domain functions that write it in
 * production, then the whole table is scanned, so an item the purge does not know about shows up
 * as left behind. A second account's items must come through untouched.
 */
const gateway = useTestGateway();

/** Every item of the table (Scan, every page, strongly consistent), filtered here. */
async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  for (let page = 0; page < 100_000; page += 1) {
    const result = await db.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    items.push(...(result.Items ?? []));
    if (!result.LastEvaluatedKey) return items;
    startKey = result.LastEvaluatedKey;
  }
  throw new Error('the table did not end');
}

/** Whether an item is the account's: in one of its partitions, or a delivery attempt for it in an app's log. */
function isOfAccount(hubId: number, item: Item): boolean {
  const pk = String(item.pk);
  const sk = String(item.sk);
  return (
    pk === hubPartition(hubId) ||
    pk.startsWith(`${hubPartition(hubId)}#`) ||
    pk.startsWith(`TIMELINE_EVENT#${hubId}#`) ||
    pk.startsWith(`INSTALL_STATE#${hubId}#`) ||
    pk === faultsPartition(hubId) ||
    pk === webhookPendingPartition(hubId) ||
    pk === associationLimitPartition(hubId) ||
    (sk.startsWith(webhookDeliveryPrefix) && item.portalId === hubId)
  );
}

async function accountItems(hubId: number): Promise<Item[]> {
  return (await scanTable()).filter((item) => isOfAccount(hubId, item));
}

const byKey = (items: readonly Item[]) =>
  [...items].sort((a, b) => `${a.pk}\u0000${a.sk}`.localeCompare(`${b.pk}\u0000${b.sk}`));

/**
 * The kind of an item, for the assertions' messages: its partition's form (numbers as <n>) and its
 * sort key up to the first '#' (none for the derived partitions, whose sort keys are ids and forms).
 */
function kindOf(hubId: number, item: Item): string {
  const pk = String(item.pk)
    .replace(String(hubId), '<hub>')
    .replace(/[0-9]+/g, '<n>');
  const sk = String(item.sk);
  if (pk.startsWith('HUB#<hub>#')) return `${pk} `;
  return `${pk} ${sk.includes('#') ? sk.slice(0, sk.indexOf('#') + 1) : sk}`;
}

/** What a reset keeps of the hub partition (account-purge.ts keptByReset). */
const keptByReset = (sk: string) =>
  sk === 'ACCOUNT' ||
  sk.startsWith('INSTALL#') ||
  sk.startsWith('OWNER#') ||
  sk.startsWith('OWNER_OF_USER#') ||
  sk === 'COUNTER#associationTypeId';

const never = () => false;

async function expectCreated(response: Promise<{ status: number; body: unknown }>, status = 201): Promise<Item> {
  const answered = await response;
  // The whole answer, so a refusal shows its body.
  expect(answered).toMatchObject({ status });
  return answered.body as Item;
}

async function deliveryAttempt(appId: number, portalId: number): Promise<void> {
  await insertDeliveryAttempt(
    {
      appId,
      portalId,
      attemptedAt: new Date().toISOString(),
      targetUrl: 'https://hooks.example/receiver',
      statusCode: 200,
      outcome: 'delivered',
      latencyMs: 12,
      attemptNumber: 1,
      eventIds: [randomUUID()],
    },
    randomUUID(),
  );
}

/** Timeline events as a test account's token records them (listed), and one as any other token does. */
async function timelineEvents(installation: InstalledTokens, unlisted = false): Promise<void> {
  const { appId, hubId } = installation;
  const type = await createTimelineEventType({ appId }, appId, { name: unique('Purge events'), objectType: 'CONTACT' });
  const recorder = { appId, hubId, isTestAccount: true };
  await recordTimelineEvent(recorder, appId, { id: 'single', eventTypeId: type.id, objectId: 1 });
  await recordTimelineEvents(recorder, appId, [
    { id: 'batch#1', eventTypeId: type.id, objectId: 2 },
    { id: 'batch#2', eventTypeId: type.id, objectId: 3 },
  ]);
  if (unlisted)
    await recordTimelineEvent({ appId, hubId }, appId, { id: 'unlisted', eventTypeId: type.id, objectId: 4 });
}

/** The account's pieces outside its hub partition: a pending batch, an injected fault, a delivery attempt, an association limit marker and its totals. */
async function webhookAndFaultItems(installation: InstalledTokens): Promise<void> {
  const { appId, hubId } = installation;
  const marker = associationLimitMarkerKey(hubId, '0-2', '0-1', 'NEAR', '0000000000000001');
  await db.send(new PutCommand({ TableName: tableName, Item: { ...marker, usage: 800, label: 'Crowded' } }));
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...associationLimitTotalsKey(hubId, '0-2', '0-1'), nearLimit: 1, atLimit: 0 },
    }),
  );
  await db.send(new PutCommand({ TableName: tableName, Item: { ...webhookPendingKey(hubId, randomUUID()), appId } }));
  await db.send(new PutCommand({ TableName: tableName, Item: { ...faultKey(hubId, randomUUID()), status: 429 } }));
  await deliveryAttempt(appId, hubId);
}

/** Data of every kind the account's API writes, through the routes. */
async function crmData(api: CrmClient): Promise<void> {
  const [companyId, archivedId] = await createRecords(api, 'companies', 3);
  const [contactId, mergedAwayId, otherContactId] = await createRecords(api, 'contacts', 3);
  await createRecords(api, 'deals', 2);
  await createRecords(api, 'notes', 1);
  await createRecords(api, 'products', 1);
  await expectCreated(api.delete(`/crm/v3/objects/companies/${archivedId}`), 204);
  await expectCreated(
    api.post('/crm/v3/objects/contacts/merge', { primaryObjectId: otherContactId, objectIdToMerge: mergedAwayId }),
    200,
  );
  await expectCreated(api.post('/crm/v3/properties/companies/groups', { name: 'purge_group', label: 'Purge group' }));
  await expectCreated(
    api.post('/crm/v3/properties/companies', {
      name: 'purge_property',
      label: 'Purge property',
      type: 'string',
      fieldType: 'text',
      groupName: 'purge_group',
      hasUniqueValue: true,
    }),
  );
  await expectCreated(
    api.patch(`/crm/v3/objects/companies/${companyId}`, { properties: { purge_property: 'unique-value' } }),
    200,
  );
  const labels = await expectCreated(
    api.post('/crm/v4/associations/companies/contacts/labels', {
      name: 'purge_billing',
      label: 'Billing',
      inverseLabel: 'Billed company',
    }),
    200,
  );
  const typeId = (labels.results as { typeId: number }[])[0]?.typeId;
  await expectCreated(
    api.put(`/crm/v4/objects/companies/${companyId}/associations/contacts/${contactId}`, [
      { associationCategory: 'USER_DEFINED', associationTypeId: typeId },
    ]),
  );
  await expectCreated(
    api.post('/crm/v3/pipelines/deals', {
      label: 'Purge pipeline',
      displayOrder: 1,
      stages: [{ label: 'Purge stage', displayOrder: 0, metadata: { probability: '0.5' } }],
    }),
  );
  const schema = await expectCreated(
    api.post('/crm-object-schemas/v3/schemas', {
      name: 'purge_cars',
      labels: { singular: 'Car', plural: 'Cars' },
      properties: [{ name: 'vin', label: 'VIN', type: 'string', fieldType: 'text' }],
      requiredProperties: ['vin'],
      primaryDisplayProperty: 'vin',
      associatedObjects: ['CONTACT'],
    }),
  );
  await expectCreated(api.post(`/crm/v3/objects/${schema.objectTypeId}`, { properties: { vin: 'VIN-1' } }));
  // A list with a member, and a deleted one, whose members stay for a restore.
  for (const name of ['Purge list', 'Purge deleted list']) {
    const created = await expectCreated(
      api.post('/crm/v3/lists', { name, objectTypeId: '0-1', processingType: 'MANUAL' }),
      200,
    );
    const { listId } = created.list as { listId: string };
    await expectCreated(api.put(`/crm/v3/lists/${listId}/memberships/add`, [contactId]), 200);
    if (name === 'Purge deleted list') await expectCreated(api.delete(`/crm/v3/lists/${listId}`), 204);
  }
}

describe('purgeAccount', () => {
  let first: InstalledTokens;
  let second: InstalledTokens;
  let secondBefore: Item[];

  beforeAll(async () => {
    first = await install(gateway);
    second = await install(gateway);
    await crmData(crmClient(gateway, first.accessToken));
    await timelineEvents(first);
    await webhookAndFaultItems(first);
    await createRecords(crmClient(gateway, second.accessToken), 'contacts', 2);
    await createRecords(crmClient(gateway, second.accessToken), 'companies', 2);
    await timelineEvents(second, true);
    await webhookAndFaultItems(second);
    // The second account's attempt in the first app's log: a purge of the first account leaves it.
    await deliveryAttempt(first.appId, second.hubId);
    secondBefore = byKey(await accountItems(second.hubId));
  }, 120_000);

  it("finds every stored type's search tag from its id alone", () => {
    for (const type of storedObjectTypes)
      expect([type.id, purgedTypeOf(type.id)?.searchTag ?? `${type.id}#`]).toEqual([type.id, type.searchTag]);
  });

  it('reads the event back from a listing key, whatever the event id holds', () => {
    const listing = timelineEventListingKey(40000001, 1001, 'a#b#c');

    expect(timelineEventListedBy(40000001, listing.sk)).toEqual(timelineEventKey(40000001, 1001, 'a#b#c'));
    expect(timelineEventListedBy(40000001, 'TIMELINE_EVENT#x#y')).toBeUndefined();
    expect(timelineEventListedBy(40000001, 'TIMELINE_EVENT#1001#')).toBeUndefined();
  });

  it('resets: only the account, installs, owners, the type id sequence and the faults stay; the other account is untouched', async () => {
    const before = await accountItems(first.hubId);
    const kinds = new Set(before.map((item) => kindOf(first.hubId, item)));
    const hubSortKeys = new Set(
      before.filter((item) => item.pk === hubPartition(first.hubId)).map((item) => String(item.sk)),
    );
    // The data is of every kind the purge must find (a failed write above would leave the test proving less).
    for (const kind of [
      'HUB#<hub> COMPANY#',
      'HUB#<hub> ARCHIVED_COMPANY#',
      'HUB#<hub> CONTACT#',
      'HUB#<hub> CONTACT_MERGED#',
      'HUB#<hub> CONTACT_UNIQUE#',
      'HUB#<hub> DEAL#',
      'HUB#<hub> NOTE#',
      'HUB#<hub> PRODUCT#',
      'HUB#<hub> ASSOC_LABEL#',
      'HUB#<hub> ASSOC_TYPE#',
      'HUB#<hub> ASSOC_LABEL_NAMES#',
      'HUB#<hub> PIPELINE#',
      'HUB#<hub> PIPELINE_COUNT#',
      'HUB#<hub> PIPELINE_AUDIT#',
      'HUB#<hub> OBJECT_SCHEMA#',
      'HUB#<hub> RECORD_COUNT#',
      'HUB#<hub> TIMELINE_EVENT#',
      'HUB#<hub> LIST#',
      'HUB#<hub> LIST_NAME#',
      'HUB#<hub> LIST_OF#',
      'HUB#<hub>#LIST#<n> ',
      'HUB#<hub>#SEARCH#<n> ',
      'HUB#<hub>#SEARCH#<n>-<n>#<n> ',
      'HUB#<hub>#ORDER#<n>-<n>#c#<n> ',
      'HUB#<hub>#ORDER#<n>-<n>#m#<n> ',
      'TIMELINE_EVENT#<hub>#<n>#single EVENT',
      'TIMELINE_EVENT#<hub>#<n>#batch#<n> EVENT',
      'FAULTS#<hub> FAULT#',
      'WEBHOOK_PENDING#<hub> BATCH#',
      'APP#<n> WEBHOOK_DELIVERY#',
    ])
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    for (const sk of [
      'COMPANY_UNIQUE#purge_property#unique-value',
      'PROPERTY#companies#purge_property',
      'PROPERTY_GROUP#companies#purge_group',
      'OBJECT_SCHEMA_NAME#purge_cars',
      'COUNTER#objectSchemas',
      'COUNTER#companyProperties',
      'COUNTER#associationTypeId',
      'COUNTER#lists',
    ])
      expect([sk, hubSortKeys.has(sk)]).toEqual([sk, true]);
    // The custom type's record, its projection and its index.
    expect([...hubSortKeys].some((sk) => /^CUSTOM[A-J]+#/.test(sk))).toBe(true);
    expect(before.some((item) => /^HUB#[0-9]+#SEARCH#2-[0-9]+#/.test(String(item.pk)))).toBe(true);
    expect(before.some((item) => /^HUB#[0-9]+#ORDER#2-[0-9]+#c#/.test(String(item.pk)))).toBe(true);

    expect(await purgeAccount(first.hubId, 'reset', never, purgedTypeOf)).toBe('done');

    const after = await accountItems(first.hubId);
    const left = after.filter(
      (item) =>
        !(item.pk === hubPartition(first.hubId) && keptByReset(String(item.sk))) &&
        item.pk !== faultsPartition(first.hubId),
    );
    expect(left.map((item) => `${item.pk} ${item.sk}`)).toEqual([]);
    expect(new Set(after.map((item) => kindOf(first.hubId, item)))).toEqual(
      new Set([
        'HUB#<hub> ACCOUNT',
        'HUB#<hub> INSTALL#',
        'HUB#<hub> OWNER#',
        'HUB#<hub> OWNER_OF_USER#',
        'HUB#<hub> COUNTER#',
        'FAULTS#<hub> FAULT#',
      ]),
    );
    const account = after.find((item) => item.sk === accountKey(first.hubId).sk);
    expect(account).toMatchObject({ dataResetFromMs: expect.any(Number) });
    expect(byKey(await accountItems(second.hubId))).toEqual(secondBefore);
  });

  it('leaves a working account: the install answers, names and unique values are free, label ids are not reused', async () => {
    const api = crmClient(gateway, first.accessToken);
    const listed = await api.get<{ results: unknown[] }>('/crm/v3/objects/contacts');
    const group = await api.post('/crm/v3/properties/companies/groups', { name: 'purge_group', label: 'Again' });
    const schema = await api.post('/crm-object-schemas/v3/schemas', {
      name: 'purge_cars',
      labels: { singular: 'Car', plural: 'Cars' },
      properties: [{ name: 'vin', label: 'VIN', type: 'string', fieldType: 'text' }],
      requiredProperties: ['vin'],
      primaryDisplayProperty: 'vin',
    });
    const labels = await api.post<{ results: { typeId: number }[] }>('/crm/v4/associations/companies/contacts/labels', {
      name: 'purge_billing',
      label: 'Billing',
    });
    const list = await api.post('/crm/v3/lists', { name: 'Purge list', objectTypeId: '0-1', processingType: 'MANUAL' });

    expect([listed.status, listed.body.results]).toEqual([200, []]);
    expect([group.status, schema.status, labels.status, list.status]).toEqual([201, 201, 200, 200]);
    // The first label took the sequence's first two ids (1000, 1001: the pair's two directions).
    expect(labels.body.results[0]?.typeId).toBeGreaterThan(1001);
    expect(await purgeAccount(first.hubId, 'reset', never, purgedTypeOf)).toBe('done');
  });

  it('deletes every item of the account, the delivery log of its developer apps too, and nothing of the other account', async () => {
    await timelineEvents(first);
    await webhookAndFaultItems(first);
    // A test account (its developer's app) whose install the caller ended first: the install item is gone.
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: accountKey(first.hubId),
        UpdateExpression: 'SET developerId = :developer',
        ExpressionAttributeValues: { ':developer': first.developerId },
      }),
    );
    await db.send(new DeleteCommand({ TableName: tableName, Key: installKey(first.hubId, first.appId) }));

    expect(await purgeAccount(first.hubId, 'delete', never, purgedTypeOf)).toBe('done');

    // What stays: the ended install states, and the delete's write hold until its TTL (shared/db/write-guard.ts).
    expect(
      (await accountItems(first.hubId))
        .filter((item) => !String(item.pk).startsWith('INSTALL_STATE#'))
        .filter((item) => !(item.pk === faultsPartition(first.hubId) && String(item.sk).startsWith('WRITE_HOLD#')))
        .map((item) => `${item.pk} ${item.sk}`),
    ).toEqual([]);
    expect(byKey(await accountItems(second.hubId))).toEqual(secondBefore);
    // A second delete of a deleted account finds nothing to do.
    expect(await purgeAccount(first.hubId, 'delete', never, purgedTypeOf)).toBe('done');
  });

  it('stops when the time is up (partial), and the next call finishes', async () => {
    const third = await install(gateway);
    const api = crmClient(gateway, third.accessToken);
    await createRecords(api, 'companies', 30);
    await createRecords(api, 'contacts', 10);
    await timelineEvents(third);
    let checks = 0;

    const interrupted = await purgeAccount(
      third.hubId,
      'reset',
      () => {
        checks += 1;
        return checks > 40;
      },
      purgedTypeOf,
    );
    const between = await accountItems(third.hubId);
    const finished = await purgeAccount(third.hubId, 'reset', never, purgedTypeOf);
    const after = await accountItems(third.hubId);

    expect(interrupted).toBe('partial');
    expect(between.some((item) => String(item.sk).startsWith('CONTACT#'))).toBe(true);
    expect(between.find((item) => item.sk === 'ACCOUNT')).toMatchObject({ dataResetFromMs: expect.any(Number) });
    // An unfinished reset keeps the account's write hold; the call that finishes takes it away.
    expect(between.filter((item) => String(item.sk).startsWith('WRITE_HOLD#'))).toHaveLength(16);
    expect(after.filter((item) => String(item.sk).startsWith('WRITE_HOLD#'))).toEqual([]);
    expect(finished).toBe('done');
    expect(
      after
        .filter((item) => !(item.pk === hubPartition(third.hubId) && keptByReset(String(item.sk))))
        .map((item) => `${item.pk} ${item.sk}`),
    ).toEqual([]);
  });
});
