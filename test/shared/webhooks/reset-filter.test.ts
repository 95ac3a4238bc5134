import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../../shared/base/config';
import { db, tableName } from '../../../shared/db/client';
import { getItem } from '../../../shared/db/core';
import { accountKey, hubPartition, webhookPendingKey } from '../../../shared/db/keys';
import { insertPendingBatchesSinceStarts } from '../../../shared/db/webhook-pending';
import { generateEvents } from '../../../shared/webhooks/generate-events';
import type { ChangeRecord } from '../../../shared/webhooks/record-changes';
import { configureWebhookSettings, createWebhookSubscription } from '../../../shared/webhooks/webhook-management';
import { install, useTestGateway, type InstalledTokens } from '../../support/harness';
import { recordingQueue } from '../../support/recording-queue';
import { at, later, recordItem, streamRecord } from '../../support/stream-records';

/**
 * The webhook generator and a test account's reset or delete, against the real DynamoDB Local: the
 * account item carries the reset's start (dataResetFromMs, written here as a reset writes it), and
 * the stream records are built here with their records' update times on either side of it.
 */
const gateway = useTestGateway();

/** The reset's start: between the fixtures' two times. */
const resetFromMs = Date.parse(at) + 60_000;

let installation: InstalledTokens;

/** An app installed in a fresh account, listening for contact creations and deletions, with a target. */
async function listeningInstall(): Promise<InstalledTokens> {
  const installed = await install(gateway);
  const caller = { appId: installed.appId };
  await configureWebhookSettings(caller, installed.appId, { targetUrl: 'http://127.0.0.1:9/hooks' });
  for (const eventType of ['contact.creation', 'contact.deletion', 'contact.privacyDeletion']) {
    await createWebhookSubscription(caller, installed.appId, { eventType, active: true });
  }
  return installed;
}

async function markReset(hubId: number, fromMs: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: 'SET dataResetFromMs = :from',
      ExpressionAttributeValues: { ':from': fromMs },
    }),
  );
}

/** A contact item of `hubId` last written at `updatedAt`, under a fresh id (nothing else of it exists). */
const contactItem = (hubId: number, updatedAt: string) => ({
  ...recordItem(`CONTACT#${1_000_000_000_000_000 + Math.floor(Math.random() * 1e9)}`, { email: 'a@example.com' }),
  pk: hubPartition(hubId),
  createdAt: updatedAt,
  updatedAt,
});

const created = (item: Record<string, unknown>) =>
  streamRecord('INSERT', item, undefined, { recordId: randomUUID(), approximateAtMs: Date.now() });
const removed = (item: Record<string, unknown>) =>
  streamRecord('REMOVE', undefined, item, { recordId: randomUUID(), approximateAtMs: Date.now() });

/** The subscription types and object ids of the events the generator queues for these records. */
async function eventsOf(records: ChangeRecord[], hubId: number): Promise<string[]> {
  const queue = recordingQueue();
  await generateEvents(records, queue, { acceptsHub: (hub) => hub === hubId });
  return queue.batches
    .flatMap((batch) => batch.events)
    .map((event) => `${event.subscriptionType} ${event.objectId}`)
    .sort();
}

const idOf = (item: Record<string, unknown>) => String(item.id);

beforeAll(async () => {
  installation = await listeningInstall();
  await markReset(installation.hubId, resetFromMs);
});

it('fires no privacyDeletion or deletion for the removal of a contact written before the reset', async () => {
  const contact = contactItem(installation.hubId, at);

  expect(await eventsOf([removed(contact)], installation.hubId)).toEqual([]);
});

it('drops the creation of a contact written before the reset', async () => {
  const contact = contactItem(installation.hubId, at);

  expect(await eventsOf([created(contact)], installation.hubId)).toEqual([]);
});

it('delivers the creation and the GDPR delete of a contact written at or after the reset', async () => {
  const atStart = contactItem(installation.hubId, new Date(resetFromMs).toISOString());
  const after = contactItem(installation.hubId, later);

  const events = await eventsOf([created(atStart), created(after), removed(after)], installation.hubId);

  expect(events).toEqual(
    [
      `contact.creation ${idOf(atStart)}`,
      `contact.creation ${idOf(after)}`,
      `contact.deletion ${idOf(after)}`,
      `contact.privacyDeletion ${idOf(after)}`,
    ].sort(),
  );
});

it('keeps the changes of the batch after the reset and drops those before it, in one batch', async () => {
  const before = contactItem(installation.hubId, at);
  const after = contactItem(installation.hubId, later);

  const events = await eventsOf([created(before), removed(before), created(after)], installation.hubId);

  expect(events).toEqual([`contact.creation ${idOf(after)}`]);
});

