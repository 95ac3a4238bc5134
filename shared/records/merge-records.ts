import type { ObjectType } from '../objects/object-types';
import { checkAssociationLimits, customTypeFinder, type CustomTypeFinder } from './association-entries';
import { findStandardTypeFrom } from '../association-types/association-types';
import { singularTitle, storedTypeById } from '../objects/object-types';
import { clientKeyedRecordOf, ownValue } from '../base/client-keys';
import { nowMs } from '../base/clock';
import * as recordsDb from '../db/records';
import type { CrmRecord, HistoryEntry, LinkedChange, UniqueValue } from '../db/records';
import { mergeRecords as writeMerge, type RecordMergeWrite } from '../db/record-merge';
import { carryListsOnMerge } from '../lists/record-lists';
import { NotFoundError, ServiceUnavailableError, TooManyIdentitiesError, ValidationError } from '../base/errors';
import { conflicted, retryOnConflict } from '../base/retry';
import { newRecordId, isNumericId } from './record-id';
import { appendHistory, fitItemSize, historyEntry, uniquePropertyOf, type Actor } from './record-values';
import { toRecordView, type RecordView } from './record-view';
import { findMergedRecords, maxRecordIdentities } from './merged-ids';
import { lookupFor } from './read-records';
import { orderFormsOfRecord, searchFormsOf } from './search-forms';
import { addedEdges } from './save-record';
import { rulesOf } from './type-rules-lookup';
import { associationLimitsReader } from '../association-limits/association-limit-set';
import { checkConfiguredLimits } from '../association-limits/enforce-association-limits';

export interface MergeInput {
  primaryObjectId: string;
  objectIdToMerge: string;
}

/** The additional list (hs_additional_domains, hs_additional_emails) holds at most this many (record-values.ts); extra values of a merge are released. */
const maxAdditionalValues = 20;
const mergedIdsProperty = 'hs_merged_object_ids';

const uniqueKey = (value: UniqueValue) => `${value.propertyName}#${value.value}`;
const splitList = (value: string | undefined) => (value ?? '').split(';').filter((part) => part !== '');

/** An id of a record that is active, merged away (followed to its result), archived, or unknown here. */
async function requireMergeable(
  type: ObjectType,
  hubId: number,
  id: string,
  field: keyof MergeInput,
): Promise<CrmRecord> {
  if (!isNumericId(id))
    throw new NotFoundError(`${singularTitle(type)} ${id} not found`, { context: { [field]: [id] } });
  const record = (await recordsDb.findRecord(type, hubId, id)) ?? (await findMergedRecords(type, hubId, [id])).get(id);
  if (record) return record;
  if (await recordsDb.findRecord(type, hubId, id, true)) {
    throw new ValidationError(`${singularTitle(type)} ${id} is archived: restore it before merging`, {
      context: { [field]: [id] },
    });
  }
  // Another account's record answers like a missing one.
  throw new NotFoundError(`${singularTitle(type)} ${id} not found`, { context: { [field]: [id] } });
}

/** Every id the merged record holds besides its own: both records' and those merged into either before. */
function mergedIdsOf(primary: CrmRecord, secondary: CrmRecord): string[] {
  return [
    ...new Set([
      ...splitList(ownValue(primary.properties, mergedIdsProperty)),
      primary.id,
      ...splitList(ownValue(secondary.properties, mergedIdsProperty)),
      secondary.id,
    ]),
  ];
}

/**
 * The type's unique values (companies' domains, contacts' emails): the primary's (else the
 * secondary's); every other one of both as additional ones, where the type keeps a list of them.
 */
function mergedUniqueValues(
  unique: string,
  additionalProperty: string | undefined,
  primary: CrmRecord,
  secondary: CrmRecord,
): { value?: string; additional: string[] } {
  const value = ownValue(primary.properties, unique) ?? ownValue(secondary.properties, unique);
  if (additionalProperty === undefined) return { value, additional: [] };
  const all = [
    ownValue(primary.properties, unique),
    ...splitList(ownValue(primary.properties, additionalProperty)),
    ownValue(secondary.properties, unique),
    ...splitList(ownValue(secondary.properties, additionalProperty)),
  ].filter((entry): entry is string => entry !== undefined && entry !== '' && entry !== value);
  return { value, additional: [...new Set(all)].slice(0, maxAdditionalValues) };
}

