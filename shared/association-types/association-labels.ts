import * as customTypes from '../db/association-labels';
import { ConflictError, ValidationError } from '../base/errors';
import {
  findStandardTypeByName,
  findStandardTypeFrom,
  standardTypesBetween,
  type AssociationType,
} from './association-types';
import { objectTypeById, requireObjectType, type ObjectType } from '../objects/object-types';

export interface AssociationLabel {
  category: AssociationType['category'];
  typeId: number;
  label: string | null;
}

function labelOf(type: AssociationType): AssociationLabel {
  return { category: type.category, typeId: type.typeId, label: type.label };
}

/** The standard types from one object type to another, then the account's live custom labels between them. */
export async function listAssociationTypesBetween(
  hubId: number,
  fromToken: string,
  toToken: string,
): Promise<AssociationType[]> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  const custom = await customTypes.listCustomAssociationTypes(hubId, from.id, to.id);
  return [...standardTypesBetween(from, to), ...custom.filter((type) => !type.archived)];
}

export async function listAssociationLabels(
  hubId: number,
  fromToken: string,
  toToken: string,
): Promise<AssociationLabel[]> {
  return (await listAssociationTypesBetween(hubId, fromToken, toToken)).map(labelOf);
}

/** Finds a live custom type by name; see customTypeByName. */
export type CustomTypeByName = (name: string) => Promise<AssociationType | undefined>;

/** A live custom type between `from` and `to` by its name: the pair's labels are read once, on the first call. */
export function customTypeByName(hubId: number, from: ObjectType, to: ObjectType): CustomTypeByName {
  let custom: Promise<AssociationType[]> | undefined;
  return async (name) => {
    custom ??= customTypes.listCustomAssociationTypes(hubId, from.id, to.id);
    return (await custom).find((type) => !type.archived && type.name === name);
  };
}

export interface NewAssociationLabel {
  name: string;
  label: string;
  inverseLabel?: string;
}

/** At most this many custom types (labels) per pair of object types. */
export const maxCustomTypesPerPair = 10;

export function requireAssociationLabelName(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new ValidationError(
      `Association label name ${JSON.stringify(name)} is invalid: use letters, digits and underscores, not starting with a digit`,
      { context: { name: [name] } },
    );
  }
}

function tooManyLabels(from: ObjectType, to: ObjectType): ValidationError {
  return new ValidationError(
    `At most ${maxCustomTypesPerPair} custom association types may exist between ${from.name} and ${to.name}`,
    { context: { fromObjectType: [from.name], toObjectType: [to.name] } },
  );
}

function labelNameTaken(name: string, from: ObjectType, to: ObjectType): ConflictError {
  return new ConflictError(`An association label named ${name} already exists between ${from.name} and ${to.name}`, {
    context: { name: [name] },
  });
}

export async function createAssociationLabel(
  hubId: number,
  fromToken: string,
  toToken: string,
  input: NewAssociationLabel,
): Promise<AssociationLabel[]> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  requireAssociationLabelName(input.name);
  // Refused early from the listing as read; the pair's names item, written with the label, is what holds both rules.
  const existing = (await customTypes.listCustomAssociationTypes(hubId, from.id, to.id)).filter(
    (type) => !type.archived,
  );
  if (existing.length >= maxCustomTypesPerPair) throw tooManyLabels(from, to);
  if (existing.some((type) => type.name === input.name)) throw labelNameTaken(input.name, from, to);
  // A pair of different object types always needs a type per direction; a same-type pair only when it is labeled both ways.
  const isPaired = from.id !== to.id || input.inverseLabel !== undefined;
  const firstId = await customTypes.allocateAssociationTypeIds(hubId, isPaired ? 2 : 1);
  const forward: AssociationType = {
    typeId: firstId,
    category: 'USER_DEFINED',
    fromObjectTypeId: from.id,
    toObjectTypeId: to.id,
    name: input.name,
    label: input.label,
    inverseTypeId: isPaired ? firstId + 1 : firstId,
    inverseName: isPaired ? `${input.name}_inverse` : input.name,
  };
  const created = [forward];
  if (isPaired) {
    created.push({
      typeId: firstId + 1,
      category: 'USER_DEFINED',
      fromObjectTypeId: to.id,
      toObjectTypeId: from.id,
      name: `${input.name}_inverse`,
      label: input.inverseLabel ?? input.label,
      inverseTypeId: firstId,
      inverseName: input.name,
    });
  }
  const outcome = await customTypes.insertCustomAssociationTypes(hubId, created, maxCustomTypesPerPair);
  if (outcome === 'too-many') throw tooManyLabels(from, to);
  if (outcome === 'name-taken') throw labelNameTaken(input.name, from, to);
  if (outcome === 'contended')
    throw new ConflictError(
      `The labels between ${from.name} and ${to.name} are being changed by other requests; retry the request.`,
      { context: { name: [input.name] } },
    );
  return created.map(labelOf);
}

function invalidAssociationType(type: string, from: ObjectType, to: ObjectType | undefined): ValidationError {
  return new ValidationError(
    `${type} is not a valid association type between ${from.name} and ${to?.name ?? 'any object type'}`,
    {
      subCategory: 'crm.associations.INVALID_ASSOCIATION_TYPE',
      context: { type: [type], fromObjectType: [from.name], ...(to ? { toObjectType: [to.name] } : {}) },
    },
  );
}

