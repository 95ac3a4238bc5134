import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import { db, tableName } from '../../../shared/db/client';
import { recordListKey } from '../../../shared/db/keys';
import type { ListMembershipChange } from '../../../shared/webhooks/list-membership-changes';
import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';

/**
 * List membership changes from the table's real stream on DynamoDB Local: writes through the HTTP
 * API, the local webhook runtime reading the stream, and the changes its stream batches hand to
 * `onListMembershipChanges` (what the webhook event function returns deployed). Each membership
 * that begins or ends gives one change, of this file's account only.
 */
const gateway = useTestGateway();
let api: CrmClient;
let hubId: number;
let webhooks: LocalWebhooks;
const changes: ListMembershipChange[] = [];

beforeAll(async () => {
  const app = await install(gateway);
  hubId = app.hubId;
  api = crmClient(gateway, app.accessToken);
  webhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    pollIntervalMs: 50,
    acceptsHub: (hub) => hub === hubId,
    startAtTip: true,
    onListMembershipChanges: (batch) => {
      changes.push(...batch);
    },
  });
});

afterAll(async () => {
  await webhooks.stop();
});

const lists = '/crm/v3/lists';
const contacts = '/crm/v3/objects/contacts';

/** The changes of these lists read from the stream up to now, in stream order. */
async function changesOf(...listIds: string[]): Promise<ListMembershipChange[]> {
  await webhooks.settle();
  return changes.filter((change) => listIds.includes(change.listId));
}

/** `[action, listId, recordId]` of each change, sorted: what happened, whatever the order within a transaction. */
const summary = (found: ListMembershipChange[]) =>
  found.map((change) => [change.action, change.listId, change.recordId]).sort();

async function newList(processingType: 'MANUAL' | 'DYNAMIC', filterBranch?: unknown): Promise<string> {
  const created = await api.post<{ list: { listId: string } }>(lists, {
    name: unique('Events'),
    objectTypeId: '0-1',
    processingType,
    ...(filterBranch ? { filterBranch } : {}),
  });
  expect(created.status).toBe(200);
  return created.body.list.listId;
}

/** Each member's join time (epoch ms), as the join-order page answers it. */
async function joinTimes(listId: string): Promise<Map<string, number>> {
  const page = await api.get<{ results: { recordId: string; membershipTimestamp: string }[] }>(
    `${lists}/${listId}/memberships/join-order?limit=250`,
  );
  expect(page.status).toBe(200);
  return new Map(page.body.results.map((member) => [member.recordId, Date.parse(member.membershipTimestamp)]));
}

/** A write's time span: from the second it started in (the stream rounds its times down to seconds) to its answer. */
/**
 * When a write had answered. A removal's time is the stream record's ApproximateCreationDateTime,
 * which DynamoDB Local stamps up to a second off the service's clock under load: the tests bound it by
 * the membership's join (before) and by the write's answer (after), never by the moment the write began.
 */
async function timed(write: () => Promise<void>): Promise<{ toMs: number }> {
  await write();
  return { toMs: Date.now() };
}

const stringIs = (property: string, value: string) => ({
  filterBranchType: 'OR',
  filterBranches: [
    {
      filterBranchType: 'AND',
      filterBranches: [],
      filters: [
        { filterType: 'PROPERTY', property, operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value } },
      ],
    },
  ],
  filters: [],
});

