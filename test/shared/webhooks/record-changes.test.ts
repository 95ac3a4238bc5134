import {
  recordChangesOf,
  removalOf,
  type ChangeRecord,
  type RecordChange,
} from '../../../shared/webhooks/record-changes';
import { eventsForApp } from '../../../shared/webhooks/webhook-events';
import { eventObjectTypeIds, isWebhookEventType } from '../../../shared/webhooks/subscription-types';
import { storedObjectTypes } from '../../../shared/objects/object-types';
import type { WebhookConfig } from '../../../shared/db/webhooks';
import { at, history, later, recordItem, streamRecord } from '../../support/stream-records';

/** A stream record as these tests send it: approximately at a fixed instant. */
const record = (
  eventName: ChangeRecord['eventName'],
  newImage?: Record<string, unknown>,
  oldImage?: Record<string, unknown>,
  recordId = 'r1',
): ChangeRecord => streamRecord(eventName, newImage, oldImage, { recordId, approximateAtMs: 1_777_000_000_000 });

const summary = (changes: RecordChange[]) =>
  changes.map((change) => [
    `${change.object}.${change.kind}`,
    change.objectTypeId,
    change.objectId,
    ...(change.kind === 'propertyChange' ? [change.propertyName, change.propertyValue] : []),
  ]);

const always = () => true;

describe('recordChangesOf', () => {
  it('reads every stored type: the object and its type id come from the item key', () => {
    const contact = recordItem('CONTACT#1000000000000101', { email: 'ada@example.com' });
    const deal = recordItem('DEAL#1000000000000102', { dealname: 'Big', dealstage: 'appointmentscheduled' });
    const ticket = recordItem('TICKET#1000000000000103', { subject: 'Broken' });

    expect(summary(recordChangesOf(record('INSERT', contact)))).toEqual([
      ['contact.creation', '0-1', '1000000000000101'],
      ['contact.propertyChange', '0-1', '1000000000000101', 'email', 'ada@example.com'],
    ]);
    expect(summary(recordChangesOf(record('INSERT', deal)))).toEqual([
      ['deal.creation', '0-3', '1000000000000102'],
      ['deal.propertyChange', '0-3', '1000000000000102', 'dealname', 'Big'],
      ['deal.propertyChange', '0-3', '1000000000000102', 'dealstage', 'appointmentscheduled'],
    ]);
    expect(summary(recordChangesOf(record('INSERT', ticket)))).toEqual([
      ['ticket.creation', '0-5', '1000000000000103'],
      ['ticket.propertyChange', '0-5', '1000000000000103', 'subject', 'Broken'],
    ]);
    expect(recordChangesOf(record('INSERT', contact))[0]).toMatchObject({
      hubId: 40000001,
      occurredAt: Date.parse(at),
      changeSource: 'INTEGRATION',
      sourceId: '77',
    });
  });

  it('reads property changes, the archive (deletion), a restore and a merge of a contact, deal or ticket', () => {
    const before = recordItem('DEAL#1000000000000102', { dealname: 'Big', amount: '10' });
    const after = recordItem(
      'DEAL#1000000000000102',
      { dealname: 'Bigger', amount: '10' },
      { updatedAt: later, version: 2, history: { dealname: history('Bigger', later) } },
    );
    const archived = recordItem(
      'ARCHIVED_TICKET#1000000000000103',
      { subject: 'Broken' },
      { archived: true, archivedAt: later, version: 2 },
    );
    const restored = recordItem('CONTACT#1000000000000101', { email: 'ada@example.com' }, { version: 3 });
    const merged = recordItem(
      'CONTACT#1000000000000199',
      { email: 'ada@example.com' },
      {
        merge: {
          primaryObjectId: '1000000000000101',
          mergedObjectIds: ['1000000000000101', '1000000000000104'],
          numberOfPropertiesMoved: 2,
        },
      },
    );

    expect(summary(recordChangesOf(record('MODIFY', after, before)))).toEqual([
      ['deal.propertyChange', '0-3', '1000000000000102', 'dealname', 'Bigger'],
    ]);
    expect(summary(recordChangesOf(record('INSERT', archived)))).toEqual([
      ['ticket.deletion', '0-5', '1000000000000103'],
    ]);
    expect(recordChangesOf(record('INSERT', archived))[0]?.occurredAt).toBe(Date.parse(later));
    expect(summary(recordChangesOf(record('INSERT', restored)))).toEqual([
      ['contact.restore', '0-1', '1000000000000101'],
    ]);
    expect(recordChangesOf(record('INSERT', merged))).toEqual([
      expect.objectContaining({
        object: 'contact',
        kind: 'merge',
        objectId: '1000000000000199',
        primaryObjectId: '1000000000000101',
        mergedObjectIds: ['1000000000000101', '1000000000000104'],
        newObjectId: '1000000000000199',
        numberOfPropertiesMoved: 2,
      }),
    ]);
  });

  it("names an association from the record's own type, and its primary flag from the type's catalog", () => {
    const before = recordItem('CONTACT#1000000000000101', {});
    const after = recordItem('CONTACT#1000000000000101', {}, { associations: { '0-2/55/1': 'contact_to_company' } });

    expect(recordChangesOf(record('MODIFY', after, before))).toEqual([
      expect.objectContaining({
        object: 'contact',
        kind: 'associationChange',
        associationType: 'CONTACT_TO_COMPANY',
        fromObjectId: '1000000000000101',
        toObjectId: '55',
        associationRemoved: false,
        isPrimaryAssociation: true,
      }),
    ]);
  });

  it('reads a contact removed for good as privacyDeletion and deletion, active or archived', () => {
    const active = recordItem('CONTACT#1000000000000101', { email: 'ada@example.com' });
    const archived = recordItem(
      'ARCHIVED_CONTACT#1000000000000101',
      { email: 'ada@example.com' },
      { archived: true, archivedAt: at, version: 2 },
    );

    for (const removed of [active, archived]) {
      const changes = recordChangesOf(record('REMOVE', undefined, removed), always);
      expect(summary(changes)).toEqual([
        ['contact.privacyDeletion', '0-1', '1000000000000101'],
        ['contact.deletion', '0-1', '1000000000000101'],
      ]);
      expect(changes[0]).toMatchObject({
        occurredAt: 1_777_000_000_000,
        changeSource: 'API',
        eventKey: 'removed:40000001:0-1:1000000000000101',
      });
    }
  });

  it('reads no removal without the word that it was for good (an archive, a merge), and none of a type without privacyDeletion', () => {
    const contact = recordItem('CONTACT#1000000000000101', { email: 'ada@example.com' });
    const deal = recordItem('DEAL#1000000000000102', { dealname: 'Big' });
    const company = recordItem('COMPANY#1000000000000105', { name: 'Acme' });

    expect(recordChangesOf(record('REMOVE', undefined, contact))).toEqual([]);
    expect(recordChangesOf(record('REMOVE', undefined, contact), () => false)).toEqual([]);
    expect(recordChangesOf(record('REMOVE', undefined, deal), always)).toEqual([]);
    expect(recordChangesOf(record('REMOVE', undefined, company), always)).toEqual([]);
    expect(removalOf(record('REMOVE', undefined, deal))).toBeUndefined();
    expect(removalOf(record('REMOVE', undefined, contact))).toMatchObject({
      hubId: 40000001,
      id: '1000000000000101',
      isArchived: false,
    });
    expect(removalOf(record('INSERT', contact))).toBeUndefined();
  });

  it('ignores items that are not records of a stored type', () => {
    expect(recordChangesOf(record('INSERT', { pk: 'HUB#1', sk: 'CONTACT_MERGED#1000000000000101' }))).toEqual([]);
    expect(recordChangesOf(record('INSERT', { pk: 'HUB#1', sk: 'QUOTE#1000000000000101' }))).toEqual([]);
    expect(
      recordChangesOf(record('REMOVE', undefined, { pk: 'HUB#1', sk: 'CONTACT_UNIQUE#email#a@b.example' }), always),
    ).toEqual([]);
  });
});

