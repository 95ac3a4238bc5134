import { nowMs } from '../base/clock';
import { mapConcurrently } from '../base/map-concurrently';
import { isNumericId } from '../records/record-id';
import { appendHistory, historyEntry, type Actor } from '../records/record-values';
import { recordNotFound } from '../records/read-records';
import { saveRecordChange } from '../records/save-record';
import * as recordsDb from '../db/records';
import type { CrmRecord, RecordWrite } from '../db/records';
import * as customTypes from '../db/association-labels';
import { ValidationError } from '../base/errors';
import { inverseTypeOf, resolveTypeBetween } from '../association-types/association-labels';
import {
  defaultTypeBetween,
  findStandardTypeFrom,
  type AssociationCategory,
  type AssociationType,
} from '../association-types/association-types';
import {
  associatedActivityIds,
  associationLimitError,
  checkAssociationLimits,
  customTypeFinder,
  invalidAssociationTargets,
  linkedChangesOf,
  maxAssociationsPerRecord,
  completeLinkedChanges,
  withOnePrimary,
  impliedTypeOf,
  singleAssociationError,
  type CustomTypeFinder,
} from '../records/association-entries';
import { requireObjectType, type ObjectType } from '../objects/object-types';
import { rulesOf } from '../records/type-rules-lookup';
import {
  associationLimitsReader,
  type AssociationLimitSet,
  type AssociationLimitsReader,
} from '../association-limits/association-limit-set';
import {
  associationLimitExceeded,
  heldCount,
  limitLinkedChanges,
} from '../association-limits/enforce-association-limits';

export type { CustomTypeFinder };

/** Ids go out as JSON numbers, as HubSpot sends them, unless a number would lose digits. */
export type WireId = number | string;
export const wireId = (id: string): WireId => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

export interface AssociationTypeView {
  category: AssociationCategory;
  typeId: number;
  label: string | null;
}

export interface AssociatedObjectView {
  toObjectId: WireId;
  associationTypes: AssociationTypeView[];
}

export interface AssociationPage {
  results: AssociatedObjectView[];
  paging?: { next: { after: string; link: string } };
}

export interface LabelsBetweenPair {
  fromObjectTypeId: string;
  fromObjectId: WireId;
  toObjectTypeId: string;
  toObjectId: WireId;
  labels: string[];
}

export interface AssociationSpecInput {
  associationCategory?: string;
  associationTypeId: number;
}

export const defaultAssociationLimit = 500;
export const maxAssociationLimit = 500;

/**
 * The two records of a v4 call, seen from the record a call reads and writes first (the holder):
 * `from` when its type is stored, else `to`. Every stored record holds its own side of each of its
 * associations, and a write to one also writes the other's side (when its type is stored) in the
 * same transaction; a record of a type not stored (an activity) has its side in reverse-lookup
 * items of the holder.
 */
export interface Pair {
  from: ObjectType;
  to: ObjectType;
  /** The stored type read and written first: `from`, or `to` when `from` is not stored. */
  holder: ObjectType;
  /** True when the holder is `from`. */
  isForward: boolean;
}

export function requirePair(fromToken: string, toToken: string): Pair {
  const from = requireObjectType(fromToken, 'objectType');
  const to = requireObjectType(toToken, 'toObjectType');
  if (!from.isStored && !to.isStored) {
    throw new ValidationError(
      `Neither ${from.name} nor ${to.name} are stored by this service yet: associations between them cannot be kept`,
      { context: { objectType: [fromToken], toObjectType: [toToken] } },
    );
  }
  return { from, to, holder: from.isStored ? from : to, isForward: from.isStored };
}

/**
 * What a write answers for a from record that is missing or archived: the contract's 400 naming it,
 * as for a missing to record (reference/HUBSPOT-WIRE-FACTS-3.md, v4 PUT where an id does not exist).
 */
export const invalidFrom =
  (pair: Pair) =>
  (fromId: string): Error =>
    invalidAssociationTargets([{ type: pair.from, id: fromId }]);

