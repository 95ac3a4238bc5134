import { singularWords, storedTypeById, unknownObjectType, type ObjectType } from '../objects/object-types';
import type { KeyedType } from '../db/keys';
import {
  findRecord,
  maxTransactionItems,
  saveRecord,
  type AssociationEdge,
  type CrmRecord,
  type RecordWrite,
} from '../db/records';
import { ConflictError, ServiceUnavailableError, ValidationError } from '../base/errors';
import { conflicted, retryOnConflict } from '../base/retry';
import { invalidAssociationTargets, linkedRecordFull } from './association-entries';
import { orderFormsOfRecord, searchFormsOf } from './search-forms';
import { rulesOf } from './type-rules-lookup';
import { forgetDynamicLists, planListWrites, type ListedWrite } from '../lists/dynamic-lists';
import { leaveAllLists } from '../lists/record-lists';
import { propertyValuesError, quoteValue } from '../properties/validate-property-values';

/**
 * Runs build-and-save until it sticks: a stale version or a transaction conflict re-reads and
 * tries again (retryOnConflict), a taken unique value is a 409 naming the record that holds it.
 * The write keeps the type's link counts (TypeRules.linksToSelf).
 */
export async function saveWithRetries(
  type: ObjectType,
  hubId: number,
  build: (attempt: number) => Promise<RecordWrite | undefined>,
): Promise<RecordWrite | undefined> {
  // Records gone whose side of an association this write only removes (an association kept from
  // before its other record was stored, or written by an older version): nothing to remove there.
  const gone = new Set<string>();
  const linkedKey = (change: { type: KeyedType; id: string }): string => `${change.type.id}/${change.id}`;
  return retryOnConflict(
    async (attempt) => {
      const built = await build(attempt);
      if (!built) return undefined;
      const kept =
        gone.size === 0 ? built : { ...built, linked: built.linked.filter((change) => !gone.has(linkedKey(change))) };
      // A new record: every association it holds is new.
      const write = {
        ...(kept.edges === undefined && kept.expectedVersion === undefined
          ? { ...kept, edges: addedEdges({}, kept.record.associations) }
          : kept),
        linksToSelf: rulesOf(type).linksToSelf,
      };
      const forms = searchFormsOf(type, write.record);
      // DYNAMIC lists: an archive leaves every list once it is written (leaveAllLists), anything else joins and leaves here.
      const listed: ListedWrite = {
        recordId: write.record.id,
        forms,
        previousForms: write.expectedVersion === undefined ? undefined : write.previousForms,
        isNew: write.expectedVersion === undefined,
        readActual: attempt > 0,
        associations: write.record.associations,
      };
      const lists = write.archive ? undefined : await planListWrites(type, hubId, listed);
      const result = await saveRecord(type, hubId, lists ? { ...write, lists } : write, forms);
      if (result.outcome === 'saved') {
        if (write.archive) await leaveAllLists(type, hubId, write.record.id);
        return write;
      }
      if (result.outcome === 'lists-changed') {
        forgetDynamicLists(hubId, type.id);
        return conflicted;
      }
      if (result.outcome === 'unique-taken') {
        // The holder vanished between the failed write and the lookup: the value may be free now.
        if (result.ownerId === undefined || result.ownerId === write.record.id) return conflicted;
        const conflict = rulesOf(type).conflict;
        if (conflict) throw conflict(result.value, result.ownerId);
        const { propertyName, value } = result.value;
        throw new ConflictError(
          `A ${singularWords(type)} with ${propertyName} ${value} already exists. Existing ID: ${result.ownerId}`,
          {
            context: { [propertyName]: [value], id: [result.ownerId] },
          },
        );
      }
      if (result.outcome === 'unique-blocked') {
        const { propertyName, value } = result.value;
        throw propertyValuesError([
          {
            name: propertyName,
            error: 'BLOCKED_VALUE',
            message: `${quoteValue(value)} was removed by a GDPR delete and cannot be used again`,
          },
        ]);
      }
      if (result.outcome === 'linked-missing') {
        const missing = result.missing ?? [result];
        const removals = missing.filter((entry) =>
          write.linked.some(
            (change) => linkedKey(change) === linkedKey(entry) && Object.keys(change.set).length === 0 && !change.unpin,
          ),
        );
        if (removals.length === missing.length && removals.some((entry) => !gone.has(linkedKey(entry)))) {
          for (const entry of removals) gone.add(linkedKey(entry));
          return conflicted;
        }
        const added = missing.find((entry) => !removals.includes(entry)) ?? result;
        throw invalidAssociationTargets([{ type: storedTypeOf(added.type), id: added.id }]);
      }
      if (result.outcome === 'linked-full') throw linkedRecordFull(storedTypeOf(result.type), result.id);
      if (result.outcome === 'too-many-items') throw tooManyWrites(result.uniqueValues, result.linkedRecords);
      // Its schema archived meanwhile: the type is gone, as if the request had named it after; being archived: wait for the outcome.
      if (result.outcome === 'type-closed') {
        if (result.isForGood) throw unknownObjectType(type.id);
        return conflicted;
      }
      if (result.outcome === 'too-large') {
        throw new ValidationError('The change would make a record exceed the maximum record size', {
          context: { id: [write.record.id] },
        });
      }
      return conflicted;
    },
    () => {
      throw new ServiceUnavailableError(`The ${type.singular} is being changed by other requests; retry the request.`);
    },
  );
}

