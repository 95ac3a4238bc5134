import type { CrmRecord } from '../db/records';
import { findInstalledApps, type InstalledApp } from '../db/webhooks';
import {
  findJournalFilters,
  listJournalSubscriptions,
  type JournalFilter,
  type JournalSubscription,
} from '../db/webhooks-journal';
import { putJournalEntries, type JournalEntry } from '../db/webhooks-journal-entries';
import { objectTypeById } from '../objects/object-types';
import { listMembershipChangeOf } from '../webhooks/list-membership-changes';
import { recordChangesOf, typedItemOf, type ChangeRecord } from '../webhooks/record-changes';
import { journalFileOf } from './journal-file-format';
import { matchesJournalFilters } from './journal-filter-match';
import { journalRetentionDays } from './journal-limits';
import { journalOffsetOf, maxEventsPerStreamRecord } from './journal-offsets';

/** How long an entry stays in the journal. */
export const journalRetentionMs = journalRetentionDays * 24 * 3600 * 1000;

export type JournalEventType = 'OBJECT' | 'ASSOCIATION' | 'LIST_MEMBERSHIP' | 'GDPR_PRIVACY_DELETION';

/** One change as the journal's subscriptions see it, before it is matched to an app. */
export interface JournalEvent {
  hubId: number;
  subscriptionType: JournalEventType;
  action: string;
  objectTypeId: string;
  objectId: string;
  /** Epoch ms of the change (the record's own time where it has one, else the stream's). */
  occurredAt: number;
  /** The offset of the event's entries (journal-offsets.ts) and the stream's time it is built from. */
  offset: string;
  streamAtMs: number;
  /** The record's values after the change (before it, for a removal), which filters compare with. */
  values: Readonly<Record<string, string>>;
  /** CREATE: the values it was created with; UPDATE: the values that changed (a cleared one is ''). */
  changedProperties?: Readonly<Record<string, string>>;
  association?: { associatedObjectTypeId: string; associatedObjectId: string; associationTypeId: number };
  listId?: string;
  merge?: { primaryObjectId: string; mergedObjectIds: string[] };
  /**
   * The same removal for good can be read from two stream records (record-changes.ts recordChangesOf:
   * an archive's removal read after a GDPR delete of the archived record): its events carry the
   * record's key, and a stream batch writes them once.
   */
  removalKey?: string;
}

type EventDraft = Omit<JournalEvent, 'offset' | 'streamAtMs'>;

const valuesOf = (record: CrmRecord): Record<string, string> => ({ ...(record.properties ?? {}) });

/** The association keys (`<typeId>/<id>/<associationTypeId>`) one image has and the other has not. */
function associationDrafts(
  base: Omit<EventDraft, 'subscriptionType' | 'action'>,
  before: CrmRecord | undefined,
  after: CrmRecord,
): EventDraft[] {
  const oldKeys = before?.associations ?? {};
  const newKeys = after.associations ?? {};
  const drafts: EventDraft[] = [];
  const emit = (key: string, action: 'ASSOCIATION_ADDED' | 'ASSOCIATION_REMOVED') => {
    const [associatedObjectTypeId, associatedObjectId, rawTypeId] = key.split('/');
    if (associatedObjectTypeId === undefined || associatedObjectId === undefined || rawTypeId === undefined) return;
    const associationTypeId = Number(rawTypeId);
    if (!Number.isInteger(associationTypeId)) return;
    drafts.push({
      ...base,
      subscriptionType: 'ASSOCIATION',
      action,
      association: { associatedObjectTypeId, associatedObjectId, associationTypeId },
    });
  };
  for (const key of Object.keys(newKeys).sort()) if (!(key in oldKeys)) emit(key, 'ASSOCIATION_ADDED');
  for (const key of Object.keys(oldKeys).sort()) if (!(key in newKeys)) emit(key, 'ASSOCIATION_REMOVED');
  return drafts;
}

/**
 * The journal events one stream record stands for, in the order their entries take: the record's
 * own event first (CREATE with its first values, UPDATE with the changed values, DELETE for an
 * archive, MERGE, RESTORE; GDPR_DELETE and DELETE for a removal for good), then its association
 * changes by key, or the list membership change it is. The kinds come from the webhooks' reading of
 * the same record (record-changes.ts recordChangesOf), so both consumers agree on what happened.
 */