/**
 * A type id or (v3 form) a type name, which must fit `from` -> `to`. A name is a standard type's,
 * or a custom label's when `findCustomByName` is given (the v3 batches pass one; the per-record v3
 * routes take standard names only).
 */
export async function resolveAssociationType(
  hubId: number,
  from: ObjectType,
  to: ObjectType,
  token: string,
  findCustomByName?: CustomTypeByName,
): Promise<AssociationType> {
  if (!/^\d{1,9}$/.test(token)) {
    const named = findStandardTypeByName(from, to, token) ?? (await findCustomByName?.(token));
    if (!named) throw invalidAssociationType(token, from, to);
    return named;
  }
  const typeId = Number(token);
  const standard = findStandardTypeFrom(from.id, typeId);
  const type = standard ?? (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  if (!type || type.archived || type.fromObjectTypeId !== from.id || type.toObjectTypeId !== to.id)
    throw invalidAssociationType(token, from, to);
  return type;
}

/** The create body names only the type id (and category); the type, from `from`, then tells the target object type. */
export async function resolveAssociationTypeById(
  hubId: number,
  from: ObjectType,
  typeId: number,
  category: string | undefined,
): Promise<{ type: AssociationType; to: ObjectType }> {
  const type =
    findStandardTypeFrom(from.id, typeId) ??
    (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  const to = type ? objectTypeById(type.toObjectTypeId) : undefined;
  if (
    !type ||
    type.archived ||
    !to ||
    type.fromObjectTypeId !== from.id ||
    (category !== undefined && category !== type.category)
  ) {
    throw invalidAssociationType(String(typeId), from, to);
  }
  return { type, to };
}

/** The type id of the same association seen from the other record. */
export async function inverseTypeIdOf(hubId: number, fromObjectTypeId: string, typeId: number): Promise<number> {
  const standard = findStandardTypeFrom(fromObjectTypeId, typeId);
  if (standard) return standard.inverseTypeId;
  return (await customTypes.findCustomAssociationType(hubId, typeId))?.inverseTypeId ?? typeId;
}

/** A type id (and category) sent for the direction from -> to: standard, or a live custom type of the hub. */
export async function resolveTypeBetween(
  hubId: number,
  from: ObjectType,
  to: ObjectType,
  typeId: number,
  category: string | undefined,
): Promise<AssociationType> {
  const type =
    findStandardTypeFrom(from.id, typeId) ??
    (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  if (
    !type ||
    type.archived ||
    type.fromObjectTypeId !== from.id ||
    type.toObjectTypeId !== to.id ||
    (category !== undefined && category !== type.category)
  ) {
    throw invalidAssociationType(String(typeId), from, to);
  }
  return type;
}

/** The same association seen from the other record; a custom type's inverse is read from the hub. */
export async function inverseTypeOf(hubId: number, type: AssociationType): Promise<AssociationType> {
  const inverse =
    findStandardTypeFrom(type.toObjectTypeId, type.inverseTypeId) ??
    (type.inverseTypeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, type.inverseTypeId) : undefined);
  if (!inverse) throw new Error(`association type ${type.typeId} has no inverse ${type.inverseTypeId}`);
  return inverse;
}

export interface AssociationLabelUpdate {
  associationTypeId: number;
  label: string;
  inverseLabel?: string;
}

async function requireCustomLabel(
  hubId: number,
  from: ObjectType,
  to: ObjectType,
  typeId: number,
): Promise<AssociationType> {
  const type = typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined;
  if (!type || type.archived || type.fromObjectTypeId !== from.id || type.toObjectTypeId !== to.id) {
    // HubSpot-defined types cannot be renamed or deleted; an unknown id is not a label of this pair.
    throw invalidAssociationType(String(typeId), from, to);
  }
  return type;
}

/** Renames a custom label; `inverseLabel` renames the other direction of a paired label. */
export async function updateAssociationLabel(
  hubId: number,
  fromToken: string,
  toToken: string,
  input: AssociationLabelUpdate,
): Promise<void> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  const type = await requireCustomLabel(hubId, from, to, input.associationTypeId);
  const changes: { type: AssociationType; label: string }[] = [{ type, label: input.label }];
  if (input.inverseLabel !== undefined) {
    if (type.inverseTypeId === type.typeId) {
      throw new ValidationError(
        'This label has no inverse: it was created without inverseLabel between records of one type',
        { context: { inverseLabel: [input.inverseLabel] } },
      );
    }
    changes.push({ type: await inverseTypeOf(hubId, type), label: input.inverseLabel });
  }
  await customTypes.updateCustomAssociationTypes(hubId, changes);
}

/**
 * Deletes a custom label (and its inverse). As in HubSpot, a label in use can be deleted: records
 * associated through it stay associated, and read as the pair's unlabeled type. The type id is
 * never handed out again and can no longer be used to associate.
 */
export async function deleteAssociationLabel(
  hubId: number,
  fromToken: string,
  toToken: string,
  typeIdToken: string,
): Promise<void> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  const typeId = /^\d{1,9}$/.test(typeIdToken) ? Number(typeIdToken) : -1;
  const type = await requireCustomLabel(hubId, from, to, typeId);
  const changes = [{ type, archived: true }];
  if (type.inverseTypeId !== type.typeId) changes.push({ type: await inverseTypeOf(hubId, type), archived: true });
  await customTypes.updateCustomAssociationTypes(hubId, changes);
}