/** The holder and the other record of a call's ids; a from id that is no id answers `missingFrom` (404 unless a write says otherwise). */
export function requireIds(
  pair: Pair,
  fromId: string,
  toId: string,
  missingFrom: (fromId: string) => Error = recordNotFound,
): { holderId: string; other: ObjectType; otherId: string } {
  if (!isNumericId(fromId)) {
    if (pair.isForward) throw missingFrom(fromId);
    throw new ValidationError(`${fromId} is not a valid object id`, { context: { objectId: [fromId] } });
  }
  if (!isNumericId(toId) || (pair.from.id === pair.to.id && fromId === toId))
    throw invalidAssociationTargets([{ type: pair.to, id: toId }]);
  return pair.isForward
    ? { holderId: fromId, other: pair.to, otherId: toId }
    : { holderId: toId, other: pair.from, otherId: fromId };
}

/** Standard types and every custom type (live or deleted) between two object types, both directions. */
export async function typeCatalog(
  hubId: number,
  a: ObjectType,
  b: ObjectType,
  typeIds: Iterable<number>,
): Promise<(fromId: string, typeId: number) => AssociationType | undefined> {
  const custom = new Map<number, AssociationType>();
  if ([...typeIds].some((typeId) => typeId >= 1000)) {
    const lists = await Promise.all([
      customTypes.listCustomAssociationTypes(hubId, a.id, b.id),
      ...(a.id === b.id ? [] : [customTypes.listCustomAssociationTypes(hubId, b.id, a.id)]),
    ]);
    for (const type of lists.flat()) custom.set(type.typeId, type);
  }
  return (fromId, typeId) => findStandardTypeFrom(fromId, typeId) ?? custom.get(typeId);
}

/**
 * The types between the holder and one record, as seen from `pair.from`. A deleted label reads as
 * the pair's unlabeled type; each type id appears once.
 */
export function typeViews(
  holderTypeIds: readonly number[],
  pair: Pair,
  lookup: (fromId: string, typeId: number) => AssociationType | undefined,
): AssociationTypeView[] {
  const { from: viewFrom, to: viewTo, holder } = pair;
  const views = new Map<number, AssociationTypeView>();
  for (const holderTypeId of holderTypeIds) {
    const stored = lookup(holder.id, holderTypeId);
    let type = stored && !pair.isForward ? lookup(viewFrom.id, stored.inverseTypeId) : stored;
    if (!type || type.archived) type = defaultTypeBetween(viewFrom, viewTo);
    if (type) views.set(type.typeId, { category: type.category, typeId: type.typeId, label: type.label });
  }
  return [...views.values()].sort((x, y) => x.typeId - y.typeId);
}

/** Type ids the holder holds towards one record, from its association keys. */
function holderTypeIdsFor(record: CrmRecord, other: ObjectType, otherId: string): number[] {
  const prefix = `${other.id}/${otherId}/`;
  return Object.keys(record.associations)
    .filter((key) => key.startsWith(prefix))
    .map((key) => Number(key.slice(prefix.length)));
}

const byNumericId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

function requirePaging(limit: number | undefined, after: string | undefined): number {
  const size = limit ?? defaultAssociationLimit;
  if (!Number.isInteger(size) || size < 1 || size > maxAssociationLimit) {
    throw new ValidationError(`limit must be between 1 and ${maxAssociationLimit}`, {
      context: { limit: [String(limit)] },
    });
  }
  if (after !== undefined && !isNumericId(after))
    throw new ValidationError('after is not a paging cursor this API returned', { context: { after: [after] } });
  return size;
}

export interface FoundPage {
  found: { id: string; typeIds: number[] }[];
  hasMore: boolean;
}

/** A record's associated records of one type, in id order, after `after`: read from its item. */
export function holderPage(record: CrmRecord, to: ObjectType, limit: number, after: string | undefined): FoundPage {
  const sorted = [...recordsDb.associatedIdsOf(record.associations, to.id)]
    .sort(byNumericId)
    .filter((id) => after === undefined || byNumericId(id, after) > 0);
  return {
    found: sorted.slice(0, limit).map((id) => ({ id, typeIds: holderTypeIdsFor(record, to, id) })),
    hasMore: sorted.length > limit,
  };
}

