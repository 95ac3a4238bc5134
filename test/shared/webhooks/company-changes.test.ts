import { recordChangesOf, type ChangeRecord, type RecordChange } from '../../../shared/webhooks/record-changes';
import { eventsForApp } from '../../../shared/webhooks/webhook-events';
import type { WebhookConfig, WebhookSubscription } from '../../../shared/db/webhooks';
import { at, history, later, recordItem, streamRecord } from '../../support/stream-records';

/** A company's changes (recordChangesOf), with the id also as `companyId`, the name these tests were written with. */
function companyChangesOf(record: ChangeRecord): (RecordChange & { companyId: string })[] {
  return recordChangesOf(record)
    .filter((change) => change.object === 'company')
    .map((change) => ({ ...change, object: 'company', companyId: change.objectId }));
}

/** A company item as the stream's images carry it. */
const companyItem = (overrides: Record<string, unknown> = {}, sk = 'COMPANY#1000000000001001') =>
  recordItem(sk, { name: 'Acme' }, overrides);

const record = (
  eventName: ChangeRecord['eventName'],
  newImage?: Record<string, unknown>,
  oldImage?: Record<string, unknown>,
): ChangeRecord => streamRecord(eventName, newImage, oldImage);

const subscription = (id: number, eventType: string, propertyName?: string, active = true): WebhookSubscription => ({
  id,
  appId: 9,
  eventType,
  ...(propertyName ? { propertyName } : {}),
  active,
  createdAt: at,
  updatedAt: at,
});

describe('companyChangesOf', () => {
  it('reads a new company as a creation with a change per value it was created with', () => {
    const changes = companyChangesOf(record('INSERT', companyItem()));

    expect(changes.map((change) => change.kind)).toEqual(['creation', 'propertyChange']);
    expect(changes[0]).toMatchObject({
      hubId: 40000001,
      companyId: '1000000000001001',
      occurredAt: Date.parse(at),
      changeSource: 'INTEGRATION',
      sourceId: '77',
    });
  });

  it('reads the insert of the archived item as the deletion, and ignores the removal of the active one', () => {
    const archived = companyItem(
      { archived: true, archivedAt: later, version: 2 },
      'ARCHIVED_COMPANY#1000000000001001',
    );

    expect(companyChangesOf(record('INSERT', archived)).map((change) => [change.kind, change.occurredAt])).toEqual([
      ['deletion', Date.parse(later)],
    ]);
    expect(companyChangesOf(record('REMOVE', undefined, companyItem()))).toEqual([]);
  });

  it('reads an active item inserted at a later version as a restore', () => {
    expect(companyChangesOf(record('INSERT', companyItem({ version: 3 }))).map((change) => change.kind)).toEqual([
      'restore',
    ]);
  });

  it('gives one propertyChange per changed property, none for unchanged ones', () => {
    const before = companyItem({ properties: { name: 'Acme', domain: 'acme.example', city: 'Paris' } });
    const after = companyItem({
      properties: { name: 'Acme 2', domain: 'acme.example' },
      updatedAt: later,
      version: 2,
      history: { name: history('Acme 2', later), city: history('', later) },
    });

    const changes = companyChangesOf(record('MODIFY', after, before));

    expect(
      changes.map((change) => change.kind === 'propertyChange' && [change.propertyName, change.propertyValue]),
    ).toEqual([
      ['name', 'Acme 2'],
      ['city', ''],
    ]);
  });

  it('gives associationChange for added and removed association keys, primary types flagged', () => {
    const before = companyItem({ associations: { '0-1/901/280': 'company_to_contact_unlabeled' } });
    const after = companyItem({
      associations: { '0-3/77/6': 'company_to_deal', '0-3/77/342': 'company_to_deal_unlabeled' },
      version: 2,
    });

    const changes = companyChangesOf(record('MODIFY', after, before));

    expect(
      changes.map(
        (change) =>
          change.kind === 'associationChange' && [
            change.associationType,
            change.toObjectId,
            change.associationRemoved,
            change.isPrimaryAssociation,
          ],
      ),
    ).toEqual([
      ['COMPANY_TO_DEAL', '77', false, true],
      ['COMPANY_TO_DEAL', '77', false, false],
      ['COMPANY_TO_CONTACT', '901', true, false],
    ]);
  });

  it('reads a merge from the merge marker the merged record carries', () => {
    const merged = companyItem(
      {
        id: '1000000000009999',
        merge: {
          primaryObjectId: '1000000000001001',
          mergedObjectIds: ['1000000000001002'],
          numberOfPropertiesMoved: 3,
        },
      },
      'COMPANY#1000000000009999',
    );

    expect(companyChangesOf(record('INSERT', merged))).toEqual([
      expect.objectContaining({
        kind: 'merge',
        companyId: '1000000000009999',
        primaryObjectId: '1000000000001001',
        mergedObjectIds: ['1000000000001002'],
        newObjectId: '1000000000009999',
        numberOfPropertiesMoved: 3,
      }),
    ]);
  });

  it('ignores items that are not companies', () => {
    expect(companyChangesOf(record('INSERT', { pk: 'HUB#1', sk: 'PROPERTY#companies#x' }))).toEqual([]);
    expect(companyChangesOf(record('INSERT', { pk: 'APP#1', sk: 'WEBHOOK_SETTINGS' }))).toEqual([]);
  });
});

