import { isNumericId } from './record-id';
import { associationKey, parseAssociationKey } from './record-view';
import {
  associatedIdsOf,
  findExistingRecords,
  maxAssociationsPerRecord,
  mergeLinked,
  pinRemovalOf,
  type CrmRecord,
  type LinkedChange,
} from '../db/records';
import * as customTypes from '../db/association-labels';
import { ValidationError } from '../base/errors';
import { mapConcurrently } from '../base/map-concurrently';
import { nowMs } from '../base/clock';
import { rulesOf } from './type-rules-lookup';
import { resolveAssociationTypeById } from '../association-types/association-labels';
import {
  findStandardTypeFrom,
  standardAssociationTypes,
  type AssociationType,
} from '../association-types/association-types';
import {
  objectTypeById,
  objectTypes,
  singularTitle,
  singularWords,
  storedTypeById,
  type ObjectType,
} from '../objects/object-types';

/** The create body's form (SimplePublicObjectInputForCreate.associations). */
export interface AssociationInput {
  to: { id: string };
  types: readonly { associationCategory?: string; associationTypeId: number }[];
}

export interface AssociationEntry {
  type: AssociationType;
  to: ObjectType;
  toObjectId: string;
}

export { maxAssociationsPerRecord };

/** A custom type by id. */
export type CustomTypeFinder = (typeId: number) => Promise<AssociationType | undefined>;

/** The account's custom types by id, each read once however many keys or inputs name it: make one per request. */
export function customTypeFinder(hubId: number): CustomTypeFinder {
  const cache = new Map<number, Promise<AssociationType | undefined>>();
  return (typeId) => {
    let found = cache.get(typeId);
    if (!found) {
      found = customTypes.findCustomAssociationType(hubId, typeId);
      cache.set(typeId, found);
    }
    return found;
  };
}

/** A record an association names: its type and id. */
export interface AssociationTarget {
  type: Pick<ObjectType, 'singular'>;
  id: string;
}

/**
 * HubSpot's answer to an association whose record is missing, archived or of another account:
 * 400 "One or more associations are invalid", each refused record in
 * `context.INVALID_OBJECT_IDS` as `CONTACT=123 is not valid`
 * (https://github.com/HubSpot/hubspot-api-nodejs/issues/646).
 */
export class InvalidAssociationTargetsError extends ValidationError {
  readonly ids: string[];

  constructor(targets: readonly AssociationTarget[]) {
    super('One or more associations are invalid', {
      context: {
        INVALID_OBJECT_IDS: targets.map((target) => `${target.type.singular.toUpperCase()}=${target.id} is not valid`),
      },
      errors: targets.map((target) => ({
        message: `No ${target.type.singular} with id ${target.id} can be associated`,
        code: 'INVALID_OBJECT_IDS',
        context: { id: [target.id] },
      })),
    });
    this.ids = targets.map((target) => target.id);
  }
}

export const invalidAssociationTargets = (targets: readonly AssociationTarget[]): InvalidAssociationTargetsError =>
  new InvalidAssociationTargetsError(targets);

/**
 * A primary type also records its unlabeled type, as HubSpot's Primary association types do:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-schema-v4/guide
 */
export function withImpliedTypes(entry: AssociationEntry): AssociationEntry[] {
  const implied = impliedTypeOf(entry.type);
  return implied ? [entry, { ...entry, type: implied }] : [entry];
}

/** The unlabeled type a primary type implies, if it is one. */
export const impliedTypeOf = (type: AssociationType): AssociationType | undefined =>
  type.impliesTypeId === undefined ? undefined : findStandardTypeFrom(type.fromObjectTypeId, type.impliesTypeId);

/**
 * The associations a create body names, from a record of `type`: each type id must fit `type` (its
 * target type follows from it). Targets of stored types are checked to exist where they are
 * written (the record's transaction updates their side, on condition that they exist).
 */
