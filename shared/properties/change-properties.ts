import { batchErrorOf, envelope, type BatchError, type BatchResponse } from '../base/batch-results';
import { nowMs } from '../base/clock';
import * as customProperties from '../db/property-definitions';
import { ConflictError, NotFoundError, ObjectAlreadyExistsError, ValidationError } from '../base/errors';
import {
  checkNewProperty,
  getCustomProperty,
  getProperty,
  insertNewProperty,
  isGroupMissing,
  isLabelTaken,
  prepareNewProperty,
  propertyGroupMissing,
  propertyLabelTaken,
  refuseStandardName,
  requireStorableDefinition,
  type NewProperty,
  type NewPropertyOption,
} from './type-properties';
import type { ObjectType } from '../objects/object-types';
import { standardOutlineOf } from './standard-catalogs';
import type { FieldType, PropertyDefinition, PropertyGroup, PropertyType } from './property-definition';

/** PropertyUpdate: every field optional; name, hasUniqueValue and dataSensitivity cannot change. */
export interface PropertyUpdate {
  label?: string;
  description?: string;
  groupName?: string;
  type?: PropertyType;
  fieldType?: FieldType;
  options?: NewPropertyOption[];
  displayOrder?: number;
  hidden?: boolean;
  formField?: boolean;
}

const unchangeable = ['name', 'hasUniqueValue', 'dataSensitivity'] as const;

function refuseHubSpotDefined(type: ObjectType, name: string, action: string): void {
  if (standardOutlineOf(type).labels.has(name)) {
    // The catalog marks every HubSpot-defined company property readOnlyDefinition and not archivable.
    throw new ValidationError(`${name} is a HubSpot-defined property and cannot be ${action}`, {
      context: { propertyName: [name] },
      errors: [
        { message: `HubSpot-defined properties cannot be ${action}`, code: 'READ_ONLY_DEFINITION', in: 'propertyName' },
      ],
    });
  }
}

// One writer per definition wins each round; a few rounds absorb racing updates.
const maxAttempts = 5;

async function requireUniqueLabel(type: ObjectType, hubId: number, name: string, label: string): Promise<void> {
  if (isLabelTaken(type, await customProperties.listProperties(type, hubId), label, name))
    throw propertyLabelTaken(type, label);
}

/** PATCH: the given fields overwrite the stored ones; the result is checked as a create would be. */
export async function updateProperty(
  type: ObjectType,
  hubId: number,
  userId: number,
  name: string,
  input: PropertyUpdate & Record<string, unknown>,
): Promise<PropertyDefinition> {
  for (const field of unchangeable) {
    if (field in input && !(field === 'name' && input.name === name)) {
      throw new ValidationError(`${field} cannot be changed once a property exists`, {
        context: { [field]: [String(input[field])] },
      });
    }
  }
  refuseHubSpotDefined(type, name, 'changed');
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const current = await getCustomProperty(type, hubId, name);
    const merged: NewProperty = {
      name,
      label: input.label ?? current.label,
      type: input.type ?? current.type,
      fieldType: input.fieldType ?? current.fieldType,
      groupName: input.groupName ?? current.groupName,
      description: input.description ?? current.description,
      options: input.options ?? current.options,
      displayOrder: input.displayOrder ?? current.displayOrder,
      hidden: input.hidden ?? current.hidden,
      formField: input.formField ?? current.formField,
      hasUniqueValue: current.hasUniqueValue,
    };
    // Options only fit enumerations: a type change away from one drops them unless new ones are sent.
    if (input.options === undefined && merged.type !== 'enumeration' && merged.type !== 'bool') merged.options = [];
    const options = checkNewProperty(merged);
    // A label that compares as the current one keeps its claim; another one moves it, checked first against the catalog.
    const labelMoves =
      input.label !== undefined &&
      customProperties.comparableLabel(input.label) !== customProperties.comparableLabel(current.label);
    if (labelMoves) await requireUniqueLabel(type, hubId, name, merged.label);
    const next: PropertyDefinition = {
      ...current,
      label: merged.label,
      type: merged.type,
      fieldType: merged.fieldType,
      groupName: merged.groupName,
      description: merged.description ?? '',
      options,
      displayOrder: merged.displayOrder ?? -1,
      hidden: merged.hidden ?? false,
      formField: merged.formField ?? false,
      updatedAt: new Date(nowMs()).toISOString(),
      updatedUserId: String(userId),
    };
    if (next.updatedAt === current.updatedAt) next.updatedAt = new Date(nowMs() + 1).toISOString();
    requireStorableDefinition(type, hubId, next);
    // A move into a custom group checks, in the same write, that the group exists and is live.
    const movedToGroup =
      next.groupName !== current.groupName && !standardOutlineOf(type).isStandardGroup(next.groupName)
        ? next.groupName
        : undefined;
    const outcome = await customProperties.replacePropertyDefinition(type, hubId, next, current.updatedAt, {
      movedToGroup,
      ...(labelMoves ? { labelFrom: current.label } : {}),
    });
    if (outcome === 'replaced') return next;
    if (outcome === 'group-missing') throw propertyGroupMissing(next.groupName);
    if (outcome === 'label-taken') throw propertyLabelTaken(type, next.label);
  }
  throw new ConflictError(`Property ${name} is being changed by other requests; retry the request.`, {
    context: { propertyName: [name] },
  });
}

