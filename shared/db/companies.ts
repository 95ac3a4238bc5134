import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { searchProjectionDelete, searchProjectionPut, type SearchForms } from './company-search';
import { batchGetAll, entity, getItem, queryPage, stringAttribute, transact, type RoleWrite, type TransactItem, type TransactOutcome } from './core';
import { DatabaseThrottledError } from './errors';
import { isConditionalCheckFailed, withoutKeys } from './item';
import {
  archivedCompanyKey, associationEdgeKey, associationEdgePrefix, companyKey, companyListPrefix, companyUniqueValueKey, hubPartition, type Key,
} from './keys';

export interface HistoryEntry {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
}

/** A value that at most one active company of the hub may hold (domain, hasUniqueValue properties). */
export interface UniqueValue {
  propertyName: string;
  value: string;
}

/**
 * One company in one item: properties, their history and the associations live together so
 * that a read is one GetItem and a create one TransactWriteItems.
 */
export interface CompanyRecord {
  id: string;
  /** Only set values; computed ones (hs_object_id, createdate, ...) are derived on output. */
  properties: Record<string, string>;
  /** Newest first. */
  history: Record<string, HistoryEntry[]>;
  /** `${toObjectTypeId}/${toObjectId}/${typeId}` -> the v3 type name. */
  associations: Record<string, string>;
  uniqueValues: UniqueValue[];
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
  /** Every write checks and bumps it, so concurrent read-modify-writes cannot lose updates. */
  version: number;
}

/** Association keys to set or remove on another company, in the same transaction. */
export interface LinkedCompanyChange {
  companyId: string;
  set: Record<string, string>;
  remove: string[];
}

export interface CompanyWrite {
  record: CompanyRecord;
  /** Undefined for a new company. */
  expectedVersion?: number;
  addUnique: UniqueValue[];
  removeUnique: UniqueValue[];
  linked: LinkedCompanyChange[];
  /** Moves the record to the recycle bin. */
  archive?: boolean;
  /** Records of other object types this write newly associates; their reverse-lookup items are written with it. */
  edges?: AssociationEdge[];
}

/** One record of a type this service does not store (contact, deal, ...), seen from a company. */
export interface AssociationEdge {
  objectTypeId: string;
  objectId: string;
}

/** DynamoDB's limit on the items of one TransactWriteItems. */
export const maxTransactionItems = 100;

export type SaveOutcome =
  | { outcome: 'saved' }
  | { outcome: 'unique-taken'; value: UniqueValue; ownerId: string | undefined }
  | { outcome: 'stale' }
  | { outcome: 'linked-missing'; companyId: string }
  | { outcome: 'too-large' }
  | { outcome: 'contended' };

const keyOf = (hubId: number, id: string, isArchived: boolean): Key => (isArchived ? archivedCompanyKey(hubId, id) : companyKey(hubId, id));

/** A company item: the record at its active or archived key. */
const companyItem = /* @__PURE__ */ entity<CompanyRecord, { hubId: number; isArchived: boolean }>({
  key: (record, { hubId, isArchived }) => keyOf(hubId, record.id, isArchived),
  // A map attribute an item lacks (an older item, or one written by a tool) reads as empty, never as a crash.
  read: (item) => {
    const record = withoutKeys<CompanyRecord>(item);
    return { ...record, properties: record.properties ?? {}, history: record.history ?? {}, associations: record.associations ?? {}, uniqueValues: record.uniqueValues ?? [] };
  },
});

/** A unique value's item names the company that holds it. */
interface UniqueValueClaim extends UniqueValue {
  companyId: string;
}
const uniqueValueItem = /* @__PURE__ */ entity<UniqueValueClaim, number>({ key: (claim, hubId) => companyUniqueValueKey(hubId, claim.propertyName, claim.value) });

export function mergeLinked(changes: readonly LinkedCompanyChange[]): LinkedCompanyChange[] {
  const merged = new Map<string, LinkedCompanyChange>();
  for (const change of changes) {
    const into = merged.get(change.companyId) ?? { companyId: change.companyId, set: {}, remove: [] };
    Object.assign(into.set, change.set);
    into.remove.push(...change.remove.filter((key) => !(key in into.set)));
    merged.set(change.companyId, into);
  }
  return [...merged.values()];
}