export function journalEventsOf(record: ChangeRecord, isRemovedForGood: boolean): JournalEvent[] {
  const drafts = journalDraftsOf(record, isRemovedForGood).slice(0, maxEventsPerStreamRecord);
  return drafts.map((draft, index) => ({
    ...draft,
    offset: journalOffsetOf(record.approximateAtMs, record.sequenceNumber, index),
    streamAtMs: record.approximateAtMs,
  }));
}

function journalDraftsOf(record: ChangeRecord, isRemovedForGood: boolean): EventDraft[] {
  const membership = listMembershipChangeOf(record);
  if (membership) {
    return [
      {
        hubId: membership.hubId,
        subscriptionType: 'LIST_MEMBERSHIP',
        action: membership.action,
        objectTypeId: membership.objectTypeId,
        objectId: membership.recordId,
        occurredAt: membership.occurredAt,
        values: {},
        listId: membership.listId,
      },
    ];
  }
  const changes = recordChangesOf(record, () => isRemovedForGood);
  const first = changes[0];
  if (!first) return [];
  const after = typedItemOf(record.newImage)?.item.record;
  const before = typedItemOf(record.oldImage)?.item.record;
  const current = after ?? before;
  if (!current) return [];
  const base = {
    hubId: first.hubId,
    objectTypeId: first.objectTypeId,
    objectId: first.objectId,
    occurredAt: first.occurredAt,
    values: valuesOf(current),
  };
  const object = (action: string, extra: Partial<EventDraft> = {}): EventDraft => ({
    ...base,
    subscriptionType: 'OBJECT',
    action,
    ...extra,
  });
  const kinds = new Set(changes.map((change) => change.kind));
  if (kinds.has('privacyDeletion')) {
    const removal = first.eventKey === undefined ? {} : { removalKey: first.eventKey };
    return [
      { ...base, ...removal, subscriptionType: 'GDPR_PRIVACY_DELETION', action: 'GDPR_DELETE' },
      object('DELETE', removal),
    ];
  }
  if (kinds.has('deletion')) return [object('DELETE')];
  if (kinds.has('restore')) return [object('RESTORE')];
  if (first.kind === 'merge')
    return [
      object('MERGE', { merge: { primaryObjectId: first.primaryObjectId, mergedObjectIds: first.mergedObjectIds } }),
    ];
  if (!after) return [];
  const changed: Record<string, string> = {};
  for (const change of changes)
    if (change.kind === 'propertyChange') changed[change.propertyName] = change.propertyValue;
  if (kinds.has('creation'))
    return [object('CREATE', { changedProperties: changed }), ...associationDrafts(base, undefined, after)];
  const own = Object.keys(changed).length > 0 ? [object('UPDATE', { changedProperties: changed })] : [];
  return [...own, ...associationDrafts(base, before, after)];
}

/** Whether a subscription's fields (not its filters) take the event. */
function subscriptionTakes(subscription: JournalSubscription, event: JournalEvent): boolean {
  if (subscription.subscriptionType !== event.subscriptionType) return false;
  if (!subscription.actions.includes(event.action)) return false;
  if (subscription.portalId !== undefined && subscription.portalId !== event.hubId) return false;
  // A LIST_MEMBERSHIP subscription's object type is the lists' (0-45), not the member's.
  if (event.subscriptionType !== 'LIST_MEMBERSHIP' && subscription.objectTypeId !== event.objectTypeId) return false;
  if (subscription.objectIds && !subscription.objectIds.includes(Number(event.objectId))) return false;
  if (event.listId !== undefined && subscription.listIds && !subscription.listIds.includes(Number(event.listId)))
    return false;
  const association = event.association;
  if (association && !subscription.associatedObjectTypeIds?.includes(association.associatedObjectTypeId)) return false;
  if (event.action === 'UPDATE' && subscription.properties) {
    const named = new Set(subscription.properties);
    if (!Object.keys(event.changedProperties ?? {}).some((name) => named.has(name))) return false;
  }
  return true;
}

