import type { CrmRecord, LinkedChange } from '../db/records';
import { mapConcurrently } from '../base/map-concurrently';
import { LinkedRecordFullError } from '../records/association-entries';
import { parseAssociationKey } from '../records/record-view';
import { objectTypeById, singularTitle, singularWords, storedTypeById, type ObjectType } from '../objects/object-types';
import type { AssociationLimitSet } from './association-limit-set';

/** How many records of `toObjectTypeId` a record's association keys (`<typeId>/<id>/<associationTypeId>`) hold through `typeId`. */
export function heldCount(associations: Record<string, string>, toObjectTypeId: string, typeId: number): number {
  const prefix = `${toObjectTypeId}/`;
  const suffix = `/${typeId}`;
  let count = 0;
  for (const key of Object.keys(associations)) if (key.startsWith(prefix) && key.endsWith(suffix)) count += 1;
  return count;
}

const pluralWords = (type: Pick<ObjectType, 'name'> | undefined, id: string): string =>
  type ? type.name.replaceAll('_', ' ') : `records of type ${id}`;

/**
 * A write that would give a record more associations of one type than the account's limit allows
 * (400, in the style of the other association bounds: TOO_MANY_ASSOCIATIONS naming the record). A
 * LinkedRecordFullError, so a batch drops the inputs naming that record and writes the others.
 */
export class AssociationLimitExceededError extends LinkedRecordFullError {}

export function associationLimitExceeded(
  type: ObjectType,
  id: string,
  toObjectTypeId: string,
  typeId: number,
  max: number,
): AssociationLimitExceededError {
  const other = pluralWords(objectTypeById(toObjectTypeId), toObjectTypeId);
  return new AssociationLimitExceededError(type, id, {
    message: `${singularTitle(type)} ${id} may be associated with at most ${max} ${other} through association type ${typeId} (an association limit of this account)`,
    detail: `${singularWords(type)} ${id} has reached the association limit of ${max} ${other} for association type ${typeId}`,
  });
}

/**
 * The account's limits on a record a write gives associations (a new record, a merge's, a v3
 * associate): each limited type it holds more of than allowed, and more of than any record it
 * replaces held (`before`), refuses the write. Not retroactive: a record over a limit configured
 * later keeps what it has and may lose associations.
 */
export function checkConfiguredLimits(
  limits: AssociationLimitSet,
  type: ObjectType,
  after: CrmRecord,
  before: readonly CrmRecord[] = [],
): void {
  if (limits.isEmpty) return;
  const counts = new Map<string, { toObjectTypeId: string; typeId: number; count: number }>();
  for (const key of Object.keys(after.associations)) {
    const parsed = parseAssociationKey(key);
    if (!parsed || limits.maxOf(type.id, parsed.toObjectTypeId, parsed.typeId) === undefined) continue;
    const bucket = `${parsed.toObjectTypeId}/${parsed.typeId}`;
    const entry = counts.get(bucket) ?? { toObjectTypeId: parsed.toObjectTypeId, typeId: parsed.typeId, count: 0 };
    entry.count += 1;
    counts.set(bucket, entry);
  }
  for (const { toObjectTypeId, typeId, count } of counts.values()) {
    const max = limits.maxOf(type.id, toObjectTypeId, typeId) ?? Number.POSITIVE_INFINITY;
    const held = Math.max(0, ...before.map((record) => heldCount(record.associations, toObjectTypeId, typeId)));
    if (count > max && count > held) throw associationLimitExceeded(type, after.id, toObjectTypeId, typeId, max);
  }
}

/** The other records a write's limit checks read, 8 at a time. */
const linkedReadConcurrency = 8;

/**
 * The other side of a write under the account's limits: each linked record that gains an
 * association of a limited type (its type -> the holder's type) is read, refused (400 naming it)
 * when it would pass the limit, and otherwise written on the version read, so concurrent writers
 * adding to one record cannot pass the limit together (the one that loses re-reads and counts
 * again). A linked record that is gone is left to the write's own condition.
 */
export async function limitLinkedChanges(
  limits: AssociationLimitSet,
  holder: ObjectType,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  if (limits.isEmpty) return [...linked];
  const limitedKeys = (change: LinkedChange) =>
    Object.keys(change.set).flatMap((key) => {
      const parsed = parseAssociationKey(key);
      const max = parsed ? limits.maxOf(change.type.id, parsed.toObjectTypeId, parsed.typeId) : undefined;
      return parsed && max !== undefined ? [{ key, typeId: parsed.typeId, max }] : [];
    });
  const bounded = linked.flatMap((change, index) => {
    const type = storedTypeById(change.type.id);
    const keys = limitedKeys(change);
    return type && keys.length > 0 ? [{ index, type, change, keys }] : [];
  });
  if (bounded.length === 0) return [...linked];
  const records = await mapConcurrently(bounded, linkedReadConcurrency, ({ type, change }) => read(type, change.id));
  const next = [...linked];
  bounded.forEach(({ index, type, change, keys }, position) => {
    const record = records[position];
    if (!record) return;
    const after = { ...record.associations };
    for (const key of change.remove) delete after[key];
    Object.assign(after, change.set);
    for (const { typeId, max } of keys) {
      const count = heldCount(after, holder.id, typeId);
      if (count > max && count > heldCount(record.associations, holder.id, typeId))
        throw associationLimitExceeded(type, change.id, holder.id, typeId, max);
    }
    // The lower of two versions read: the write then holds only if neither read is stale.
    const expectedVersion = Math.min(change.expectedVersion ?? record.version, record.version);
    next[index] = { ...change, expectedVersion };
  });
  return next;
}