async function completed(listId: string): Promise<void> {
  for (let poll = 0; poll < 600; poll += 1) {
    const read = await api.get<{ list: { processingStatus: string } }>(`${lists}/${listId}`);
    expect(read.status).toBe(200);
    if (read.body.list.processingStatus === 'COMPLETE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`list ${listId} never completed`);
}

describe('list membership changes from the stream', () => {
  it('gives one ADDED_TO_LIST per record a MANUAL list gains, at its join time, and one REMOVED_FROM_LIST per record it loses', async () => {
    const listId = await newList('MANUAL');
    const [a, b, c] = (await createRecords(api, 'contacts', 3)) as [string, string, string];

    expect((await api.put(`${lists}/${listId}/memberships/add`, [a, b])).status).toBe(200);
    // b is a member already: only c joins.
    expect((await api.put(`${lists}/${listId}/memberships/add`, [b, c])).status).toBe(200);
    const firstJoins = await joinTimes(listId);
    const removal = await timed(async () => {
      expect((await api.put(`${lists}/${listId}/memberships/remove`, [b])).status).toBe(200);
    });
    expect((await api.put(`${lists}/${listId}/memberships/add`, [b])).status).toBe(200);
    const rejoinedAtMs = (await joinTimes(listId)).get(b);
    const found = await changesOf(listId);

    expect(summary(found)).toEqual(
      [
        ['ADDED_TO_LIST', listId, a],
        ['ADDED_TO_LIST', listId, b],
        ['ADDED_TO_LIST', listId, c],
        ['REMOVED_FROM_LIST', listId, b],
        ['ADDED_TO_LIST', listId, b],
      ].sort(),
    );
    expect(found.every((change) => change.hubId === hubId && change.objectTypeId === '0-1')).toBe(true);
    expect(found.filter((change) => change.recordId !== b).map((change) => change.occurredAt)).toEqual([
      firstJoins.get(a),
      firstJoins.get(c),
    ]);
    // b's changes keep their order in the stream, and their times are in that order.
    const ofB = found.filter((change) => change.recordId === b);
    expect(ofB.map((change) => change.action)).toEqual(['ADDED_TO_LIST', 'REMOVED_FROM_LIST', 'ADDED_TO_LIST']);
    const [joined, removed, rejoined] = ofB.map((change) => change.occurredAt) as [number, number, number];
    expect(joined).toBe(firstJoins.get(b));
    expect(removed).toBeGreaterThanOrEqual(joined);
    expect(removed).toBeLessThanOrEqual(removal.toMs);
    expect(rejoined).toBe(rejoinedAtMs);
    expect(rejoined).toBeGreaterThanOrEqual(removed);
    expect(new Set(found.map((change) => change.streamRecordId)).size).toBe(found.length);
  });

  it('gives REMOVED_FROM_LIST for every list a deleted record was in, and for each member a cleared list loses', async () => {
    const [a, b, c] = (await createRecords(api, 'contacts', 3)) as [string, string, string];
    const cleared = await newList('MANUAL');
    const other = await newList('MANUAL');
    expect((await api.put(`${lists}/${cleared}/memberships/add`, [a, b, c])).status).toBe(200);
    expect((await api.put(`${lists}/${other}/memberships/add`, [a])).status).toBe(200);

    const deletion = await timed(async () => {
      expect((await api.delete(`${contacts}/${a}`)).status).toBe(204);
    });
    const clearing = await timed(async () => {
      expect((await api.delete(`${lists}/${cleared}/memberships`)).status).toBe(204);
    });
    const found = await changesOf(cleared, other);

    expect(summary(found)).toEqual(
      [
        ['ADDED_TO_LIST', cleared, a],
        ['ADDED_TO_LIST', cleared, b],
        ['ADDED_TO_LIST', cleared, c],
        ['ADDED_TO_LIST', other, a],
        ['REMOVED_FROM_LIST', cleared, a],
        ['REMOVED_FROM_LIST', other, a],
        ['REMOVED_FROM_LIST', cleared, b],
        ['REMOVED_FROM_LIST', cleared, c],
      ].sort(),
    );
    const removals = found.filter((change) => change.action === 'REMOVED_FROM_LIST');
    for (const change of removals) {
      const span = change.recordId === a ? deletion : clearing;
      expect([change.recordId, change.occurredAt <= span.toMs]).toEqual([change.recordId, true]);
    }
    // Each removal is at or after its membership's join.
    for (const change of removals) {
      const added = found.find(
        (other) =>
          other.action === 'ADDED_TO_LIST' && other.listId === change.listId && other.recordId === change.recordId,
      );
      expect(change.occurredAt).toBeGreaterThanOrEqual(added?.occurredAt ?? Number.POSITIVE_INFINITY);
    }
  });

  it('gives the changes of a DYNAMIC list: its evaluation, a record created matching, then updated out of it; none for a write that keeps it in', async () => {
    const tag = unique('ev').toLowerCase();
    const before = await api.post<{ id: string }>(contacts, { properties: { firstname: tag } });
    expect(before.status).toBe(201);
    const listId = await newList('DYNAMIC', stringIs('firstname', tag));
    await completed(listId);

    const joining = await api.post<{ id: string }>(contacts, { properties: { firstname: tag } });
    expect(joining.status).toBe(201);
    const joins = await joinTimes(listId);
    expect((await api.patch(`${contacts}/${joining.body.id}`, { properties: { lastname: 'Kept' } })).status).toBe(200);
    const leaving = await timed(async () => {
      expect((await api.patch(`${contacts}/${joining.body.id}`, { properties: { firstname: 'other' } })).status).toBe(
        200,
      );
    });
    const found = await changesOf(listId);

    expect(found.map((change) => [change.action, change.recordId, change.occurredAt])).toEqual([
      ['ADDED_TO_LIST', before.body.id, joins.get(before.body.id)],
      ['ADDED_TO_LIST', joining.body.id, joins.get(joining.body.id)],
      ['REMOVED_FROM_LIST', joining.body.id, expect.any(Number)],
    ]);
    const removedAt = found[2]?.occurredAt ?? 0;
    expect(removedAt).toBeGreaterThanOrEqual(joins.get(joining.body.id) ?? 0);
    expect(removedAt).toBeLessThanOrEqual(leaving.toMs);
  });

  it('gives nothing for a put of a membership that exists already', async () => {
    const listId = await newList('MANUAL');
    const [a] = (await createRecords(api, 'contacts', 1)) as [string];
    expect((await api.put(`${lists}/${listId}/memberships/add`, [a])).status).toBe(200);
    const key = recordListKey(hubId, '0-1', a, listId);
    const stored = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    expect(stored.Item).toBeDefined();

    // An attribute changed and put back: two MODIFY records of the same membership.
    await db.send(new PutCommand({ TableName: tableName, Item: { ...stored.Item, processingType: 'DYNAMIC' } }));
    await db.send(new PutCommand({ TableName: tableName, Item: stored.Item }));
    const found = await changesOf(listId);

    expect(summary(found)).toEqual([['ADDED_TO_LIST', listId, a]]);
  });
});
