import { nowMs } from '../base/clock';
import { mapConcurrently } from '../base/map-concurrently';
import { isNumericId } from '../records/record-id';
import { appendHistory, historyEntry, type Actor } from '../records/record-values';
import { recordNotFound } from '../records/read-records';
import { saveRecordChange } from '../records/save-record';
import * as companies from '../db/records';
import type { CrmRecord, RecordWrite, LinkedCompanyChange } from '../db/records';
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
  invalidAssociationTargets,
  maxAssociationsPerCompany,
  maxCompanyLinksPerCompany,
  withImpliedTypes,
} from '../records/association-entries';
import { companyObjectType, requireObjectType, type ObjectType } from '../objects/object-types';

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
 * The two records of a v4 call, seen from the company that stores the association: the company
 * item holds every association a company has, so one record of the pair must be a company.
 */
export interface Pair {
  from: ObjectType;
  to: ObjectType;
  /** True when `from` is the company (the stored direction). */
  isForward: boolean;
}

export function requirePair(fromToken: string, toToken: string): Pair {
  const from = requireObjectType(fromToken, 'objectType');
  const to = requireObjectType(toToken, 'toObjectType');
  if (from.id !== companyObjectType.id && to.id !== companyObjectType.id) {
    throw new ValidationError(
      `Only associations that involve companies are stored by this service, not ${from.name} to ${to.name}`,
      { context: { objectType: [fromToken], toObjectType: [toToken] } },
    );
  }
  return { from, to, isForward: from.id === companyObjectType.id };
}