/** The holders a reverse-lookup page names that still hold the association (the holder's item is the truth). */
export function edgePageFound(
  holderIds: readonly string[],
  records: ReadonlyMap<string, CrmRecord>,
  from: ObjectType,
  fromId: string,
): FoundPage['found'] {
  return holderIds.flatMap((id) => {
    const record = records.get(id);
    const typeIds = record ? holderTypeIdsFor(record, from, fromId) : [];
    return typeIds.length > 0 ? [{ id, typeIds }] : [];
  });
}

/** Records of one type by id, one BatchGetItem per 100. */
export async function findRecordsById(
  type: ObjectType,
  hubId: number,
  ids: readonly string[],
): Promise<Map<string, CrmRecord>> {
  const unique = [...new Set(ids)];
  const chunks = Array.from({ length: Math.ceil(unique.length / 100) }, (_, index) =>
    unique.slice(index * 100, index * 100 + 100),
  );
  const maps = await mapConcurrently(chunks, 4, (chunk) => recordsDb.findRecords(type, hubId, chunk));
  return new Map(maps.flatMap((map) => [...map]));
}

/**
 * One page of the records associated with one record, in id order. From a stored record: one
 * GetItem (it holds its side of every association). From a record of a type not stored: one Query
 * of the reverse-lookup items, then the records they name (one BatchGetItem per 100), which stay
 * the truth: one that no longer holds the association is left out.
 */
export async function listRecordAssociations(
  hubId: number,
  fromToken: string,
  fromId: string,
  toToken: string,
  query: { limit?: number; after?: string },
  linkFor: (after: string) => string,
): Promise<AssociationPage> {
  const pair = requirePair(fromToken, toToken);
  const limit = requirePaging(query.limit, query.after);
  if (!isNumericId(fromId)) {
    if (pair.isForward) throw recordNotFound(fromId);
    return { results: [] };
  }
  let page: FoundPage;
  let last: string | undefined;
  if (pair.isForward) {
    const record = await recordsDb.findRecord(pair.from, hubId, fromId);
    if (!record) throw recordNotFound(fromId);
    page = holderPage(record, pair.to, limit, query.after);
    last = page.found.at(-1)?.id;
  } else {
    const edges = await recordsDb.listAssociationEdges(hubId, pair.holder, pair.from.id, fromId, limit, query.after);
    const records = await findRecordsById(pair.holder, hubId, edges.holderIds);
    page = { found: edgePageFound(edges.holderIds, records, pair.from, fromId), hasMore: edges.hasMore };
    last = edges.holderIds.at(-1);
  }
  const lookup = await typeCatalog(
    hubId,
    pair.from,
    pair.to,
    page.found.flatMap((entry) => entry.typeIds),
  );
  const results = page.found.map((entry) => ({
    toObjectId: wireId(entry.id),
    associationTypes: typeViews(entry.typeIds, pair, lookup),
  }));
  return page.hasMore && last ? { results, paging: { next: { after: last, link: linkFor(last) } } } : { results };
}

/** Drops the pin when its activity is no longer associated (the pinning rule). */
export function unpinIfGone(
  actor: Actor,
  record: CrmRecord,
  associations: Record<string, string>,
): Pick<CrmRecord, 'properties' | 'history'> {
  const pinned = record.properties.hs_pinned_engagement_id;
  if (pinned === undefined || associatedActivityIds(associations).has(pinned))
    return { properties: record.properties, history: record.history };
  const properties = { ...record.properties };
  delete properties.hs_pinned_engagement_id;
  const now = new Date(nowMs()).toISOString();
  return {
    properties,
    history: {
      ...record.history,
      hs_pinned_engagement_id: appendHistory(record.history.hs_pinned_engagement_id, historyEntry('', now, actor)),
    },
  };
}

/** Pairs with a stored record per transaction: each is the other record's item beside the holder and its projection. */
export const maxStoredPairsPerWrite = 90;

/**
 * Time left after the last work started, for the transactions then in flight to finish and the
 * answer to be sent before the function's timeout (a loaded machine took over 3 s for the last wave).
 */