/** The registry entry of a stored type the db layer names by its keys. */
function storedTypeOf(type: KeyedType): ObjectType {
  const stored = storedTypeById(type.id);
  if (!stored) throw new Error(`${type.id} is not a stored type`);
  return stored;
}

/**
 * A write DynamoDB would refuse as a whole (more than 100 items in one transaction): only possible
 * for data written before the caps held (say, 35 unique-value properties), and refused naming what
 * to reduce.
 */
function tooManyWrites(uniqueValues: number, linkedRecords: number): ValidationError {
  const context: Record<string, string[]> = {};
  if (uniqueValues > 0) context.properties = [`${uniqueValues} unique values`];
  if (linkedRecords > 0) context.associations = [`${linkedRecords} associated records`];
  return new ValidationError(
    `The change needs ${uniqueValues} unique-value and ${linkedRecords} associated-record writes, more than one ${maxTransactionItems}-item transaction holds: ` +
      'change fewer unique values (domains, hasUniqueValue properties) or associations at once',
    { context },
  );
}

/**
 * Changes an existing record: every attempt re-reads it and `build` derives the write from what
 * it read (undefined: nothing to change). Undefined when the record does not exist; otherwise the
 * last record read and the write that was saved, if any.
 */
export async function saveRecordChange(
  type: ObjectType,
  hubId: number,
  id: string,
  build: (record: CrmRecord) => Promise<RecordWrite | undefined> | RecordWrite | undefined,
): Promise<{ record: CrmRecord; write?: RecordWrite } | undefined> {
  let current: CrmRecord | undefined;
  const write = await saveWithRetries(type, hubId, async () => {
    current = await findRecord(type, hubId, id);
    if (!current) return undefined;
    const before = current.associations;
    const write = await build(current);
    if (!write) return undefined;
    return {
      ...write,
      previousAssociations: before,
      previousForms: searchFormsOf(type, current),
      previousOrder: orderFormsOfRecord(type, current),
      edges: write.edges ?? addedEdges(before, write.record.associations),
    };
  });
  return current ? { record: current, write } : undefined;
}

/**
 * Records of types this service does not store that `after` associates and `before` did not: each
 * needs its reverse-lookup item. Stored targets need none (both records hold the association).
 */
export function addedEdges(before: Record<string, string>, after: Record<string, string>): AssociationEdge[] {
  const had = new Set(Object.keys(before).map((key) => key.split('/').slice(0, 2).join('/')));
  const added = new Map<string, AssociationEdge>();
  for (const key of Object.keys(after)) {
    const [objectTypeId, objectId] = key.split('/');
    if (objectTypeId === undefined || objectId === undefined || storedTypeById(objectTypeId)) continue;
    const pair = `${objectTypeId}/${objectId}`;
    if (!had.has(pair)) added.set(pair, { objectTypeId, objectId });
  }
  return [...added.values()];
}