export function requireIds(
  pair: Pair,
  fromId: string,
  toId: string,
): { companyId: string; other: ObjectType; otherId: string } {
  if (!isNumericId(fromId)) {
    if (pair.from.id === companyObjectType.id) throw recordNotFound(fromId);
    throw new ValidationError(`${fromId} is not a valid object id`, { context: { objectId: [fromId] } });
  }
  if (!isNumericId(toId) || (pair.from.id === pair.to.id && fromId === toId)) throw invalidAssociationTargets([toId]);
  return pair.isForward
    ? { companyId: fromId, other: pair.to, otherId: toId }
    : { companyId: toId, other: pair.from, otherId: fromId };
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
 * The types between the company and one record, as seen from `viewFrom`. A deleted label reads
 * as the pair's unlabeled type; each type id appears once.
 */
export function typeViews(
  companyTypeIds: readonly number[],
  viewFrom: ObjectType,
  viewTo: ObjectType,
  lookup: (fromId: string, typeId: number) => AssociationType | undefined,
): AssociationTypeView[] {
  const views = new Map<number, AssociationTypeView>();
  for (const companyTypeId of companyTypeIds) {
    const stored = lookup(companyObjectType.id, companyTypeId);
    let type = stored && viewFrom.id !== companyObjectType.id ? lookup(viewFrom.id, stored.inverseTypeId) : stored;
    if (!type || type.archived) type = defaultTypeBetween(viewFrom, viewTo);
    if (type) views.set(type.typeId, { category: type.category, typeId: type.typeId, label: type.label });
  }
  return [...views.values()].sort((x, y) => x.typeId - y.typeId);
}

/** Type ids the company holds towards one record, from its association keys. */
function companyTypeIdsFor(record: CrmRecord, other: ObjectType, otherId: string): number[] {
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

/** A company's associated records of one type, in id order, after `after`: read from its item. */
export function companyPage(record: CrmRecord, to: ObjectType, limit: number, after: string | undefined): FoundPage {
  const ids = new Set<string>();
  const prefix = `${to.id}/`;
  for (const key of Object.keys(record.associations)) if (key.startsWith(prefix)) ids.add(key.split('/')[1] ?? '');
  const sorted = [...ids].sort(byNumericId).filter((id) => after === undefined || byNumericId(id, after) > 0);
  return {
    found: sorted.slice(0, limit).map((id) => ({ id, typeIds: companyTypeIdsFor(record, to, id) })),
    hasMore: sorted.length > limit,
  };
}

/** The companies a reverse-lookup page names that still hold the association (the company item is the truth). */
export function edgePageFound(
  companyIds: readonly string[],
  records: ReadonlyMap<string, CrmRecord>,
  from: ObjectType,
  fromId: string,
): FoundPage['found'] {
  return companyIds.flatMap((id) => {
    const record = records.get(id);
    const typeIds = record ? companyTypeIdsFor(record, from, fromId) : [];
    return typeIds.length > 0 ? [{ id, typeIds }] : [];
  });
}

/** Companies by id, one BatchGetItem per 100. */
export async function findCompaniesById(hubId: number, ids: readonly string[]): Promise<Map<string, CrmRecord>> {
  const unique = [...new Set(ids)];
  const chunks = Array.from({ length: Math.ceil(unique.length / 100) }, (_, index) =>
    unique.slice(index * 100, index * 100 + 100),
  );
  const maps = await mapConcurrently(chunks, 4, (chunk) => companies.findRecords(companyObjectType, hubId, chunk));
  return new Map(maps.flatMap((map) => [...map]));
}

/**
 * One page of the records associated with one record, in id order. From a company: one GetItem
 * (the company holds every association). From a record of another type: one Query of the
 * reverse-lookup items, then the companies they name (one BatchGetItem per 100), which stay the
 * truth: a company that no longer holds the association is left out.
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
    const record = await companies.findRecord(companyObjectType, hubId, fromId);
    if (!record) throw recordNotFound(fromId);
    page = companyPage(record, pair.to, limit, query.after);
    last = page.found.at(-1)?.id;
  } else {
    const edges = await companies.listAssociationEdges(hubId, pair.from.id, fromId, limit, query.after);
    const records = await findCompaniesById(hubId, edges.companyIds);
    page = { found: edgePageFound(edges.companyIds, records, pair.from, fromId), hasMore: edges.hasMore };
    last = edges.companyIds.at(-1);
  }
  const lookup = await typeCatalog(
    hubId,
    pair.from,
    pair.to,
    page.found.flatMap((entry) => entry.typeIds),
  );
  const results = page.found.map((entry) => ({
    toObjectId: wireId(entry.id),
    associationTypes: typeViews(entry.typeIds, pair.from, pair.to, lookup),
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

/** The company-side types a pair should hold: type ids it holds already and keeps, and types to add. */
export interface PairTypes {
  keep: readonly number[];
  add: readonly AssociationType[];
}

/** One pair of a company's change: the record on the other side and the types it should hold. */
export interface PairChange {
  other: ObjectType;
  otherId: string;
  next: (current: readonly number[]) => PairTypes;
}

export interface CompanyPairsOutcome {
  /** Undefined when the company does not exist. */
  record: CrmRecord | undefined;
  /** Changes (by index) left out because they would pass the association limits. */
  rejected: Map<number, ValidationError>;
}

/** A custom type by id; a batch passes a memoized one so each id is read once per request. */
export type CustomTypeFinder = (typeId: number) => Promise<AssociationType | undefined>;

/**
 * Applies pair changes to one company in one read and one transaction (which also updates the
 * other company of each company pair). A change that would pass the association limits is left
 * out and reported; the others are written together.
 */
export async function changeCompanyPairs(
  actor: Actor,
  companyId: string,
  changes: readonly PairChange[],
  findType: CustomTypeFinder = (typeId) => customTypes.findCustomAssociationType(actor.hubId, typeId),
): Promise<CompanyPairsOutcome> {
  let rejected = new Map<number, ValidationError>();
  const saved = await saveRecordChange(companyObjectType, actor.hubId, companyId, async (record) => {
    const plan = await planCompanyPairs(actor, record, changes, findType);
    rejected = plan.rejected;
    return plan.write;
  });
  return { record: saved ? (saved.write?.record ?? saved.record) : undefined, rejected };
}

/** The write of pair changes to a company as read: undefined when nothing changes; changes (by index) that would pass a limit, left out. */
export interface PairChangesPlan {
  write: RecordWrite | undefined;
  rejected: Map<number, ValidationError>;
}

/** Works out the write of pair changes to one company from the record as read (no database call but custom type lookups). */
export async function planCompanyPairs(
  actor: Actor,
  record: CrmRecord,
  changes: readonly PairChange[],
  findType: CustomTypeFinder,
): Promise<PairChangesPlan> {
  const companyId = record.id;
  const rejected = new Map<number, ValidationError>();
  const associations = { ...record.associations };
  let keyCount = Object.keys(associations).length;
  const linkedCompanies = new Set(
    Object.keys(associations)
      .filter((key) => key.startsWith(`${companyObjectType.id}/`))
      .map((key) => key.split('/')[1]),
  );
  const linked: LinkedCompanyChange[] = [];
  let changed = false;
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
    const isCompanyPair = change.other.id === companyObjectType.id;
    const nextKeyCount = keyCount - removed.length + added.length;
    const linksAfter = linkedCompanies.size + (isCompanyPair && currentKeys.length === 0 && added.length > 0 ? 1 : 0);
    // Only what adds past a limit is refused: a company over one (written before it held on both sides) can still lose associations.
    const passesKeys = nextKeyCount > maxAssociationsPerCompany && nextKeyCount > keyCount;
    const passesLinks = linksAfter > maxCompanyLinksPerCompany && linksAfter > linkedCompanies.size;
    if (added.length > 0 && (passesKeys || passesLinks)) {
      rejected.set(index, associationLimitError(nextKeyCount));
      continue;
    }
    for (const key of removed) delete associations[key];
    for (const type of added) associations[`${prefix}${type.typeId}`] = type.name;
    keyCount = nextKeyCount;
    changed = true;
    if (isCompanyPair) {
      if (currentKeys.length === removed.length && added.length === 0) linkedCompanies.delete(change.otherId);
      else linkedCompanies.add(change.otherId);
      const reverseKey = (typeId: number) => `${companyObjectType.id}/${companyId}/${typeId}`;
      const removedTypes = await Promise.all(
        removed.map(async (key) => {
          const typeId = Number(key.slice(prefix.length));
          return findStandardTypeFrom(companyObjectType.id, typeId) ?? (await findType(typeId));
        }),
      );
      linked.push({
        companyId: change.otherId,
        set: Object.fromEntries(added.map((type) => [reverseKey(type.inverseTypeId), type.inverseName])),
        remove: removedTypes.flatMap((type) => (type ? [reverseKey(type.inverseTypeId)] : [])),
      });
    }
  }
  if (!changed) return { write: undefined, rejected };
  const nextRecord: CrmRecord = {
    ...record,
    associations,
    ...unpinIfGone(actor, record, associations),
    version: record.version + 1,
  };
  checkAssociationLimits(nextRecord, record);
  return {
    write: { record: nextRecord, expectedVersion: record.version, addUnique: [], removeUnique: [], linked },
    rejected,
  };
}

/**
 * Sets the company-side types between a company and one record to what `next` returns for the
 * types it holds now: one read and one transaction. Undefined when the company does not exist.
 */
export async function changePairTypes(
  actor: Actor,
  companyId: string,
  other: ObjectType,
  otherId: string,
  next: (current: readonly number[]) => PairTypes,
): Promise<CrmRecord | undefined> {
  const { record, rejected } = await changeCompanyPairs(actor, companyId, [{ other, otherId, next }]);
  const refused = rejected.get(0);
  if (refused) throw refused;
  return record;
}

/** The company-side type of a type sent for the direction `pair.from -> pair.to`. */
export async function companySideType(hubId: number, pair: Pair, type: AssociationType): Promise<AssociationType> {
  return pair.isForward ? type : inverseTypeOf(hubId, type);
}

/** A primary type also holds its unlabeled type (a Primary association is also an unlabeled one in HubSpot). */
export function withImplied(types: readonly AssociationType[]): AssociationType[] {
  const all = new Map<number, AssociationType>();
  for (const type of types) {
    for (const entry of withImpliedTypes({ type, to: companyObjectType, toObjectId: '' }))
      all.set(entry.type.typeId, entry.type);
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
  const { companyId, other, otherId } = requireIds(pair, fromId, toId);
  const sent = await Promise.all(
    specs.map((spec) =>
      resolveTypeBetween(actor.hubId, pair.from, pair.to, spec.associationTypeId, spec.associationCategory),
    ),
  );
  const companySide = withImplied(await Promise.all(sent.map((type) => companySideType(actor.hubId, pair, type))));
  const record = await changePairTypes(actor, companyId, other, otherId, () => ({ keep: [], add: companySide }));
  if (!record) throw pair.isForward ? recordNotFound(fromId) : invalidAssociationTargets([toId]);
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
  const { companyId, other, otherId } = requireIds(pair, fromId, toId);
  const forward = defaultTypeBetween(pair.from, pair.to);
  const backward = defaultTypeBetween(pair.to, pair.from);
  const companySide = pair.isForward ? forward : backward;
  if (!forward || !backward || !companySide)
    throw new ValidationError(`No default association type between ${pair.from.name} and ${pair.to.name}`, {
      context: { toObjectType: [toToken] },
    });
  const record = await changePairTypes(actor, companyId, other, otherId, (current) => ({
    keep: current,
    add: [companySide],
  }));
  if (!record) throw pair.isForward ? recordNotFound(fromId) : invalidAssociationTargets([toId]);
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
  const { companyId, other, otherId } = requireIds(pair, fromId, toId);
  const record = await changePairTypes(actor, companyId, other, otherId, () => ({ keep: [], add: [] }));
  if (!record) throw pair.isForward ? recordNotFound(fromId) : invalidAssociationTargets([toId]);
}
