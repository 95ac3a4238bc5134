import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { searchProjectionDelete, searchProjectionPut } from './company-search';
import { isConditionalCheckFailed, withoutKeys } from './item';
import { archivedCompanyKey, associationEdgeKey, associationEdgePrefix, companyKey, companyListPrefix, companyUniqueValueKey, type Key } from './keys';

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

export interface CancellationReason {
  Code?: string;
  Item?: Record<string, unknown>;
}

export function reasonsOf(error: unknown): CancellationReason[] | undefined {
  if (typeof error !== 'object' || error === null || (error as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
}

/** The cancellation reason carries the old item in wire format (the document client does not unmarshall errors). */
function companyIdOf(item: Record<string, unknown> | undefined): string | undefined {
  const raw = item?.companyId;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'object' && raw !== null && typeof (raw as { S?: unknown }).S === 'string') return (raw as { S: string }).S;
  return undefined;
}

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

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

/** Writes the company, its unique values and linked companies in one TransactWriteItems. */
export async function saveCompany(hubId: number, write: CompanyWrite): Promise<SaveOutcome> {
  const { record } = write;
  type Role = { kind: 'main' } | { kind: 'unique'; value: UniqueValue } | { kind: 'unique-remove' } | { kind: 'linked'; companyId: string } | { kind: 'search' };
  const roles: Role[] = [];
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [];
  const versionCondition = write.expectedVersion === undefined
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': write.expectedVersion } };
  if (write.archive) {
    items.push({ Delete: { TableName: tableName, Key: companyKey(hubId, record.id), ...versionCondition } });
    roles.push({ kind: 'main' });
    items.push({ Put: { TableName: tableName, Item: { ...archivedCompanyKey(hubId, record.id), ...record } } });
    roles.push({ kind: 'main' });
  } else {
    items.push({ Put: { TableName: tableName, Item: { ...keyOf(hubId, record.id, false), ...record }, ...versionCondition } });
    roles.push({ kind: 'main' });
  }
  // The search projection changes with the record, in the same transaction (read-your-writes for search).
  items.push(write.archive ? searchProjectionDelete(hubId, record.id) : searchProjectionPut(hubId, record));
  roles.push({ kind: 'search' });
  for (const value of write.addUnique) {
    items.push({ Put: {
      TableName: tableName,
      Item: { ...companyUniqueValueKey(hubId, value.propertyName, value.value), companyId: record.id, ...value },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    } });
    roles.push({ kind: 'unique', value });
  }
  for (const value of write.removeUnique) {
    items.push({ Delete: { TableName: tableName, Key: companyUniqueValueKey(hubId, value.propertyName, value.value) } });
    roles.push({ kind: 'unique-remove' });
  }
  for (const change of mergeLinked(write.linked)) {
    items.push(linkedUpdateItem(hubId, change));
    roles.push({ kind: 'linked', companyId: change.companyId });
  }
  const edgeItems = (write.edges ?? []).map((edge) => ({ ...associationEdgeKey(hubId, edge.objectTypeId, edge.objectId, record.id), companyId: record.id }));
  const result = await sendCompanyTransaction(items, edgeItems);
  if (result.outcome !== 'condition-failed') return result.outcome === 'written' ? { outcome: 'saved' } : result;
  const role = roles[result.index];
  if (role?.kind === 'unique') {
    const ownerId = companyIdOf(result.reason.Item) ?? await findUniqueValueOwner(hubId, role.value);
    return { outcome: 'unique-taken', value: role.value, ownerId };
  }
  if (role?.kind === 'linked') return { outcome: 'linked-missing', companyId: role.companyId };
  if (role?.kind === 'main') return { outcome: 'stale' };
  throw new Error(`condition failed on transaction item ${result.index}`);
}

export type TransactionResult =
  | { outcome: 'written' }
  | { outcome: 'condition-failed'; index: number; reason: CancellationReason }
  | { outcome: 'too-large' }
  | { outcome: 'contended' };

/**
 * Sends a company transaction with the reverse-lookup items that fit in it; the others are written
 * just before. They only point readers at a company, whose own item is the truth, so writing them
 * ahead of a transaction that then fails leaves nothing a reader would see.
 */
export async function sendCompanyTransaction(items: TransactItem[], edgeItems: readonly Record<string, unknown>[]): Promise<TransactionResult> {
  if (items.length + edgeItems.length <= maxTransactionItems) {
    for (const Item of edgeItems) items.push({ Put: { TableName: tableName, Item } });
  } else {
    await putItems(edgeItems);
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return { outcome: 'written' };
  } catch (error) {
    const reasons = reasonsOf(error);
    if (!reasons) throw error;
    const index = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    const reason = reasons[index];
    if (reason) return { outcome: 'condition-failed', index, reason };
    // An item would pass 400 KB (say, a company that very many others link to).
    if (reasons.some((entry) => entry.Code === 'ValidationError')) return { outcome: 'too-large' };
    if (reasons.some((entry) => entry.Code === 'TransactionConflict')) return { outcome: 'contended' };
    throw error;
  }
}

export async function findCompany(hubId: number, id: string, isArchived = false): Promise<CompanyRecord | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(hubId, id, isArchived), ConsistentRead: true }));
  return result.Item ? withoutKeys<CompanyRecord>(result.Item) : undefined;
}