export const inFlightReserveMs = 3500;

/** The holder-side types a pair should hold: type ids it holds already and keeps, and types to add. */
export interface PairTypes {
  keep: readonly number[];
  add: readonly AssociationType[];
}

/** One pair of a holder's change: the record on the other side and the types it should hold. */
export interface PairChange {
  other: ObjectType;
  otherId: string;
  next: (current: readonly number[]) => PairTypes;
}

export interface PairsOutcome {
  /** Undefined when the holder does not exist. */
  record: CrmRecord | undefined;
  /** Changes (by index) left out because they would pass the association limits. */
  rejected: Map<number, ValidationError>;
}

/**
 * Applies pair changes to one record in one read and one transaction (which also updates the
 * other side of each pair whose other record is stored). A change that would pass the association
 * limits is left out and reported; the others are written together.
 */
export async function changePairs(
  actor: Actor,
  holder: ObjectType,
  holderId: string,
  changes: readonly PairChange[],
  findType: CustomTypeFinder = customTypeFinder(actor.hubId),
  limits: AssociationLimitsReader = associationLimitsReader(actor.hubId),
): Promise<PairsOutcome> {
  let rejected = new Map<number, ValidationError>();
  const saved = await saveRecordChange(holder, actor.hubId, holderId, async (record) => {
    const plan = await planPairs(actor, holder, record, changes, findType, limits);
    rejected = plan.rejected;
    return plan.write;
  });
  return { record: saved ? (saved.write?.record ?? saved.record) : undefined, rejected };
}

/** The write of pair changes to a record as read: undefined when nothing changes; changes (by index) that would pass a limit, left out. */
export interface PairChangesPlan {
  write: RecordWrite | undefined;
  rejected: Map<number, ValidationError>;
}

/**
 * Works out the write of pair changes to one record from the record as read (no database call but
 * custom type lookups and, for a change that adds, the account's association limits: the other
 * records a limit bounds are read, and their versions become conditions of the write).
 */