describe('eventsForApp', () => {
  const config = (subscriptions: WebhookSubscription[], hasTarget = true): WebhookConfig => ({
    subscriptions,
    ...(hasTarget
      ? {
          settings: {
            appId: 9,
            targetUrl: 'https://t.example/',
            maxConcurrentRequests: 10,
            createdAt: at,
            updatedAt: at,
          },
        }
      : {}),
  });
  const [creation, nameChange] = companyChangesOf(record('INSERT', companyItem()));

  it("makes one event per active matching subscription with HubSpot's fields", () => {
    if (!creation) throw new Error('no creation');
    const events = eventsForApp(
      creation,
      'r1',
      9,
      config([subscription(1, 'company.creation'), subscription(2, 'company.deletion')]),
    );

    expect(events).toEqual([
      {
        eventId: expect.any(Number),
        subscriptionId: 1,
        portalId: 40000001,
        appId: 9,
        occurredAt: Date.parse(at),
        subscriptionType: 'company.creation',
        attemptNumber: 0,
        objectId: 1000000000001001,
        changeSource: 'INTEGRATION',
        changeFlag: 'CREATED',
        sourceId: '77',
      },
    ]);
  });

  it('gives the same event id for the same stream record, another for another record', () => {
    if (!creation) throw new Error('no creation');
    const subscriptions = config([subscription(1, 'company.creation')]);

    expect(eventsForApp(creation, 'r1', 9, subscriptions)[0]?.eventId).toBe(
      eventsForApp(creation, 'r1', 9, subscriptions)[0]?.eventId,
    );
    expect(eventsForApp(creation, 'r2', 9, subscriptions)[0]?.eventId).not.toBe(
      eventsForApp(creation, 'r1', 9, subscriptions)[0]?.eventId,
    );
  });

  it('matches propertyChange subscriptions by property, skips paused ones and apps without a target', () => {
    if (!nameChange) throw new Error('no propertyChange');

    expect(eventsForApp(nameChange, 'r1', 9, config([subscription(3, 'company.propertyChange', 'domain')]))).toEqual(
      [],
    );
    expect(
      eventsForApp(nameChange, 'r1', 9, config([subscription(3, 'company.propertyChange', 'name', false)])),
    ).toEqual([]);
    expect(
      eventsForApp(nameChange, 'r1', 9, config([subscription(3, 'company.propertyChange', 'name')], false)),
    ).toEqual([]);
    expect(
      eventsForApp(nameChange, 'r1', 9, config([subscription(3, 'company.propertyChange', 'name')]))[0],
    ).toMatchObject({ propertyName: 'name', propertyValue: 'Acme', subscriptionType: 'company.propertyChange' });
  });
});
