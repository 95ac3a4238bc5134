import { batchErrorOf, envelope, type BatchError, type BatchResponse } from '../base/batch-results';
import { nowMs } from '../base/clock';
import { ConflictError, NotFoundError, ValidationError } from '../base/errors';
import { catalogConflictRetryPolicy, conflicted, retryOnConflict } from '../base/retry';
import { resolveTypeBetween } from '../association-types/association-labels';
import { findStandardTypeFrom, type AssociationType } from '../association-types/association-types';
import * as customTypes from '../db/association-labels';
import {
  associationLimitKey,
  findAssociationLimits,
  replaceAssociationLimits,
  type StoredAssociationLimits,
} from '../db/association-limits';
import { maxAssociationsPerRecord } from '../db/records';
import { requireObjectType, type ObjectType } from '../objects/object-types';

export type AssociationLimitCategory = 'HUBSPOT_DEFINED' | 'INTEGRATOR_DEFINED' | 'USER_DEFINED' | 'WORK';

/** PublicAssociationDefinitionUserConfiguration: one configured limit, with the type's label when it has one. */
export interface AssociationLimitView {
  category: string;
  typeId: number;
  label?: string;
  userEnforcedMaxToObjectIds: number;
}

/** PublicAssociationDefinitionConfigurationUpdateResult: an update's answer per input (no label). */
export type AssociationLimitUpdateView = Omit<AssociationLimitView, 'label'>;

export interface AssociationLimitInput {
  category: AssociationLimitCategory;
  typeId: number;
  maxToObjectIds: number;
}

export interface AssociationSpecInput {
  category: string;
  typeId: number;
}

/**
 * The spec sets no bound on maxToObjectIds: this service takes 1 to maxAssociationsPerRecord (the
 * most associations one record may hold at all), and at most this many limits per account.
 */
export const maxAssociationLimitsPerAccount = 1000;
export const maxLimitInputs = 100;

function requireMaxToObjectIds(inputs: readonly AssociationLimitInput[]): void {
  inputs.forEach((input, index) => {
    if (
      !Number.isInteger(input.maxToObjectIds) ||
      input.maxToObjectIds < 1 ||
      input.maxToObjectIds > maxAssociationsPerRecord
    ) {
      throw new ValidationError(
        `maxToObjectIds must be an integer from 1 to ${maxAssociationsPerRecord}; inputs[${index}] has ${input.maxToObjectIds}`,
        { context: { [`inputs[${index}].maxToObjectIds`]: [String(input.maxToObjectIds)] } },
      );
    }
  });
}

function requireInputCount(count: number): void {
  if (count > maxLimitInputs)
    throw new ValidationError(`A batch takes at most ${maxLimitInputs} inputs; this one has ${count}`, {
      context: { inputs: [String(count)] },
    });
}

/** A stored limit's type, when it still is one (a deleted label's limit no longer lists). */
async function liveTypeOf(hubId: number, from: string, typeId: number): Promise<AssociationType | undefined> {
  const type =
    findStandardTypeFrom(from, typeId) ??
    (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  return type && !type.archived && type.fromObjectTypeId === from ? type : undefined;
}

const viewOf = (type: AssociationType, max: number): AssociationLimitView => ({
  category: type.category,
  typeId: type.typeId,
  ...(type.label ? { label: type.label } : {}),
  userEnforcedMaxToObjectIds: max,
});

/** The stored limits (optionally of one object pair) as the API lists them, in from/to/type order. */
async function viewsOf(
  hubId: number,
  limits: StoredAssociationLimits,
  pair?: { from: ObjectType; to: ObjectType },
): Promise<AssociationLimitView[]> {
  const entries = Object.entries(limits)
    .map(([key, limit]) => {
      const [from = '', to = '', typeId = ''] = key.split('/');
      return { from, to, typeId: Number(typeId), max: limit.max };
    })
    .filter((entry) => !pair || (entry.from === pair.from.id && entry.to === pair.to.id))
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.typeId - b.typeId);
  const views: AssociationLimitView[] = [];
  for (const entry of entries) {
    const type = await liveTypeOf(hubId, entry.from, entry.typeId);
    if (type && type.toObjectTypeId === entry.to) views.push(viewOf(type, entry.max));
  }
  return views;
}

/** GET .../definitions/configurations/all: every limit the account has configured. One GetItem (and custom types' labels). */
export async function listAllAssociationLimits(hubId: number): Promise<AssociationLimitView[]> {
  return viewsOf(hubId, (await findAssociationLimits(hubId)).limits);
}

/** GET .../definitions/configurations/{from}/{to}: the limits configured from one object type to another. */
export async function listAssociationLimits(
  hubId: number,
  fromToken: string,
  toToken: string,
): Promise<AssociationLimitView[]> {
  const pair = {
    from: requireObjectType(fromToken, 'fromObjectType'),
    to: requireObjectType(toToken, 'toObjectType'),
  };
  return viewsOf(hubId, (await findAssociationLimits(hubId)).limits, pair);
}

/** Each input's type for the pair (a type of the pair that exists: HubSpot's or the account's label), or its error. */
async function resolveInputs<I extends AssociationSpecInput>(
  hubId: number,
  from: ObjectType,
  to: ObjectType,
  inputs: readonly I[],
): Promise<{ input: I; type?: AssociationType; error?: BatchError }[]> {
  const resolved: { input: I; type?: AssociationType; error?: BatchError }[] = [];
  for (const input of inputs) {
    try {
      resolved.push({ input, type: await resolveTypeBetween(hubId, from, to, input.typeId, input.category) });
    } catch (error) {
      resolved.push({ input, error: batchErrorOf(error) });
    }
  }
  return resolved;
}