export async function batchGet(keys: Key[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = keys.map((key) => ({ ...key }));
  // BatchGetItem may leave keys unprocessed under load; retry them with a short backoff.
  for (let attempt = 0; pending.length > 0 && attempt < 6; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...(result.Responses?.[tableName] ?? []));
    pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  if (pending.length > 0) throw Object.assign(new Error('unprocessed keys after retries'), { name: 'ThrottlingException' });
  return found;
}

/** At most 100 distinct ids: one BatchGetItem plus retries of unprocessed keys. */
export async function findCompanies(hubId: number, ids: readonly string[], isArchived = false): Promise<Map<string, CompanyRecord>> {
  const found = new Map<string, CompanyRecord>();
  if (ids.length === 0) return found;
  for (const item of await batchGet([...new Set(ids)].map((id) => keyOf(hubId, id, isArchived)))) {
    const record = withoutKeys<CompanyRecord>(item);
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
  const prefix = companyListPrefix(isArchived);
  const result = await db.send(new QueryCommand({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': companyKey(hubId, '').pk, ':prefix': prefix },
    ExclusiveStartKey: afterId === undefined ? undefined : keyOf(hubId, afterId, isArchived),
    Limit: limit + 1,
    ConsistentRead: true,
  }));
  const records = (result.Items ?? []).map((item) => withoutKeys<CompanyRecord>(item));
  return { records: records.slice(0, limit), hasMore: records.length > limit };
}

export async function findUniqueValueOwner(hubId: number, value: UniqueValue): Promise<string | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: companyUniqueValueKey(hubId, value.propertyName, value.value), ConsistentRead: true }));
  const owner = result.Item?.companyId;
  return typeof owner === 'string' ? owner : undefined;
}

/** Value -> owning company id, for at most 100 values of one property. */
export async function findUniqueValueOwners(hubId: number, propertyName: string, values: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (values.length === 0) return owners;
  for (const item of await batchGet([...new Set(values)].map((value) => companyUniqueValueKey(hubId, propertyName, value)))) {
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
    if (pending.length > 0) throw Object.assign(new Error('unprocessed items after retries'), { name: 'ThrottlingException' });
  }
}

export interface EdgePage {
  companyIds: string[];
  hasMore: boolean;
}

/** The companies associated with one record of another type: one Query per page, in company id order. */
export async function listAssociationEdges(hubId: number, objectTypeId: string, objectId: string, limit: number, afterCompanyId: string | undefined): Promise<EdgePage> {
  const result = await db.send(new QueryCommand({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': companyKey(hubId, '').pk, ':prefix': associationEdgePrefix(objectTypeId, objectId) },
    ExclusiveStartKey: afterCompanyId === undefined ? undefined : associationEdgeKey(hubId, objectTypeId, objectId, afterCompanyId),
    Limit: limit + 1,
    ConsistentRead: true,
  }));
  const companyIds = (result.Items ?? []).map((item) => item.companyId).filter((id): id is string => typeof id === 'string');
  return { companyIds: companyIds.slice(0, limit), hasMore: companyIds.length > limit };
}