/** Writes the company, its unique values and linked companies in one TransactWriteItems. */
export async function saveCompany(hubId: number, write: CompanyWrite, searchForms: SearchForms): Promise<SaveOutcome> {
  const { record } = write;
  type Role = { kind: 'main' } | { kind: 'unique'; value: UniqueValue } | { kind: 'unique-remove' } | { kind: 'linked'; companyId: string } | { kind: 'search' } | { kind: 'edge' };
  const writes: RoleWrite<Role>[] = [];
  const main: Role = { kind: 'main' };
  const versionCondition = write.expectedVersion === undefined
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': write.expectedVersion } };
  if (write.archive) {
    writes.push({ role: main, write: { Delete: { TableName: tableName, Key: companyKey(hubId, record.id), ...versionCondition } } });
    writes.push({ role: main, write: { Put: { TableName: tableName, Item: companyItem.item(record, { hubId, isArchived: true }) } } });
  } else {
    writes.push({ role: main, write: { Put: { TableName: tableName, Item: companyItem.item(record, { hubId, isArchived: false }), ...versionCondition } } });
  }
  // The search projection changes with the record, in the same transaction (read-your-writes for search).
  writes.push({ role: { kind: 'search' }, write: write.archive ? searchProjectionDelete(hubId, record.id) : searchProjectionPut(hubId, searchForms, record.version) });
  for (const value of write.addUnique) {
    writes.push({ role: { kind: 'unique', value }, write: { Put: {
      TableName: tableName,
      Item: uniqueValueItem.item({ companyId: record.id, ...value }, hubId),
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    } } });
  }
  for (const value of write.removeUnique) {
    writes.push({ role: { kind: 'unique-remove' }, write: { Delete: { TableName: tableName, Key: companyUniqueValueKey(hubId, value.propertyName, value.value) } } });
  }
  for (const change of mergeLinked(write.linked)) writes.push({ role: { kind: 'linked', companyId: change.companyId }, write: linkedUpdateItem(hubId, change) });
  const outcome = await transactWithEdges(writes, edgeItemsOf(hubId, record.id, write.edges ?? []), { kind: 'edge' });
  if (outcome.committed) return { outcome: 'saved' };
  const failed = outcome.reasons.find((reason) => reason.code === 'ConditionalCheckFailed');
  const role = failed?.role;
  if (role?.kind === 'unique') {
    const ownerId = stringAttribute(failed?.item, 'companyId') ?? await findUniqueValueOwner(hubId, role.value);
    return { outcome: 'unique-taken', value: role.value, ownerId };
  }
  if (role?.kind === 'linked') return { outcome: 'linked-missing', companyId: role.companyId };
  if (role?.kind === 'main') return { outcome: 'stale' };
  return outcomeOfCancellation(outcome);
}