export async function resolveAssociationInputs(
  type: ObjectType,
  hubId: number,
  inputs: readonly AssociationInput[],
): Promise<AssociationEntry[]> {
  const entries = new Map<string, AssociationEntry>();
  for (const input of inputs) {
    for (const typeInput of input.types) {
      const { type: associationType, to } = await resolveAssociationTypeById(
        hubId,
        type,
        typeInput.associationTypeId,
        typeInput.associationCategory,
      );
      if (!isNumericId(input.to.id)) throw invalidAssociationTargets([{ type: to, id: input.to.id }]);
      for (const entry of withImpliedTypes({ type: associationType, to, toObjectId: input.to.id })) {
        entries.set(associationKey(entry.to.id, entry.toObjectId, entry.type.typeId), entry);
      }
    }
  }
  return [...entries.values()];
}

/** The Primary type from `typeId` to a type `isTo` accepts (a contact's primary company: type 1), if there is one. */
const primaryTypeFrom = (typeId: string, isTo: (toTypeId: string) => boolean): AssociationType | undefined =>
  standardAssociationTypes.find(
    (type) => type.fromObjectTypeId === typeId && type.impliesTypeId !== undefined && isTo(type.toObjectTypeId),
  );

/** Whether a record has at most one primary record of this type (TypeRules.isOnePrimary: companies). */
function isOnePrimary(typeId: string): boolean {
  const type = objectTypeById(typeId);
  return type !== undefined && rulesOf(type).isOnePrimary === true;
}

/**
 * A record holds at most one primary record of a type that has one per record (TypeRules.isOnePrimary:
 * a contact's, deal's or ticket's primary company): of the primary keys `after` holds, the one it
 * gained last stays and the others go (the unlabeled association stays). The other side of each
 * removal follows from the change (linkedChangesOf).
 */
export function withOnePrimary(
  holder: ObjectType,
  before: Record<string, string>,
  after: Record<string, string>,
): Record<string, string> {
  const primary = primaryTypeFrom(holder.id, isOnePrimary);
  if (!primary) return after;
  const suffix = `/${primary.typeId}`;
  const keys = Object.keys(after).filter((key) => key.startsWith(`${primary.toObjectTypeId}/`) && key.endsWith(suffix));
  if (keys.length < 2) return after;
  const kept = keys.filter((key) => !(key in before)).at(-1) ?? keys.at(-1);
  const next = { ...after };
  for (const key of keys) if (key !== kept) delete next[key];
  return next;
}

/** The other records a write's rules read (the records a write makes it primary of, a line item's deal, a pinned record), 8 at a time. */
const linkedReadConcurrency = 8;

/**
 * A record of a type that is one per record as a primary (TypeRules.isOnePrimary: a company made a
 * contact's, deal's or ticket's primary company) takes the primary from the one that was: each
 * record the holder's write sets the primary on is read, and its former primary loses the primary
 * on both sides, in the same transaction (which then also needs the record's version as read). The
 * unlabeled association stays.
 */
async function movedPrimaries(
  holder: ObjectType,
  holderId: string,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  if (!rulesOf(holder).isOnePrimary) return [...linked];
  // The records this write makes the holder primary of, read 8 at a time rather than one after another.
  const made = linked.flatMap((change) => {
    const other = storedTypeById(change.type.id);
    const primary = other ? primaryTypeFrom(other.id, (toTypeId) => toTypeId === holder.id) : undefined;
    return other && primary && associationKey(holder.id, holderId, primary.typeId) in change.set
      ? [{ other, primary, id: change.id }]
      : [];
  });
  const records = await mapConcurrently(made, linkedReadConcurrency, ({ other, id }) => read(other, id));
  const extra: LinkedChange[] = [];
  made.forEach(({ other, primary, id }, index) => {
    const record = records[index];
    if (!record) return;
    const former = Object.keys(record.associations).filter((key) => {
      const parsed = parseAssociationKey(key);
      return parsed?.toObjectTypeId === holder.id && parsed.typeId === primary.typeId && parsed.toObjectId !== holderId;
    });
    extra.push({ type: other, id, set: {}, remove: former, expectedVersion: record.version });
    for (const key of former) {
      extra.push({
        type: holder,
        id: parseAssociationKey(key)?.toObjectId ?? '',
        set: {},
        remove: [associationKey(other.id, id, primary.inverseTypeId)],
      });
    }
  });
  return mergeLinked([...linked, ...extra]);
}