/**
 * DELETE: moves a custom property to the recycle bin (archived=true lists it), freeing its label
 * for another property (its name stays taken). Values stored under it stay on the records but are
 * no longer returned. True when it was live.
 */
export async function archiveProperty(type: ObjectType, hubId: number, name: string): Promise<boolean> {
  refuseHubSpotDefined(type, name, 'archived');
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const current = await getCustomProperty(type, hubId, name).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!current) return false;
    const now = new Date(nowMs()).toISOString();
    const next: PropertyDefinition = {
      ...current,
      archived: true,
      archivedAt: now,
      updatedAt: now === current.updatedAt ? new Date(nowMs() + 1).toISOString() : now,
    };
    const outcome = await customProperties.replacePropertyDefinition(type, hubId, next, current.updatedAt, {
      releaseLabel: true,
    });
    if (outcome === 'replaced') return true;
  }
  throw new ConflictError(`Property ${name} is being changed by other requests; retry the request.`, {
    context: { propertyName: [name] },
  });
}

/** Batch read: one GetItem per custom name (standard ones need none); a missing name is an error entry. */
export async function batchReadProperties(
  type: ObjectType,
  hubId: number,
  names: readonly string[],
  isArchived: boolean,
): Promise<BatchResponse<PropertyDefinition>> {
  const startedAt = new Date(nowMs()).toISOString();
  const results: PropertyDefinition[] = [];
  const errors: BatchError[] = [];
  for (const name of [...new Set(names)]) {
    try {
      results.push(await getProperty(type, hubId, name, isArchived));
    } catch (error) {
      errors.push(batchErrorOf(error));
    }
  }
  return envelope(startedAt, results, errors);
}

/**
 * Batch create. Every input is checked on its own first (its fields and its size, as a create
 * checks them): one that no create could take refuses the whole batch (400 naming the input and its
 * field) before anything is read or written, and so do two inputs with one label (as labels compare:
 * 400 NON_UNIQUE_PROPERTY_LABEL naming the later one's label). Then each input is created on its own, in order: one
 * refused by the account's state (a taken name or label, a missing group, a cap) is an error entry
 * (207), the others stay.
 */
export async function batchCreateProperties(
  type: ObjectType,
  hubId: number,
  userId: number,
  inputs: readonly NewProperty[],
): Promise<BatchResponse<PropertyDefinition>> {
  const startedAt = new Date(nowMs()).toISOString();
  const inputError = (index: number, error: ValidationError): ValidationError =>
    new ValidationError(`inputs[${index}] (${inputs[index]?.name}): ${error.message}`, {
      ...(error.context ? { context: error.context } : {}),
      ...(error.errors ? { errors: error.errors } : {}),
    });
  const definitions = inputs.map((input, index) => {
    try {
      return prepareNewProperty(type, hubId, userId, input);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw inputError(index, error);
    }
  });
  // Two inputs with one label could never both be created: the batch is refused whole, as an input no create could take.
  const labelHolders = new Map<string, number>();
  definitions.forEach((definition, index) => {
    const label = customProperties.comparableLabel(definition.label);
    if (labelHolders.has(label)) throw inputError(index, propertyLabelTaken(type, definition.label));
    labelHolders.set(label, index);
  });
  const results: PropertyDefinition[] = [];
  const errors: BatchError[] = [];
  // One Query for the whole batch: each created property joins the catalog the next input is checked against.
  const catalog = await customProperties.listProperties(type, hubId);
  // A group found missing stays missing for the rest of the batch: its other inputs are refused without another write.
  const missingGroups = new Set<string>();
  for (const definition of definitions) {
    try {
      refuseStandardName(type, definition.name);
      if (missingGroups.has(definition.groupName)) throw propertyGroupMissing(definition.groupName);
      results.push(await insertNewProperty(type, hubId, definition, catalog));
    } catch (error) {
      if (isGroupMissing(error)) missingGroups.add(definition.groupName);
      errors.push(batchErrorOf(error));
    }
  }
  return envelope(startedAt, results, errors);
}

