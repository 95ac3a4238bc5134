import type { JournalEvent } from './journal-events';

/**
 * The file behind a journal entry's URL: this service's format (HubSpot does not document the one
 * it serves; docs/webhooks-journal.md describes this one). One JSON object per entry: who and
 * where (`portalId`, `appId`, the `subscriptionIds` that took the event), what (`subscriptionType`,
 * `action`, `objectTypeId`, `objectId`, `occurredAt` in epoch ms, the entry's `offset`), and what a
 * subscription of the type promises: `changedProperties` (OBJECT CREATE and UPDATE: the values the
 * matching subscriptions name), `association` (ASSOCIATION), `listId` (LIST_MEMBERSHIP),
 * `primaryObjectId` and `mergedObjectIds` (MERGE).
 */
export interface JournalFile {
  offset: string;
  portalId: number;
  appId: number;
  subscriptionIds: number[];
  subscriptionType: string;
  action: string;
  objectTypeId: string;
  objectId: string;
  occurredAt: number;
  changedProperties?: Record<string, string>;
  association?: { associatedObjectTypeId: string; associatedObjectId: string; associationTypeId: number };
  listId?: string;
  primaryObjectId?: string;
  mergedObjectIds?: string[];
}

export function journalFileOf(
  event: JournalEvent,
  match: { appId: number; subscriptionIds: number[]; changedProperties?: Record<string, string> },
): string {
  const file: JournalFile = {
    offset: event.offset,
    portalId: event.hubId,
    appId: match.appId,
    subscriptionIds: match.subscriptionIds,
    subscriptionType: event.subscriptionType,
    action: event.action,
    objectTypeId: event.objectTypeId,
    objectId: event.objectId,
    occurredAt: event.occurredAt,
    ...(match.changedProperties ? { changedProperties: match.changedProperties } : {}),
    ...(event.association ? { association: event.association } : {}),
    ...(event.listId !== undefined ? { listId: event.listId } : {}),
    ...(event.merge
      ? { primaryObjectId: event.merge.primaryObjectId, mergedObjectIds: event.merge.mergedObjectIds }
      : {}),
  };
  return JSON.stringify(file);
}