export async function planPairs(
  actor: Actor,
  holder: ObjectType,
  record: CrmRecord,
  changes: readonly PairChange[],
  findType: CustomTypeFinder,
  limits: AssociationLimitsReader,
): Promise<PairChangesPlan> {
  const rejected = new Map<number, ValidationError>();
  // Read on the first change that adds; a write that only removes never reads them.
  let limitSet: AssociationLimitSet | undefined;
  const heldAsRead = new Map<string, number>();
  const associations = { ...record.associations };
  let keyCount = Object.keys(associations).length;
  // A type's count of associated records of its own type may be bounded too (it bounds an archive's transaction).
  const linksToSelf = rulesOf(holder).linksToSelf;
  const linkedOfType = linksToSelf ? recordsDb.associatedIdsOf(associations, holder.id) : new Set<string>();
  let changed = false;
  const singleHeld = rulesOf(holder).singleAssociation;
  for (const [index, change] of changes.entries()) {
    const prefix = `${change.other.id}/${change.otherId}/`;
    const currentKeys = Object.keys(associations).filter((key) => key.startsWith(prefix));
    const { keep, add: wanted } = change.next(currentKeys.map((key) => Number(key.slice(prefix.length))));
    const wantedKeys = new Set([
      ...keep.map((typeId) => `${prefix}${typeId}`),
      ...wanted.map((type) => `${prefix}${type.typeId}`),
    ]);
    const removed = currentKeys.filter((key) => !wantedKeys.has(key));
    const added = [
      ...new Map(
        wanted.filter((type) => !(`${prefix}${type.typeId}` in associations)).map((type) => [type.typeId, type]),
      ).values(),
    ];
    if (removed.length === 0 && added.length === 0) continue;
    const isCountedPair = linksToSelf !== undefined && change.other.id === holder.id;
    const nextKeyCount = keyCount - removed.length + added.length;
    const linksAfter = linkedOfType.size + (isCountedPair && currentKeys.length === 0 && added.length > 0 ? 1 : 0);
    // Only what adds past a limit is refused: a record over one (written before it held on both sides) can still lose associations.
    const passesKeys = nextKeyCount > maxAssociationsPerRecord && nextKeyCount > keyCount;
    const passesLinks = linksToSelf !== undefined && linksAfter > linksToSelf.max && linksAfter > linkedOfType.size;
    if (added.length > 0 && (passesKeys || passesLinks)) {
      rejected.set(index, associationLimitError(nextKeyCount));
      continue;
    }
    if (added.length > 0) limitSet ??= await limits();
    // The account's limits on the holder's side: a type it would hold more of than configured (and than it held as read).
    const overLimit = added.find((type) => {
      const max = limitSet?.maxOf(holder.id, change.other.id, type.typeId);
      if (max === undefined) return false;
      const bucket = `${change.other.id}/${type.typeId}`;
      const asRead = heldAsRead.get(bucket) ?? heldCount(record.associations, change.other.id, type.typeId);
      heldAsRead.set(bucket, asRead);
      const count = heldCount(associations, change.other.id, type.typeId) + 1;
      return count > max && count > asRead;
    });
    if (overLimit) {
      const max = limitSet?.maxOf(holder.id, change.other.id, overLimit.typeId) ?? 0;
      rejected.set(index, associationLimitExceeded(holder, record.id, change.other.id, overLimit.typeId, max));
      continue;
    }
    // A record that may have one associated record of the other's type (a line item's deal) keeps the one it has.
    const held =
      singleHeld?.typeId === change.other.id
        ? [...recordsDb.associatedIdsOf(associations, change.other.id)].find((id) => id !== change.otherId)
        : undefined;
    if (added.length > 0 && currentKeys.length === 0 && held !== undefined) {
      rejected.set(index, singleAssociationError(holder, record.id, change.other, held));
      continue;
    }
    for (const key of removed) delete associations[key];
    for (const type of added) associations[`${prefix}${type.typeId}`] = type.name;
    keyCount = nextKeyCount;
    changed = true;
    if (isCountedPair) {
      if (currentKeys.length === removed.length && added.length === 0) linkedOfType.delete(change.otherId);
      else linkedOfType.add(change.otherId);
    }
  }
  if (!changed) return { write: undefined, rejected };
  const kept = withOnePrimary(holder, record.associations, associations);
  const nextRecord: CrmRecord = {
    ...record,
    associations: kept,
    ...unpinIfGone(actor, record, kept),
    version: record.version + 1,
  };
  checkAssociationLimits(holder, nextRecord, record);
  const read = (type: ObjectType, id: string) => recordsDb.findRecord(type, actor.hubId, id);
  const linked = await completeLinkedChanges(
    holder,
    record.id,
    await linkedChangesOf(holder, record.id, record.associations, kept, findType),
    read,
  );
  return {
    write: {
      record: nextRecord,
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: [],
      linked: limitSet ? await limitLinkedChanges(limitSet, holder, linked, read) : linked,
    },
    rejected,
  };
}

/**
 * Sets the holder-side types between a record and one other record to what `next` returns for the
 * types it holds now: one read and one transaction. Undefined when the holder does not exist.
 */
export async function changePairTypes(
  actor: Actor,
  holder: ObjectType,
  holderId: string,
  other: ObjectType,
  otherId: string,
  next: (current: readonly number[]) => PairTypes,
): Promise<CrmRecord | undefined> {
  const { record, rejected } = await changePairs(actor, holder, holderId, [{ other, otherId, next }]);
  const refused = rejected.get(0);
  if (refused) throw refused;
  return record;
}

/** The holder-side type of a type sent for the direction `pair.from -> pair.to`. */
export async function holderSideType(hubId: number, pair: Pair, type: AssociationType): Promise<AssociationType> {
  return pair.isForward ? type : inverseTypeOf(hubId, type);
}

/** A primary type also holds its unlabeled type (a Primary association is also an unlabeled one in HubSpot). */
export function withImplied(types: readonly AssociationType[]): AssociationType[] {
  const all = new Map<number, AssociationType>();
  for (const type of types) {
    all.set(type.typeId, type);
    const implied = impliedTypeOf(type);
    if (implied) all.set(implied.typeId, implied);
  }
  return [...all.values()];
}