/** Batch archive answers 204 whatever the state: HubSpot-defined, missing and archived names are skipped. */
export async function batchArchiveProperties(type: ObjectType, hubId: number, names: readonly string[]): Promise<void> {
  for (const name of [...new Set(names)]) {
    if (standardOutlineOf(type).labels.has(name)) continue;
    await archiveProperty(type, hubId, name);
  }
}

const groupView = (group: PropertyGroup): PropertyGroup => ({
  name: group.name,
  label: group.label,
  displayOrder: group.displayOrder,
  archived: group.archived,
});

function groupNotFound(name: string): NotFoundError {
  return new NotFoundError(`Unable to find property group ${name}`, { context: { groupName: [name] } });
}

export async function listPropertyGroups(type: ObjectType, hubId: number): Promise<PropertyGroup[]> {
  const custom = (await customProperties.listPropertyGroups(type, hubId)).filter((group) => !group.archived);
  return [...standardOutlineOf(type).groups, ...custom].map(groupView);
}

async function findLiveGroup(type: ObjectType, hubId: number, name: string): Promise<PropertyGroup | undefined> {
  const standard = standardOutlineOf(type).groups.find((group) => group.name === name);
  if (standard) return standard;
  const custom = propertyNamePattern.test(name)
    ? await customProperties.findPropertyGroup(type, hubId, name)
    : undefined;
  return custom && !custom.archived ? custom : undefined;
}

export async function getPropertyGroup(type: ObjectType, hubId: number, name: string): Promise<PropertyGroup> {
  const group = await findLiveGroup(type, hubId, name);
  if (!group) throw groupNotFound(name);
  return groupView(group);
}

const propertyNamePattern = /^[a-z][a-z0-9_]{0,99}$/;

export async function createPropertyGroup(
  type: ObjectType,
  hubId: number,
  input: { name: string; label: string; displayOrder?: number },
): Promise<PropertyGroup> {
  if (!propertyNamePattern.test(input.name)) {
    throw new ValidationError(
      `Group name "${input.name}" is invalid: use lower-case letters, digits and underscores, starting with a letter`,
      { context: { name: [input.name] } },
    );
  }
  const group: PropertyGroup = {
    name: input.name,
    label: input.label,
    displayOrder: input.displayOrder ?? -1,
    archived: false,
    updatedAt: new Date(nowMs()).toISOString(),
  };
  // An archived group keeps its name, as an archived property does.
  if (
    standardOutlineOf(type).isStandardGroup(input.name) ||
    !(await customProperties.insertPropertyGroup(type, hubId, group))
  ) {
    throw new ObjectAlreadyExistsError(`A property group named "${input.name}" already exists.`, {
      context: { name: [input.name] },
    });
  }
  return groupView(group);
}

function refuseStandardGroup(type: ObjectType, name: string, action: string): void {
  if (standardOutlineOf(type).isStandardGroup(name)) {
    throw new ValidationError(`${name} is a HubSpot-defined property group and cannot be ${action}`, {
      context: { groupName: [name] },
    });
  }
}

export async function updatePropertyGroup(
  type: ObjectType,
  hubId: number,
  name: string,
  input: { label?: string; displayOrder?: number },
): Promise<PropertyGroup> {
  refuseStandardGroup(type, name, 'changed');
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const current = await findLiveGroup(type, hubId, name);
    if (!current) throw groupNotFound(name);
    const next: PropertyGroup = {
      ...current,
      label: input.label ?? current.label,
      displayOrder: input.displayOrder ?? current.displayOrder,
      updatedAt: new Date(nowMs()).toISOString(),
    };
    if (await customProperties.replacePropertyGroup(type, hubId, next, current)) return groupView(next);
  }
  throw new ConflictError(`Property group ${name} is being changed by other requests; retry the request.`, {
    context: { groupName: [name] },
  });
}

/** Archives a custom group; one that live properties still use is refused (move them first). */
export async function archivePropertyGroup(type: ObjectType, hubId: number, name: string): Promise<void> {
  refuseStandardGroup(type, name, 'archived');
  const current = await findLiveGroup(type, hubId, name);
  if (!current) throw groupNotFound(name);
  const users = (await customProperties.listProperties(type, hubId)).filter(
    (definition) => !definition.archived && definition.groupName === name,
  );
  if (users.length > 0) {
    throw new ValidationError(
      `Property group ${name} still holds properties: ${users.map((definition) => definition.name).join(', ')}`,
      { context: { groupName: [name] } },
    );
  }
  // Checked against the group as read, revision included: a property that moved in since fails it.
  if (
    !(await customProperties.replacePropertyGroup(
      type,
      hubId,
      { ...current, archived: true, updatedAt: new Date(nowMs()).toISOString() },
      current,
    ))
  ) {
    throw new ConflictError(`Property group ${name} is being changed by other requests; retry the request.`, {
      context: { groupName: [name] },
    });
  }
}
