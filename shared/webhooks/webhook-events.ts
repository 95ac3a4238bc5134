import { createHash } from 'node:crypto';
import type { WebhookConfig } from '../db/webhooks';
import type { RecordChange, RecordChangeKind } from './record-changes';

/** One notification as the target receives it (HubSpot's webhooks v3 fields). */
export interface WebhookEvent {
  eventId: number;
  subscriptionId: number;
  portalId: number;
  appId: number;
  occurredAt: number;
  subscriptionType: string;
  attemptNumber: number;
  objectId: number | string;
  /** Generic (`object.*`) events only: the object type id (`0-1`). */
  objectTypeId?: string;
  changeSource: string;
  changeFlag: string;
  sourceId?: string;
  propertyName?: string;
  propertyValue?: string;
  associationType?: string;
  fromObjectId?: number | string;
  toObjectId?: number | string;
  associationRemoved?: boolean;
  isPrimaryAssociation?: boolean;
  primaryObjectId?: number | string;
  mergedObjectIds?: (number | string)[];
  newObjectId?: number | string;
  numberOfPropertiesMoved?: number;
}

/** Ids are JSON numbers, as HubSpot sends them, whenever the number is exact. */
function idValue(id: string): number | string {
  const value = Number(id);
  return /^[0-9]{1,16}$/.test(id) && Number.isSafeInteger(value) ? value : id;
}

const changeFlags: Record<RecordChangeKind, string> = {
  creation: 'CREATED',
  deletion: 'DELETED',
  // HubSpot's flag for it is not documented (reference/HUBSPOT-WIRE-FACTS-3.md): the record is deleted.
  privacyDeletion: 'DELETED',
  restore: 'RESTORED',
  merge: 'MERGED',
  propertyChange: 'UPDATED',
  associationChange: 'UPDATED',
};

/**
 * The event id: a hash of the stream record (or the change's eventKey), the subscription and the
 * change within the record. The same change handed out again by the stream (a retried batch, a
 * restarted poller) gets the same id, so a receiver can drop the duplicate; below 2^52, so it is an
 * exact JSON number.
 */
function eventIdOf(recordId: string, subscriptionId: number, discriminator: string): number {
  return Number.parseInt(
    createHash('sha256').update(`${recordId}|${subscriptionId}|${discriminator}`).digest('hex').slice(0, 13),
    16,
  );
}

function fieldsOf(change: RecordChange): Partial<WebhookEvent> {
  switch (change.kind) {
    case 'propertyChange':
      return { propertyName: change.propertyName, propertyValue: change.propertyValue };
    case 'associationChange':
      return {
        associationType: change.associationType,
        fromObjectId: idValue(change.fromObjectId),
        toObjectId: idValue(change.toObjectId),
        associationRemoved: change.associationRemoved,
        isPrimaryAssociation: change.isPrimaryAssociation,
      };
    case 'merge':
      return {
        primaryObjectId: idValue(change.primaryObjectId),
        mergedObjectIds: change.mergedObjectIds.map(idValue),
        newObjectId: idValue(change.newObjectId),
        numberOfPropertiesMoved: change.numberOfPropertiesMoved,
      };
    default:
      return {};
  }
}

/** The subscription type a change fires (`company.propertyChange`, `contact.privacyDeletion`, ...); none for an activity's. */
export function subscriptionTypeOf(change: RecordChange): string | undefined {
  return change.object === undefined ? undefined : `${change.object}.${change.kind}`;
}

/**
 * The events of one change for one app: one per active subscription of the change's type (a
 * propertyChange only for subscriptions to that property), and one per active generic
 * subscription (`object.<kind>`) to the change's object type. Nothing while the app has no target.
 * `objectId` is the record's id; like HubSpot's legacy (`<object>.*`) deliveries, a legacy event
 * carries no `objectTypeId` (the subscription type names the object), a generic one does.
 */
export function eventsForApp(
  change: RecordChange,
  recordId: string,
  appId: number,
  config: WebhookConfig,
): WebhookEvent[] {
  if (!config.settings) return [];
  const subscriptionType = subscriptionTypeOf(change);
  const genericType = `object.${change.kind}`;
  return config.subscriptions
    .filter(
      (subscription) =>
        subscription.active &&
        ((subscriptionType !== undefined && subscription.eventType === subscriptionType) ||
          (subscription.eventType === genericType && subscription.objectTypeId === change.objectTypeId)) &&
        (change.kind !== 'propertyChange' || subscription.propertyName === change.propertyName),
    )
    .map((subscription) => ({
      eventId: eventIdOf(change.eventKey ?? recordId, subscription.id, change.discriminator),
      subscriptionId: subscription.id,
      portalId: change.hubId,
      appId,
      occurredAt: change.occurredAt,
      subscriptionType: subscription.eventType,
      attemptNumber: 0,
      objectId: idValue(change.objectId),
      ...(subscription.eventType === genericType ? { objectTypeId: change.objectTypeId } : {}),
      changeSource: change.changeSource,
      changeFlag: changeFlags[change.kind],
      ...(change.sourceId === undefined ? {} : { sourceId: change.sourceId }),
      ...fieldsOf(change),
    }));
}