/** A cancellation no condition explains: an item over 400 KB (say, a company very many others link to) or a conflict. */
export function outcomeOfCancellation<R>(outcome: Extract<TransactOutcome<R>, { committed: false }>): { outcome: 'too-large' } | { outcome: 'contended' } {
  if (outcome.reasons.some((reason) => reason.code === 'ValidationError')) return { outcome: 'too-large' };
  if (outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return { outcome: 'contended' };
  throw outcome.error;
}

/** Sets and removes association keys on another company (which must exist), bumping its version. */
export function linkedUpdateItem(hubId: number, change: LinkedCompanyChange): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(change.set).forEach(([key, name], index) => {
    names[`#s${index}`] = key;
    values[`:s${index}`] = name;
    sets.push(`associations.#s${index} = :s${index}`);
  });
  change.remove.forEach((key, index) => {
    names[`#r${index}`] = key;
    removes.push(`associations.#r${index}`);
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '', 'ADD version :one'].filter(Boolean).join(' ');
  return { Update: {
    TableName: tableName, Key: companyKey(hubId, change.companyId), UpdateExpression: expression,
    ConditionExpression: 'attribute_exists(pk)',
    // DynamoDB rejects an empty names map.
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  } };
}

/** The reverse-lookup items of a company's newly associated records. */
export function edgeItemsOf(hubId: number, companyId: string, edges: readonly AssociationEdge[]): Record<string, unknown>[] {
  return edges.map((edge) => ({ ...associationEdgeKey(hubId, edge.objectTypeId, edge.objectId, companyId), companyId }));
}

/**
 * A company transaction with the reverse-lookup items that fit in it; the others are written just
 * before. They only point readers at a company, whose own item is the truth, so writing them ahead
 * of a transaction that then fails leaves nothing a reader would see.
 */
export async function transactWithEdges<R>(writes: RoleWrite<R>[], edgeItems: readonly Record<string, unknown>[], edgeRole: R): Promise<TransactOutcome<R>> {
  if (writes.length + edgeItems.length <= maxTransactionItems) {
    for (const Item of edgeItems) writes.push({ role: edgeRole, write: { Put: { TableName: tableName, Item } } });
  } else {
    await putItems(edgeItems);
  }
  return transact(writes);
}

export async function findCompany(hubId: number, id: string, isArchived = false): Promise<CompanyRecord | undefined> {
  const item = await getItem(keyOf(hubId, id, isArchived));
  return item ? companyItem.read(item) : undefined;
}

/** The records of these ids (duplicates read once); missing ones are absent from the map. */
export async function findCompanies(hubId: number, ids: readonly string[], isArchived = false): Promise<Map<string, CompanyRecord>> {
  const found = new Map<string, CompanyRecord>();
  if (ids.length === 0) return found;
  for (const item of await batchGetAll(ids.map((id) => keyOf(hubId, id, isArchived)))) {
    const record = companyItem.read(item);
    found.set(record.id, record);
  }
  return found;
}

export interface CompanyPage {
  records: CompanyRecord[];
  hasMore: boolean;
}

/** One Query per page: one record more than asked tells whether another page exists. */
export async function listCompanies(hubId: number, isArchived: boolean, limit: number, afterId: string | undefined): Promise<CompanyPage> {
  const page = await queryPage(
    { pk: hubPartition(hubId), skPrefix: companyListPrefix(isArchived), pageSize: limit + 1 },
    afterId === undefined ? undefined : keyOf(hubId, afterId, isArchived),
  );
  const records = page.items.map(companyItem.read);
  return { records: records.slice(0, limit), hasMore: records.length > limit };
}

export async function findUniqueValueOwner(hubId: number, value: UniqueValue): Promise<string | undefined> {
  const owner = (await getItem(companyUniqueValueKey(hubId, value.propertyName, value.value)))?.companyId;
  return typeof owner === 'string' ? owner : undefined;
}

/** Value -> owning company id, for at most 100 values of one property. */
export async function findUniqueValueOwners(hubId: number, propertyName: string, values: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (values.length === 0) return owners;
  for (const item of await batchGetAll(values.map((value) => companyUniqueValueKey(hubId, propertyName, value)))) {
    if (typeof item.value === 'string' && typeof item.companyId === 'string') owners.set(item.value, item.companyId);
  }
  return owners;
}

/** Drops association keys from a company outside a transaction; a company that is gone needs nothing. */
export async function removeAssociationKeys(hubId: number, companyId: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const names = Object.fromEntries(keys.map((key, index) => [`#r${index}`, key]));
  try {
    await db.send(new UpdateCommand({
      TableName: tableName, Key: companyKey(hubId, companyId),
      UpdateExpression: `REMOVE ${keys.map((_, index) => `associations.#r${index}`).join(', ')} ADD version :one`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names, ExpressionAttributeValues: { ':one': 1 },
    }));
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Unconditional puts, 25 per BatchWriteItem, unprocessed ones retried with a short backoff. */
export async function putItems(items: readonly Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0 && attempt < 6; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
    if (pending.length > 0) throw new DatabaseThrottledError('BatchWriteItem', pending.length, 6);
  }
}

export interface EdgePage {
  companyIds: string[];
  hasMore: boolean;
}

/** The companies associated with one record of another type: one Query per page, in company id order. */
export async function listAssociationEdges(hubId: number, objectTypeId: string, objectId: string, limit: number, afterCompanyId: string | undefined): Promise<EdgePage> {
  const page = await queryPage(
    { pk: hubPartition(hubId), skPrefix: associationEdgePrefix(objectTypeId, objectId), pageSize: limit + 1 },
    afterCompanyId === undefined ? undefined : associationEdgeKey(hubId, objectTypeId, objectId, afterCompanyId),
  );
  const companyIds = page.items.map((item) => item.companyId).filter((id): id is string => typeof id === 'string');
  return { companyIds: companyIds.slice(0, limit), hasMore: companyIds.length > limit };
}