/** A record that may have one associated record of a type (a line item's deal) and would get a second. */
export function singleAssociationError(
  type: ObjectType,
  id: string,
  other: ObjectType,
  held: string,
): LinkedRecordFullError {
  const [record, kind] = [singularWords(type), singularWords(other)];
  return new LinkedRecordFullError(type, id, {
    message: `${singularTitle(type)} ${id} is already associated with ${kind} ${held}: a ${record} may be associated with one ${kind}`,
    detail: `${record} ${id} already has a ${kind}`,
  });
}

/**
 * A write of the holder that associates records which may have one record of the holder's type (a
 * deal given a line item): each is read, refused (400) when it has another, and otherwise written on
 * the version read, so two deals taking one line item at once cannot both succeed.
 */
async function singleAssociations(
  holder: ObjectType,
  holderId: string,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  const bound = linked.flatMap((change) => {
    const type = storedTypeById(change.type.id);
    return type &&
      rulesOf(type).singleAssociation?.typeId === holder.id &&
      Object.keys(change.set).some((key) => {
        const parsed = parseAssociationKey(key);
        return parsed?.toObjectTypeId === holder.id && parsed.toObjectId === holderId;
      })
      ? [{ type, change }]
      : [];
  });
  if (bound.length === 0) return [...linked];
  const records = await mapConcurrently(bound, linkedReadConcurrency, ({ type, change }) => read(type, change.id));
  const versions: LinkedChange[] = [];
  bound.forEach(({ type, change }, index) => {
    const record = records[index];
    if (!record) return;
    const others = [...associatedIdsOf(record.associations, holder.id)].filter((id) => id !== holderId);
    const kept = others.filter((id) => !change.remove.some((key) => parseAssociationKey(key)?.toObjectId === id));
    const [held] = kept;
    if (held !== undefined) throw singleAssociationError(type, change.id, holder, held);
    versions.push({ type, id: change.id, set: {}, remove: [], expectedVersion: record.version });
  });
  return mergeLinked([...linked, ...versions]);
}

/**
 * The other records' side of a new record's write, completed by the rules that read them: a record
 * made primary takes the primary from the one that was (movedPrimaries), and a record that may have
 * one associated record of the holder's type must have no other (singleAssociations). A new record
 * leaves no record it was associated with, so no pin goes (clearedPins: only an activity's changes
 * clear pins, and those of a new activity only add its associations).
 */
export async function completeNewRecordLinks(
  holder: ObjectType,
  holderId: string,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  return singleAssociations(holder, holderId, await movedPrimaries(holder, holderId, linked, read), read);
}

/** The other records' side of a change of a record's associations: completeNewRecordLinks, then clearedPins. */
export async function completeLinkedChanges(
  holder: ObjectType,
  holderId: string,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  return clearedPins(holder, holderId, await completeNewRecordLinks(holder, holderId, linked, read), read);
}

/**
 * An activity that leaves a record (its association removed from the activity's side, or the
 * activity archived) leaves its pin: each record losing every association with the activity is read,
 * and where its `hs_pinned_engagement_id` names the activity the pin goes in the same transaction.
 */