/**
 * The merge as one write. Values of the primary win and the secondary fills what the primary
 * lacks (each value keeps the history of the record it came from); both domains stay, one as
 * `domain`; associations of both move to the new record, except the one between the two; other
 * companies linked to either get their keys moved to the new id.
 */
async function planMerge(
  actor: Actor,
  type: ObjectType,
  primary: CrmRecord,
  secondary: CrmRecord,
  findType: CustomTypeFinder,
): Promise<RecordMergeWrite> {
  const now = new Date(nowMs()).toISOString();
  const id = newRecordId();
  const properties = clientKeyedRecordOf([
    ...Object.entries(secondary.properties),
    ...Object.entries(primary.properties),
  ]);
  const history = clientKeyedRecordOf<HistoryEntry[]>([
    ...Object.entries(secondary.history),
    ...Object.entries(primary.history),
  ]);
  for (const name of Object.keys(secondary.properties)) {
    const entries = ownValue(secondary.history, name);
    if (ownValue(primary.properties, name) === undefined && entries) history[name] = entries;
  }
  const setComputed = (name: string, value: string | undefined) => {
    if ((ownValue(properties, name) ?? '') === (value ?? '')) return;
    if (value === undefined || value === '') delete properties[name];
    else properties[name] = value;
    history[name] = appendHistory(ownValue(history, name), historyEntry(value ?? '', now, actor));
  };
  const unique = uniquePropertyOf(type);
  const standard =
    unique === undefined ? undefined : mergedUniqueValues(unique, type.additionalUniqueProperty, primary, secondary);
  if (unique !== undefined && standard) {
    setComputed(unique, standard.value);
    if (type.additionalUniqueProperty) setComputed(type.additionalUniqueProperty, standard.additional.join(';'));
  }
  const mergedIds = mergedIdsOf(primary, secondary);
  setComputed(mergedIdsProperty, mergedIds.join(';'));

  const standardValues = [standard?.value, ...(standard?.additional ?? [])]
    .filter((value): value is string => value !== undefined)
    .map((value): UniqueValue => ({ propertyName: unique ?? '', value }));
  const customValues = [
    ...primary.uniqueValues.filter((value) => value.propertyName !== unique),
    ...secondary.uniqueValues.filter(
      (value) => value.propertyName !== unique && ownValue(primary.properties, value.propertyName) === undefined,
    ),
  ];
  const uniqueValues = [
    ...new Map([...standardValues, ...customValues].map((value) => [uniqueKey(value), value])).values(),
  ];
  const kept = new Set(uniqueValues.map(uniqueKey));
  const releasedUniqueValues = [
    ...new Map(
      [...primary.uniqueValues, ...secondary.uniqueValues]
        .filter((value) => !kept.has(uniqueKey(value)))
        .map((value) => [uniqueKey(value), value]),
    ).values(),
  ];

  const oldIds = new Set([primary.id, secondary.id]);
  const isBetweenOld = (key: string) => key.startsWith(`${type.id}/`) && oldIds.has(key.split('/')[1] ?? '');
  const associations = clientKeyedRecordOf(
    [...Object.entries(secondary.associations), ...Object.entries(primary.associations)].filter(
      ([key]) => !isBetweenOld(key),
    ),
  );
  // Every stored record associated with either old record: its keys move from the old id to the new one.
  const linked: LinkedChange[] = [];
  for (const source of [primary, secondary]) {
    for (const key of Object.keys(source.associations)) {
      const [objectTypeId, otherId, typeIdText] = key.split('/');
      const other = objectTypeId === undefined ? undefined : storedTypeById(objectTypeId);
      if (!other || otherId === undefined || isBetweenOld(key)) continue;
      const typeId = Number(typeIdText);
      const associationType = findStandardTypeFrom(type.id, typeId) ?? (await findType(typeId));
      if (!associationType) continue;
      linked.push({
        type: other,
        id: otherId,
        set: { [`${type.id}/${id}/${associationType.inverseTypeId}`]: associationType.inverseName },
        remove: [`${type.id}/${source.id}/${associationType.inverseTypeId}`],
      });
    }
  }
  // A type that bounds its links with itself: each linked record of the type ends up associated with
  // the new record once, whether it was with one old record or both.
  const linksToSelf = rulesOf(type).linksToSelf;
  if (linksToSelf) {
    const [primaryLinks, secondaryLinks] = [
      recordsDb.associatedIdsOf(primary.associations, type.id),
      recordsDb.associatedIdsOf(secondary.associations, type.id),
    ];
    const counted = new Set<string>();
    for (const change of linked) {
      if (change.type.id !== type.id || counted.has(change.id)) continue;
      counted.add(change.id);
      change.linkDelta = 1 - (primaryLinks.has(change.id) ? 1 : 0) - (secondaryLinks.has(change.id) ? 1 : 0);
    }
  }
  const merged = fitItemSize({
    id,
    properties,
    history,
    associations,
    uniqueValues,
    createdAt: primary.createdAt,
    updatedAt: now,
    archived: false,
    version: 0,
  });
  // A record already over a limit (written before it held on both sides) can still be merged: only growth past both is refused.
  checkAssociationLimits(type, merged, [primary, secondary]);
  return {
    merged,
    removed: [primary, secondary],
    uniqueValues,
    releasedUniqueValues,
    linked,
    edges: addedEdges({}, merged.associations),
    // Ids merged into either record before point at that record; they move to the new one, so reads follow one pointer.
    repointedIds: mergedIds.filter((mergedId) => !oldIds.has(mergedId)),
    removedOrder: [primary, secondary].map((record) => orderFormsOfRecord(type, record)),
    linksToSelf,
  };
}