/**
 * The labeled PUT: the sent types REPLACE every type between the two records (send a label
 * again to keep it). One read and one transaction.
 */
export async function putRecordAssociation(
  actor: Actor,
  fromToken: string,
  fromId: string,
  toToken: string,
  toId: string,
  specs: readonly AssociationSpecInput[],
): Promise<LabelsBetweenPair> {
  const pair = requirePair(fromToken, toToken);
  const { holderId, other, otherId } = requireIds(pair, fromId, toId, invalidFrom(pair));
  const sent = await Promise.all(
    specs.map((spec) =>
      resolveTypeBetween(actor.hubId, pair.from, pair.to, spec.associationTypeId, spec.associationCategory),
    ),
  );
  const holderSide = withImplied(await Promise.all(sent.map((type) => holderSideType(actor.hubId, pair, type))));
  const record = await changePairTypes(actor, pair.holder, holderId, other, otherId, () => ({
    keep: [],
    add: holderSide,
  }));
  if (!record)
    throw pair.isForward ? invalidFrom(pair)(fromId) : invalidAssociationTargets([{ type: pair.to, id: toId }]);
  const labels = [...new Set(sent.map((type) => type.label).filter((label): label is string => label !== null))];
  return {
    fromObjectTypeId: pair.from.id,
    fromObjectId: wireId(fromId),
    toObjectTypeId: pair.to.id,
    toObjectId: wireId(toId),
    labels,
  };
}

export interface DefaultAssociationResult {
  status: 'COMPLETE';
  results: {
    from: { id: string };
    to: { id: string };
    associationSpec: { associationCategory: AssociationCategory; associationTypeId: number };
  }[];
  startedAt: string;
  completedAt: string;
}

/** Adds the pair's unlabeled (default) type, keeping any label; the answer lists both directions. */
export async function putDefaultAssociation(
  actor: Actor,
  fromToken: string,
  fromId: string,
  toToken: string,
  toId: string,
): Promise<DefaultAssociationResult> {
  const startedAt = new Date(nowMs()).toISOString();
  const pair = requirePair(fromToken, toToken);
  const { holderId, other, otherId } = requireIds(pair, fromId, toId, invalidFrom(pair));
  const forward = defaultTypeBetween(pair.from, pair.to);
  const backward = defaultTypeBetween(pair.to, pair.from);
  const holderSide = pair.isForward ? forward : backward;
  if (!forward || !backward || !holderSide)
    throw new ValidationError(`No default association type between ${pair.from.name} and ${pair.to.name}`, {
      context: { toObjectType: [toToken] },
    });
  const record = await changePairTypes(actor, pair.holder, holderId, other, otherId, (current) => ({
    keep: current,
    add: [holderSide],
  }));
  if (!record)
    throw pair.isForward ? invalidFrom(pair)(fromId) : invalidAssociationTargets([{ type: pair.to, id: toId }]);
  const spec = (type: AssociationType) => ({ associationCategory: type.category, associationTypeId: type.typeId });
  return {
    status: 'COMPLETE',
    results: [
      { from: { id: fromId }, to: { id: toId }, associationSpec: spec(forward) },
      { from: { id: toId }, to: { id: fromId }, associationSpec: spec(backward) },
    ],
    startedAt,
    completedAt: new Date(nowMs()).toISOString(),
  };
}

/** Removes every type between the two records (204 whether or not there was one). */
export async function deleteRecordAssociation(
  actor: Actor,
  fromToken: string,
  fromId: string,
  toToken: string,
  toId: string,
): Promise<void> {
  const pair = requirePair(fromToken, toToken);
  const { holderId, other, otherId } = requireIds(pair, fromId, toId);
  const record = await changePairTypes(actor, pair.holder, holderId, other, otherId, () => ({ keep: [], add: [] }));
  if (!record) throw pair.isForward ? recordNotFound(fromId) : invalidAssociationTargets([{ type: pair.to, id: toId }]);
}