export async function clearedPins(
  holder: ObjectType,
  holderId: string,
  linked: readonly LinkedChange[],
  read: (type: ObjectType, id: string) => Promise<CrmRecord | undefined>,
): Promise<LinkedChange[]> {
  if (!holder.isActivity) return [...linked];
  const namesHolder = (key: string): boolean => {
    const parsed = parseAssociationKey(key);
    return parsed?.toObjectTypeId === holder.id && parsed.toObjectId === holderId;
  };
  const leaving = linked.flatMap((change) => {
    const type = storedTypeById(change.type.id);
    return type && change.remove.some(namesHolder) && !Object.keys(change.set).some(namesHolder)
      ? [{ type, change }]
      : [];
  });
  if (leaving.length === 0) return [...linked];
  const records = await mapConcurrently(leaving, linkedReadConcurrency, ({ type, change }) => read(type, change.id));
  const pinned = new Set(
    leaving
      .filter((_, index) => records[index]?.properties.hs_pinned_engagement_id === holderId)
      .map(({ change }) => `${change.type.id}/${change.id}`),
  );
  if (pinned.size === 0) return [...linked];
  const entry = { value: '', timestamp: new Date(nowMs()).toISOString(), sourceType: 'INTEGRATION' };
  return linked.map((change) =>
    pinned.has(`${change.type.id}/${change.id}`) ? { ...change, unpin: pinRemovalOf(holderId, entry) } : change,
  );
}

/**
 * Before a batch writes anything: every stored record its inputs associate exists in the account
 * (keys only, one BatchGetItem per 100), else 400 INVALID_OBJECT_IDS naming the missing ones. The
 * write itself checks again (each target's side is updated on condition that it exists).
 */
export async function requireAssociationTargets(hubId: number, entries: readonly AssociationEntry[]): Promise<void> {
  const targets = entries
    .filter((entry) => entry.to.isStored)
    .map((entry) => ({ type: entry.to, id: entry.toObjectId }));
  if (targets.length === 0) return;
  const found = await findExistingRecords(hubId, targets);
  const missing = [
    ...new Map(
      targets
        .filter((target) => !found.has(`${target.type.id}/${target.id}`))
        .map((target) => [`${target.type.id}/${target.id}`, target]),
    ).values(),
  ];
  if (missing.length > 0) throw invalidAssociationTargets(missing);
}

/**
 * The other side of a new record's associations, from the types its create resolved (no lookup):
 * each stored target of a key the record keeps gets the inverse key.
 */
export function reverseLinksOf(
  holder: ObjectType,
  holderId: string,
  entries: readonly AssociationEntry[],
  kept: Record<string, string>,
): LinkedChange[] {
  return mergeLinked(
    entries
      .filter((entry) => entry.to.isStored && associationKey(entry.to.id, entry.toObjectId, entry.type.typeId) in kept)
      .map((entry) => ({
        type: entry.to,
        id: entry.toObjectId,
        set: { [associationKey(holder.id, holderId, entry.type.inverseTypeId)]: entry.type.inverseName },
        remove: [],
      })),
  );
}

/**
 * The other side of a stored record's association change: for each stored record whose
 * association with the holder starts or ends, the inverse keys to set or remove on it (written in
 * the holder's transaction, on condition that it exists). Records of types not stored have no side.
 */
export async function linkedChangesOf(
  holder: ObjectType,
  holderId: string,
  before: Record<string, string>,
  after: Record<string, string>,
  findType: CustomTypeFinder,
): Promise<LinkedChange[]> {
  const changes: LinkedChange[] = [];
  const typeOf = async (typeId: number) =>
    findStandardTypeFrom(holder.id, typeId) ?? (typeId >= 1000 ? await findType(typeId) : undefined);
  const moves = [
    ...Object.keys(before)
      .filter((key) => !(key in after))
      .map((key) => ({ key, isSet: false })),
    ...Object.keys(after)
      .filter((key) => !(key in before))
      .map((key) => ({ key, isSet: true })),
  ];
  for (const { key, isSet } of moves) {
    const parsed = parseAssociationKey(key);
    const other = parsed ? storedTypeById(parsed.toObjectTypeId) : undefined;
    if (!parsed || !other) continue;
    const associationType = await typeOf(parsed.typeId);
    if (!associationType) continue;
    const reverseKey = associationKey(holder.id, holderId, associationType.inverseTypeId);
    changes.push(
      isSet
        ? { type: other, id: parsed.toObjectId, set: { [reverseKey]: associationType.inverseName }, remove: [] }
        : { type: other, id: parsed.toObjectId, set: {}, remove: [reverseKey] },
    );
  }
  return mergeLinked(changes);
}