/**
 * POST /crm/v3/objects/companies/merge. As HubSpot does since its merge change: a new record with
 * a new id holds the result, and either old id reads it. One TransactWriteItems writes all of it
 * (shared/db/record-merge.ts); a concurrent change to either record makes it start over.
 */
export async function mergeRecords(actor: Actor, type: ObjectType, input: MergeInput): Promise<RecordView> {
  const { primaryObjectId, objectIdToMerge } = input;
  if (primaryObjectId === objectIdToMerge) {
    throw new ValidationError(`A ${type.singular} cannot be merged with itself`, {
      context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] },
    });
  }
  const findType = customTypeFinder(actor.hubId);
  const limits = associationLimitsReader(actor.hubId);
  return retryOnConflict(
    async () => {
      // Both read at once; when both fail, the primary's error is the answer, whichever failed first.
      const [primaryRead, secondaryRead] = await Promise.allSettled([
        requireMergeable(type, actor.hubId, primaryObjectId, 'primaryObjectId'),
        requireMergeable(type, actor.hubId, objectIdToMerge, 'objectIdToMerge'),
      ]);
      if (primaryRead.status === 'rejected') throw primaryRead.reason;
      if (secondaryRead.status === 'rejected') throw secondaryRead.reason;
      const primary = primaryRead.value;
      const secondary = secondaryRead.value;
      // Both ids already lead to one record: the merge happened (say, a retry whose answer was lost).
      if (primary.id === secondary.id) return mergedView(type, actor.hubId, primary);
      // Checked before anything is written. It also bounds the pointers a merge moves and a read follows (merged-ids.ts).
      if (mergedIdsOf(primary, secondary).length + 1 > maxRecordIdentities) {
        throw new TooManyIdentitiesError(`Cannot have more than ${maxRecordIdentities} identities on a profile`, {
          context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] },
        });
      }
      const write = await planMerge(actor, type, primary, secondary, findType);
      // The account's association limits hold for the merged record as for any write: it may keep what either held, not more.
      // Its linked records only trade an old id for the new one, so no limit of theirs can grow.
      if (Object.keys(write.merged.associations).length > 0)
        checkConfiguredLimits(await limits(), type, write.merged, [primary, secondary]);
      const result = await writeMerge(type, actor.hubId, write, searchFormsOf(type, write.merged));
      if (result.outcome === 'merged') {
        await carryListsOnMerge(
          type,
          actor.hubId,
          primary.id,
          write.removed.map((record) => record.id),
          write.merged,
          searchFormsOf(type, write.merged),
        );
        return mergedView(type, actor.hubId, write.merged);
      }
      if (result.outcome === 'too-many-items' || result.outcome === 'too-large') {
        throw new ValidationError(
          `These ${type.name} hold too many unique values and associations to merge in one step; remove some first`,
          { context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] } },
        );
      }
      // stale, contended, a linked company or unique value changed meanwhile: read again.
      return conflicted;
    },
    () => {
      throw new ServiceUnavailableError(`The ${type.name} are being changed by other requests; retry the merge.`);
    },
  );
}

async function mergedView(type: ObjectType, hubId: number, record: CrmRecord): Promise<RecordView> {
  const options = {
    properties: [...new Set([...type.defaultProperties, mergedIdsProperty, ...Object.keys(record.properties)])],
  };
  return toRecordView(type, record, options, await lookupFor(type, hubId, options), true);
}