/**
 * Changes the account's limits item: `change` gets the limits as read and returns them changed;
 * the write holds only if nobody changed the item meanwhile (else read again, a few rounds).
 */
async function changeLimits(
  hubId: number,
  change: (limits: StoredAssociationLimits) => StoredAssociationLimits | undefined,
): Promise<void> {
  await retryOnConflict(
    async () => {
      const found = await findAssociationLimits(hubId);
      const next = change({ ...found.limits });
      if (!next) return undefined;
      if (Object.keys(next).length > maxAssociationLimitsPerAccount)
        throw new ValidationError(
          `An account may configure at most ${maxAssociationLimitsPerAccount} association limits`,
          {
            context: { inputs: [String(Object.keys(next).length)] },
          },
        );
      return (await replaceAssociationLimits(hubId, next, found.version)) ? undefined : conflicted;
    },
    () => {
      throw new ConflictError('The association limits are being changed by other requests; retry the request.');
    },
    catalogConflictRetryPolicy,
  );
}

function requirePair(fromToken: string, toToken: string): { from: ObjectType; to: ObjectType } {
  return { from: requireObjectType(fromToken, 'fromObjectType'), to: requireObjectType(toToken, 'toObjectType') };
}

/**
 * batch/create: configures a limit per input (an input naming a type already configured sets its
 * new maximum, so a create can be sent again). An input whose type is not one of the pair gets its error.
 */
export async function batchCreateAssociationLimits(
  hubId: number,
  fromToken: string,
  toToken: string,
  inputs: readonly AssociationLimitInput[],
): Promise<BatchResponse<AssociationLimitView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const { from, to } = requirePair(fromToken, toToken);
  requireInputCount(inputs.length);
  requireMaxToObjectIds(inputs);
  const resolved = await resolveInputs(hubId, from, to, inputs);
  const valid = resolved.flatMap(({ input, type }) => (type ? [{ input, type }] : []));
  if (valid.length > 0) {
    await changeLimits(hubId, (limits) => {
      for (const { input, type } of valid)
        limits[associationLimitKey(from.id, to.id, type.typeId)] = {
          category: type.category,
          max: input.maxToObjectIds,
        };
      return limits;
    });
  }
  const results = [
    ...new Map(valid.map(({ input, type }) => [type.typeId, viewOf(type, input.maxToObjectIds)])).values(),
  ];
  return envelope(
    startedAt,
    results,
    resolved.flatMap(({ error }) => (error ? [error] : [])),
  );
}

/** batch/update: a new maximum for limits already configured; an input whose type has none gets a 404 error. */
export async function batchUpdateAssociationLimits(
  hubId: number,
  fromToken: string,
  toToken: string,
  inputs: readonly AssociationLimitInput[],
): Promise<BatchResponse<AssociationLimitUpdateView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const { from, to } = requirePair(fromToken, toToken);
  requireInputCount(inputs.length);
  requireMaxToObjectIds(inputs);
  const resolved = await resolveInputs(hubId, from, to, inputs);
  const updated: AssociationLimitUpdateView[] = [];
  const errors: BatchError[] = resolved.flatMap(({ error }) => (error ? [error] : []));
  const valid = resolved.flatMap(({ input, type }) => (type ? [{ input, type }] : []));
  if (valid.length > 0) {
    let missing: AssociationType[] = [];
    await changeLimits(hubId, (limits) => {
      missing = [];
      updated.length = 0;
      for (const { input, type } of valid) {
        const key = associationLimitKey(from.id, to.id, type.typeId);
        if (!limits[key]) {
          missing.push(type);
          continue;
        }
        limits[key] = { category: type.category, max: input.maxToObjectIds };
        updated.push({
          category: type.category,
          typeId: type.typeId,
          userEnforcedMaxToObjectIds: input.maxToObjectIds,
        });
      }
      return updated.length > 0 ? limits : undefined;
    });
    for (const type of missing)
      errors.push(
        batchErrorOf(
          new NotFoundError(
            `No association limit is configured for association type ${type.typeId} from ${from.name} to ${to.name}`,
            { context: { typeId: [String(type.typeId)] } },
          ),
        ),
      );
  }
  const results = [...new Map(updated.map((view) => [view.typeId, view])).values()];
  return envelope(startedAt, results, errors);
}

/**
 * batch/purge: removes the limits of the inputs' types (a type without one needs nothing). Every
 * input must name a type of the pair (else 400 before anything changes: the v4 answer is 204, with
 * no room for per-input errors).
 */
export async function batchPurgeAssociationLimits(
  hubId: number,
  fromToken: string,
  toToken: string,
  inputs: readonly AssociationSpecInput[],
): Promise<void> {
  const { from, to } = requirePair(fromToken, toToken);
  requireInputCount(inputs.length);
  const types: AssociationType[] = [];
  for (const input of inputs) types.push(await resolveTypeBetween(hubId, from, to, input.typeId, input.category));
  if (types.length === 0) return;
  await changeLimits(hubId, (limits) => {
    const keys = types.map((type) => associationLimitKey(from.id, to.id, type.typeId)).filter((key) => key in limits);
    if (keys.length === 0) return undefined;
    for (const key of keys) delete limits[key];
    return limits;
  });
}