describe('the events of other objects', () => {
  const config: WebhookConfig = {
    settings: { appId: 9, targetUrl: 'https://t.example/', maxConcurrentRequests: 10, createdAt: at, updatedAt: at },
    subscriptions: ['contact.creation', 'contact.privacyDeletion', 'contact.deletion', 'deal.creation'].map(
      (eventType, index) => ({ id: index + 1, appId: 9, eventType, active: true, createdAt: at, updatedAt: at }),
    ),
  };

  it("carry HubSpot's legacy fields: the subscription type names the object, objectId is a number, no objectTypeId", () => {
    const [creation] = recordChangesOf(record('INSERT', recordItem('CONTACT#1000000000000101', {})));
    if (!creation) throw new Error('no creation');

    expect(eventsForApp(creation, 'r1', 9, config)).toEqual([
      {
        eventId: expect.any(Number),
        subscriptionId: 1,
        portalId: 40000001,
        appId: 9,
        occurredAt: Date.parse(at),
        subscriptionType: 'contact.creation',
        attemptNumber: 0,
        objectId: 1000000000000101,
        changeSource: 'API',
        changeFlag: 'CREATED',
      },
    ]);
  });

  it('give a removal for good the same event ids from whichever stream record it is read', () => {
    const active = recordItem('CONTACT#1000000000000101', {});
    const archived = recordItem('ARCHIVED_CONTACT#1000000000000101', {}, { archived: true, version: 2 });
    const eventsOf = (changeRecord: ChangeRecord) =>
      recordChangesOf(changeRecord, always).flatMap((change) => eventsForApp(change, changeRecord.recordId, 9, config));

    const fromActive = eventsOf(record('REMOVE', undefined, active, 'r1'));
    const fromArchived = eventsOf(record('REMOVE', undefined, archived, 'r2'));

    expect(fromActive.map((event) => [event.subscriptionType, event.changeFlag])).toEqual([
      ['contact.privacyDeletion', 'DELETED'],
      ['contact.deletion', 'DELETED'],
    ]);
    expect(fromArchived.map((event) => event.eventId)).toEqual(fromActive.map((event) => event.eventId));
  });
});

describe('the event objects', () => {
  it("are the stored types but the activities (served by object.* alone), each under the registry's type id, with privacyDeletion for contacts only", () => {
    expect(Object.entries(eventObjectTypeIds()).sort()).toEqual(
      storedObjectTypes
        .filter((type) => !type.isActivity)
        .map((type) => [type.singular, type.id])
        .sort(),
    );
    expect(storedObjectTypes.filter((type) => isWebhookEventType(`${type.singular}.privacyDeletion`))).toEqual([
      expect.objectContaining({ name: 'contacts' }),
    ]);
  });
});