/** The changed values an entry carries: those its matching subscriptions name (all, when one names none). */
function changedPropertiesFor(
  event: JournalEvent,
  matched: readonly JournalSubscription[],
): Record<string, string> | undefined {
  const changed = event.changedProperties;
  if (!changed) return undefined;
  if (matched.some((subscription) => !subscription.properties)) return { ...changed };
  const named = new Set(matched.flatMap((subscription) => subscription.properties ?? []));
  return Object.fromEntries(Object.entries(changed).filter(([name]) => named.has(name)));
}

/** An app's journal subscriptions with their filters, read once per stream batch. */
interface AppSubscriptions {
  subscriptions: JournalSubscription[];
  filters: ReadonlyMap<number, JournalFilter[]>;
}

async function appSubscriptionsOf(appId: number): Promise<AppSubscriptions> {
  const subscriptions = await listJournalSubscriptions(appId);
  const filtered = subscriptions.filter((subscription) => subscription.filterIds.length > 0);
  const found = await findJournalFilters(
    appId,
    filtered.flatMap((subscription) => subscription.filterIds),
  );
  const filters = new Map<number, JournalFilter[]>();
  for (const filter of found)
    filters.set(filter.subscriptionId, [...(filters.get(filter.subscriptionId) ?? []), filter]);
  return { subscriptions, filters };
}

/**
 * The journal's pass over a stream batch (the records the reset filter kept, in stream order): each
 * record's events (journalEventsOf), for each app installed in the event's account whose install
 * holds a read scope of the object type (as the webhooks require) and whose subscriptions take the
 * event (their fields, then their filters' conditions on the record's values: matchesJournalFilters),
 * one entry per app and event, whatever the number of subscriptions that take it (and a removal for
 * good read from two records of the batch once). The entries'
 * offsets come from the stream records, so a batch handed out again writes the same items. Reads
 * the installs once per account and the subscriptions (one Query, and one BatchGetItem of the
 * filters when some have them) once per app, fresh for each batch; returns the entries written.
 */
export async function writeJournalEntries(
  records: readonly ChangeRecord[],
  isRemovedForGood: (record: ChangeRecord) => boolean,
  accepts: (hubId: number) => boolean,
): Promise<JournalEntry[]> {
  const removals = new Set<string>();
  const events = records
    .flatMap((record) => journalEventsOf(record, isRemovedForGood(record)))
    .filter((event) => {
      if (!accepts(event.hubId)) return false;
      if (event.removalKey === undefined) return true;
      const key = `${event.removalKey}:${event.action}`;
      if (removals.has(key)) return false;
      removals.add(key);
      return true;
    });
  if (events.length === 0) return [];
  const installs = new Map<number, Promise<InstalledApp[]>>();
  const subscriptionsByApp = new Map<number, Promise<AppSubscriptions>>();
  const installedApps = (hubId: number) => {
    if (!installs.has(hubId)) installs.set(hubId, findInstalledApps(hubId));
    return installs.get(hubId) as Promise<InstalledApp[]>;
  };
  const subscriptionsOf = (appId: number) => {
    if (!subscriptionsByApp.has(appId)) subscriptionsByApp.set(appId, appSubscriptionsOf(appId));
    return subscriptionsByApp.get(appId) as Promise<AppSubscriptions>;
  };
  for (const event of events) void installedApps(event.hubId).catch(() => undefined);
  const entries: JournalEntry[] = [];
  for (const event of events) {
    const readScopes: readonly string[] = objectTypeById(event.objectTypeId)?.scopes.read ?? [];
    for (const { appId, scopes } of await installedApps(event.hubId)) {
      if (!readScopes.some((scope) => scopes.includes(scope))) continue;
      const { subscriptions, filters } = await subscriptionsOf(appId);
      const matched = subscriptions.filter(
        (subscription) =>
          subscriptionTakes(subscription, event) &&
          matchesJournalFilters(filters.get(subscription.id) ?? [], event.values),
      );
      if (matched.length === 0) continue;
      const changedProperties = changedPropertiesFor(event, matched);
      entries.push({
        appId,
        portalId: event.hubId,
        offset: event.offset,
        expiresAtMs: event.streamAtMs + journalRetentionMs,
        file: journalFileOf(event, {
          appId,
          subscriptionIds: matched.map((subscription) => subscription.id),
          ...(changedProperties ? { changedProperties } : {}),
        }),
      });
    }
  }
  await putJournalEntries(entries);
  return entries;
}