it('drops every change of an account whose account item does not exist', async () => {
  const gone = await listeningInstall();
  await db.send(new DeleteCommand({ TableName: tableName, Key: accountKey(gone.hubId) }));
  const contact = contactItem(gone.hubId, later);

  expect(await eventsOf([created(contact), removed(contact)], gone.hubId)).toEqual([]);
});

it('drops nothing without the sandbox controls', async () => {
  const gone = await listeningInstall();
  await db.send(new DeleteCommand({ TableName: tableName, Key: accountKey(gone.hubId) }));
  const beforeReset = contactItem(installation.hubId, at);
  const ofGone = contactItem(gone.hubId, later);
  const controls = jest.replaceProperty(config, 'sandboxControls', false);
  try {
    const kept = await eventsOf([created(beforeReset), removed(beforeReset)], installation.hubId);
    const ofGoneAccount = await eventsOf([created(ofGone)], gone.hubId);

    expect(kept).toEqual(
      [
        `contact.creation ${idOf(beforeReset)}`,
        `contact.deletion ${idOf(beforeReset)}`,
        `contact.privacyDeletion ${idOf(beforeReset)}`,
      ].sort(),
    );
    expect(ofGoneAccount).toEqual([`contact.creation ${idOf(ofGone)}`]);
  } finally {
    controls.restore();
  }
});

it("reads the batch's accounts in one BatchGetItem, each account once, however many changes it holds", async () => {
  const other = await listeningInstall();
  const reads: string[][] = [];
  const name = `countResetReads-${randomUUID()}`;
  type Next = (args: { input: Record<string, unknown> }) => Promise<unknown>;
  const count = (next: Next) => async (args: { input: Record<string, unknown> }) => {
    const request = (args.input.RequestItems as Record<string, Record<string, unknown>> | undefined)?.[tableName];
    const names = Object.values((request?.ExpressionAttributeNames as Record<string, string> | undefined) ?? {});
    if (names.includes('dataResetFromMs')) {
      reads.push(((request?.Keys as { pk: string }[] | undefined) ?? []).map((key) => key.pk).sort());
    }
    return next(args);
  };
  (db.middlewareStack as unknown as { add: (m: typeof count, o: object) => void }).add(count, {
    step: 'initialize',
    name,
  });
  try {
    const records = Array.from({ length: 20 }, (_, index) =>
      created(contactItem(index % 2 === 0 ? installation.hubId : other.hubId, later)),
    );
    const queue = recordingQueue();
    await generateEvents(records, queue, { acceptsHub: (hub) => hub === installation.hubId || hub === other.hubId });
  } finally {
    db.middlewareStack.remove(name);
  }

  // A call after the first sends only keys DynamoDB left unprocessed.
  expect(reads[0]).toEqual([hubPartition(installation.hubId), hubPartition(other.hubId)].sort());
  expect(
    reads
      .slice(1)
      .flat()
      .every((pk) => reads[0]?.includes(pk)),
  ).toBe(true);
});

describe("a test account's batches recorded after a reset the filter did not see", () => {
  const pendingBatch = (hubId: number) => ({
    hubId,
    pendingId: randomUUID().replaceAll('-', ''),
    appId: 1,
    attemptNumber: 0,
    eventCount: 1,
    queuedAtMs: Date.now(),
    dueAtMs: Date.now(),
    batchJson: '{}',
  });

  it('are dropped, not recorded, when the account was reset or deleted since the read; recorded when not', async () => {
    const account = await install(gateway);
    await markReset(account.hubId, resetFromMs);
    const seen = new Map<number, number | null>([[account.hubId, resetFromMs]]);

    const unchanged = pendingBatch(account.hubId);
    expect(await insertPendingBatchesSinceStarts([unchanged], seen)).toEqual(new Set());
    expect(await getItem(webhookPendingKey(account.hubId, unchanged.pendingId))).toBeDefined();

    // A reset after the filter's read moves the start on: what the filter let through is older than it.
    await markReset(account.hubId, resetFromMs + 1);
    const afterReset = pendingBatch(account.hubId);
    expect(await insertPendingBatchesSinceStarts([afterReset], seen)).toEqual(new Set([afterReset.pendingId]));
    expect(await getItem(webhookPendingKey(account.hubId, afterReset.pendingId))).toBeUndefined();

    // An account never reset is recorded while it stays so, and a deleted one (no account item) never.
    const fresh = await install(gateway);
    const never = new Map<number, number | null>([[fresh.hubId, null]]);
    expect(await insertPendingBatchesSinceStarts([pendingBatch(fresh.hubId)], never)).toEqual(new Set());
    await db.send(new DeleteCommand({ TableName: tableName, Key: accountKey(fresh.hubId) }));
    const gone = pendingBatch(fresh.hubId);
    expect(await insertPendingBatchesSinceStarts([gone], never)).toEqual(new Set([gone.pendingId]));
  });
});
