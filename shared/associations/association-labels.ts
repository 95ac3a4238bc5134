import * as customTypes from '../db/association-labels';
import { ConflictError, ValidationError } from '../errors';
import { findStandardTypeByName, findStandardTypeFrom, standardTypesBetween, type AssociationType } from './association-types';
import { companyObjectType, findObjectType, objectTypeById, type ObjectType } from './object-types';

export interface AssociationLabel {
  category: AssociationType['category'];
  typeId: number;
  label: string | null;
}

export function requireObjectType(token: string, field: string): ObjectType {
  const type = findObjectType(token);
  if (!type) {
    throw new ValidationError(`Unknown object type ${JSON.stringify(token)}`, { context: { [field]: [token] } });
  }
  return type;
}

function labelOf(type: AssociationType): AssociationLabel {
  return { category: type.category, typeId: type.typeId, label: type.label };
}

export async function listAssociationLabels(hubId: number, fromToken: string, toToken: string): Promise<AssociationLabel[]> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  const custom = await customTypes.listCustomAssociationTypes(hubId, from.id, to.id);
  return [...standardTypesBetween(from, to), ...custom].map(labelOf);
}

export interface NewAssociationLabel {
  name: string;
  label: string;
  inverseLabel?: string;
}

/** DOC-ASSOC: at most this many custom types per pair of object types. */
const maxCustomTypesPerPair = 10;

export function requireAssociationLabelName(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new ValidationError(`Association label name ${JSON.stringify(name)} is invalid: use letters, digits and underscores, not starting with a digit`,
      { context: { name: [name] } });
  }
}

export async function createAssociationLabel(hubId: number, fromToken: string, toToken: string, input: NewAssociationLabel): Promise<AssociationLabel[]> {
  const from = requireObjectType(fromToken, 'fromObjectType');
  const to = requireObjectType(toToken, 'toObjectType');
  requireAssociationLabelName(input.name);
  const existing = await customTypes.listCustomAssociationTypes(hubId, from.id, to.id);
  if (existing.length >= maxCustomTypesPerPair) {
    throw new ValidationError(`At most ${maxCustomTypesPerPair} custom association types may exist between ${from.name} and ${to.name}`,
      { context: { fromObjectType: [from.name], toObjectType: [to.name] } });
  }
  if (existing.some((type) => type.name === input.name)) {
    throw new ConflictError(`An association label named ${input.name} already exists between ${from.name} and ${to.name}`, { context: { name: [input.name] } });
  }
  // A pair of different object types always needs a type per direction; a same-type pair only when it is labelled both ways.
  const isPaired = from.id !== to.id || input.inverseLabel !== undefined;
  const firstId = await customTypes.allocateAssociationTypeIds(hubId, isPaired ? 2 : 1);
  const forward: AssociationType = {
    typeId: firstId, category: 'USER_DEFINED', fromObjectTypeId: from.id, toObjectTypeId: to.id, name: input.name, label: input.label,
    inverseTypeId: isPaired ? firstId + 1 : firstId, inverseName: isPaired ? `${input.name}_inverse` : input.name,
  };
  const created = [forward];
  if (isPaired) {
    created.push({
      typeId: firstId + 1, category: 'USER_DEFINED', fromObjectTypeId: to.id, toObjectTypeId: from.id,
      name: `${input.name}_inverse`, label: input.inverseLabel ?? input.label, inverseTypeId: firstId, inverseName: input.name,
    });
  }
  await customTypes.insertCustomAssociationTypes(hubId, created);
  return created.map(labelOf);
}

function invalidAssociationType(type: string, from: ObjectType, to: ObjectType | undefined): ValidationError {
  return new ValidationError(`${type} is not a valid association type between ${from.name} and ${to?.name ?? 'any object type'}`, {
    subCategory: 'crm.associations.INVALID_ASSOCIATION_TYPE',
    context: { type: [type], fromObjectType: [from.name], ...(to ? { toObjectType: [to.name] } : {}) },
  });
}

/** A type id or (historical v3 form) a type name, which must fit companies -> `to`. */
export async function resolveCompanyAssociationType(hubId: number, to: ObjectType, token: string): Promise<AssociationType> {
  const from = companyObjectType;
  if (!/^\d{1,9}$/.test(token)) {
    const named = findStandardTypeByName(from, to, token);
    if (!named) throw invalidAssociationType(token, from, to);
    return named;
  }
  const typeId = Number(token);
  const standard = findStandardTypeFrom(from.id, typeId);
  const type = standard ?? (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  if (!type || type.fromObjectTypeId !== from.id || type.toObjectTypeId !== to.id) throw invalidAssociationType(token, from, to);
  return type;
}

/** The create body names only the type id (and category); the type then tells the target object type. */
export async function resolveCompanyAssociationTypeById(hubId: number, typeId: number, category: string | undefined): Promise<{ type: AssociationType; to: ObjectType }> {
  const from = companyObjectType;
  const type = findStandardTypeFrom(from.id, typeId) ?? (typeId >= 1000 ? await customTypes.findCustomAssociationType(hubId, typeId) : undefined);
  const to = type ? objectTypeById(type.toObjectTypeId) : undefined;
  if (!type || !to || type.fromObjectTypeId !== from.id || (category !== undefined && category !== type.category)) {
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