/**
 * A stored target with no room for another association on its side (checked there, in the write), or
 * that may have one record of the writer's type and has another (a line item's deal): a batch answers
 * it as an error of the inputs naming that target.
 */
export class LinkedRecordFullError extends ValidationError {
  constructor(
    readonly type: ObjectType,
    readonly id: string,
    refusal: { message: string; detail: string } = {
      message: `${singularTitle(type)} ${id} has no room for this association: a record may have at most ${maxAssociationsPerRecord} associations${boundWordsOf(type, ' and')}`,
      detail: `${singularWords(type)} ${id} has no room for another association`,
    },
  ) {
    super(refusal.message, {
      context: { associations: [id] },
      errors: [{ message: refusal.detail, code: 'TOO_MANY_ASSOCIATIONS', context: { id: [id] } }],
    });
  }
}

export const linkedRecordFull = (type: ObjectType, id: string): LinkedRecordFullError =>
  new LinkedRecordFullError(type, id);

/** A type's bound on links with itself (TypeRules.linksToSelf) in words after `before`, when it has one: ` and a company 50 associated companies`; else ''. */
function boundWordsOf(type: ObjectType, before: string): string {
  const max = rulesOf(type).linksToSelf?.max;
  return max === undefined
    ? ''
    : `${before} a ${singularWords(type)} ${max} associated ${type.name.replaceAll('_', ' ')}`;
}

/** The limits on a record's associations: the count of its keys, and every standard type's bound on links with itself. */
export function associationLimitError(keys: number): ValidationError {
  return new ValidationError(
    `A record may have at most ${maxAssociationsPerRecord} associations${objectTypes.map((type) => boundWordsOf(type, ', and')).join('')}`,
    { context: { associations: [String(keys)] } },
  );
}

/**
 * The limits bound what a write adds: a record over them (data written before they held on both
 * sides) may still lose associations, be merged and change in any way that does not add to the
 * count it is over. `before` is the record as read (none for a new one; both records of a merge).
 * The count of associated records of the record's own type is bounded only for a type with that rule (TypeRules.linksToSelf).
 */
export function checkAssociationLimits(
  type: ObjectType,
  after: CrmRecord,
  before: CrmRecord | readonly CrmRecord[] = [],
): void {
  const previous = Array.isArray(before) ? before : [before as CrmRecord];
  const keys = Object.keys(after.associations).length;
  const keysBefore = Math.max(0, ...previous.map((record) => Object.keys(record.associations).length));
  const linksToSelf = rulesOf(type).linksToSelf;
  const links = linksToSelf ? associatedIdsOf(after.associations, type.id).size : 0;
  const linksBefore = Math.max(0, ...previous.map((record) => associatedIdsOf(record.associations, type.id).size));
  if (
    (keys > maxAssociationsPerRecord && keys > keysBefore) ||
    (linksToSelf !== undefined && links > linksToSelf.max && links > linksBefore)
  )
    throw associationLimitError(keys);
  const single = rulesOf(type).singleAssociation;
  const other = single ? storedTypeById(single.typeId) : undefined;
  if (single && other) {
    const held = associatedIdsOf(after.associations, single.typeId);
    const heldBefore = previous.map((record) => associatedIdsOf(record.associations, single.typeId));
    if (held.size > 1 && heldBefore.every((ids) => held.size > ids.size)) {
      // Named: the one it held before, when it had one.
      const kept = [...held].find((id) => heldBefore.some((ids) => ids.has(id))) ?? [...held][0] ?? '';
      throw singleAssociationError(type, after.id, other, kept);
    }
  }
}

/** The activity ids a record has associated, for the pinning rule. */
export function associatedActivityIds(associations: Record<string, string>): Set<string> {
  const ids = new Set<string>();
  for (const key of Object.keys(associations)) {
    const [typeId, id] = key.split('/');
    if (typeId !== undefined && id !== undefined && objectTypeById(typeId)?.isActivity) ids.add(id);
  }
  return ids;
}
