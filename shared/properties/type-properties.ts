import { nowMs } from '../base/clock';
import * as customProperties from '../db/property-definitions';
import { ConflictError, NotFoundError, ObjectAlreadyExistsError, ValidationError } from '../base/errors';
import type { ObjectType } from '../objects/object-types';
import { catalogOf, standardOutlineOf, standardRulesOf } from './standard-catalogs';
import type { FieldType, PropertyDefinition, PropertyOption, PropertyRules, PropertyType } from './property-definition';
import type { PropertyLookup } from './validate-property-values';
import { isObjectPrototypeName } from '../base/client-keys';

export interface PropertySchema extends PropertyLookup {
  /** Custom properties whose values must be unique in the hub. */
  uniqueProperties(): PropertyDefinition[];
}

function schemaOf(type: ObjectType, custom: readonly PropertyDefinition[]): PropertySchema {
  const byName = new Map(custom.map((definition) => [definition.name, definition]));
  return {
    find: (name) => standardRulesOf(type).find(name) ?? byName.get(name),
    uniqueProperties: () => custom.filter((definition) => definition.hasUniqueValue),
  };
}

/**
 * The definitions needed to check the given property names. Standard names need no read, so
 * the common create and update pay for no extra database call.
 */
export async function loadPropertySchema(
  type: ObjectType,
  hubId: number,
  names: Iterable<string>,
): Promise<PropertySchema> {
  for (const name of names) {
    if (!standardRulesOf(type).find(name))
      return schemaOf(
        type,
        (await customProperties.listProperties(type, hubId)).filter((definition) => !definition.archived),
      );
  }
  return schemaOf(type, []);
}

/** archived=true lists only archived properties, as HubSpot does; otherwise the live ones. */
export async function listProperties(
  type: ObjectType,
  hubId: number,
  isArchived = false,
): Promise<PropertyDefinition[]> {
  const custom = (await customProperties.listProperties(type, hubId)).filter(
    (definition) => definition.archived === isArchived,
  );
  return isArchived ? custom : [...catalogOf(type).properties, ...custom];
}

const propertyNamePattern = /^[a-z][a-z0-9_]{0,99}$/;

function propertyNotFound(name: string): NotFoundError {
  return new NotFoundError(`Unable to find property ${name}`, { context: { propertyName: [name] } });
}

/** A custom property as stored, when the name could be one (no read otherwise). */
async function storedProperty(type: ObjectType, hubId: number, name: string): Promise<PropertyDefinition | undefined> {
  return propertyNamePattern.test(name) ? customProperties.findPropertyDefinition(type, hubId, name) : undefined;
}

/** A live property, or with archived=true an archived custom one. */
export async function getProperty(
  type: ObjectType,
  hubId: number,
  name: string,
  isArchived = false,
): Promise<PropertyDefinition> {
  const definition = (isArchived ? undefined : catalogOf(type).find(name)) ?? (await storedProperty(type, hubId, name));
  if (!definition || definition.archived !== isArchived) throw propertyNotFound(name);
  return definition;
}

/**
 * A live custom property: what getProperty answers for a name that is not standard. The properties
 * API's writes refuse the standard names first, and their bundles then need no standard definitions.
 */
export async function getCustomProperty(type: ObjectType, hubId: number, name: string): Promise<PropertyDefinition> {
  const definition = await storedProperty(type, hubId, name);
  if (!definition || definition.archived) throw propertyNotFound(name);
  return definition;
}

/** A live property as the record functions read it: a standard one's rules, or the stored custom definition. */
export async function getPropertyRules(type: ObjectType, hubId: number, name: string): Promise<PropertyRules> {
  return standardRulesOf(type).find(name) ?? getCustomProperty(type, hubId, name);
}

/** Whether a standard property other than `exceptName` has the label (`wanted`: trimmed and lower-cased). */
export function isStandardLabel(type: ObjectType, wanted: string, exceptName: string): boolean {
  for (const [name, label] of standardOutlineOf(type).labels) {
    if (name !== exceptName && label.trim().toLowerCase() === wanted) return true;
  }
  return false;
}

export interface NewPropertyOption {
  label: string;
  value: string;
  displayOrder?: number;
  hidden?: boolean;
  description?: string;
}

export interface NewProperty {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  groupName: string;
  description?: string;
  options?: NewPropertyOption[];
  displayOrder?: number;
  hasUniqueValue?: boolean;
  hidden?: boolean;
  formField?: boolean;
}

const fieldTypesByType: Record<PropertyType, readonly FieldType[]> = {
  string: ['text', 'textarea', 'file', 'html'],
  number: ['number'],
  date: ['date'],
  datetime: ['date'],
  enumeration: ['select', 'radio', 'checkbox', 'booleancheckbox'],
  bool: ['booleancheckbox'],
  phone_number: ['phonenumber', 'text'],
};

/** A hub may define this many custom properties of one type (archived ones count); HubSpot allows 1,000 per object. */
export const maxCustomProperties = 1000;
/**
 * HubSpot allows 10 unique-value properties per object; the bound also keeps a company's
 * unique items (domain, 20 additional domains, these) inside one 100-item transaction.
 */
const maxUniqueProperties = 10;

export function checkNewProperty(input: NewProperty): PropertyOption[] {
  if (!propertyNamePattern.test(input.name)) {
    throw new ValidationError(
      `Property name "${input.name}" is invalid: use lower-case letters, digits and underscores, starting with a letter (at most 100 characters)`,
      {
        context: { name: [input.name] },
        errors: [{ message: 'invalid property name', code: 'INVALID_PROPERTY_NAME', in: 'name' }],
      },
    );
  }
  if (isObjectPrototypeName(input.name)) {
    throw new ValidationError(
      `Property name "${input.name}" is reserved: names of JavaScript object members cannot be property names`,
      {
        context: { name: [input.name] },
        errors: [{ message: 'reserved property name', code: 'RESERVED_PROPERTY_NAME', in: 'name' }],
      },
    );
  }
  if (!fieldTypesByType[input.type].includes(input.fieldType)) {
    throw new ValidationError(
      `fieldType "${input.fieldType}" does not fit type "${input.type}"; allowed: ${fieldTypesByType[input.type].join(', ')}`,
      { context: { fieldType: [input.fieldType] } },
    );
  }
  if (input.hasUniqueValue && input.type !== 'string' && input.type !== 'number') {
    throw new ValidationError('hasUniqueValue is only supported for string and number properties', {
      context: { hasUniqueValue: ['true'] },
    });
  }
  const given =
    input.type === 'bool' && !input.options?.length
      ? [
          { label: 'Yes', value: 'true' },
          { label: 'No', value: 'false' },
        ]
      : (input.options ?? []);
  if (input.type === 'enumeration' && given.length === 0) {
    throw new ValidationError('An enumeration property needs at least one option', {
      context: { options: ['missing'] },
    });
  }
  if (input.type !== 'enumeration' && input.type !== 'bool' && given.length > 0) {
    throw new ValidationError(`Options are only allowed for enumeration and bool properties, not "${input.type}"`, {
      context: { options: ['not allowed'] },
    });
  }
  const values = given.map((option) => option.value);
  const duplicates = values.filter((value, index) => values.indexOf(value) !== index);
  if (duplicates.length > 0) {
    throw new ValidationError(`Option values must be unique; repeated: ${[...new Set(duplicates)].join(', ')}`, {
      context: { options: [...new Set(duplicates)] },
    });
  }
  if (input.fieldType === 'checkbox' && values.some((value) => value.includes(';'))) {
    throw new ValidationError('Option values of a checkbox property may not contain ";"', {
      context: { options: values.filter((value) => value.includes(';')) },
    });
  }
  return given.map((option, index) => ({
    label: option.label,
    value: option.value,
    displayOrder: 'displayOrder' in option && option.displayOrder !== undefined ? option.displayOrder : index,
    hidden: 'hidden' in option ? (option.hidden ?? false) : false,
    ...('description' in option && option.description !== undefined ? { description: option.description } : {}),
  }));
}

/**
 * A create's input checked on its own, before anything is read or written: its fields
 * (checkNewProperty) and its size (requireStorableDefinition). The definition it gives is what
 * insertNewProperty writes.
 */
export function prepareNewProperty(
  type: ObjectType,
  hubId: number,
  userId: number,
  input: NewProperty,
): PropertyDefinition {
  const definition = newPropertyDefinition(input, checkNewProperty(input), userId);
  requireStorableDefinition(type, hubId, definition);
  return definition;
}

/**
 * Creates a custom property. `existing` is the hub's custom catalog when the caller has read it
 * already (a batch reads it once and adds each property it creates); otherwise one Query reads it.
 */
export async function createProperty(
  type: ObjectType,
  hubId: number,
  userId: number,
  input: NewProperty,
): Promise<PropertyDefinition> {
  const definition = prepareNewProperty(type, hubId, userId, input);
  refuseStandardName(type, definition.name);
  return insertNewProperty(type, hubId, definition, await customProperties.listProperties(type, hubId));
}

function propertyNameTaken(name: string): ObjectAlreadyExistsError {
  return new ObjectAlreadyExistsError(`A property named "${name}" already exists.`, { context: { name: [name] } });
}

export function refuseStandardName(type: ObjectType, name: string): void {
  if (standardOutlineOf(type).labels.has(name)) throw propertyNameTaken(name);
}

/** HubSpot's answer for a label another property of the type has (400 NON_UNIQUE_PROPERTY_LABEL). */
export function propertyLabelTaken(type: ObjectType, label: string): ValidationError {
  return new ValidationError(
    `NON_UNIQUE_PROPERTY_LABEL: a ${type.singular} property with the label "${label}" already exists`,
    {
      context: { label: [label] },
      errors: [{ message: 'The label is used by another property', code: 'NON_UNIQUE_PROPERTY_LABEL', in: 'label' }],
    },
  );
}

/**
 * Whether a property other than `exceptName`, standard or live custom (of `catalog`), has the label
 * as labels compare. An archived property's label is free (archiving releases its claim).
 */
export function isLabelTaken(
  type: ObjectType,
  catalog: readonly PropertyDefinition[],
  label: string,
  exceptName: string,
): boolean {
  const wanted = customProperties.comparableLabel(label);
  return (
    isStandardLabel(type, wanted, exceptName) ||
    catalog.some(
      (definition) =>
        definition.name !== exceptName &&
        !definition.archived &&
        customProperties.comparableLabel(definition.label) === wanted,
    )
  );
}

/**
 * Writes a prepared definition (prepareNewProperty) whose name is not a standard one. `existing` is
 * the hub's custom catalog as read: it refuses a taken name or label and the caps early, and gets
 * the definition once written. The write itself holds them: the label's claim and the count item
 * are in its transaction.
 */
export async function insertNewProperty(
  type: ObjectType,
  hubId: number,
  definition: PropertyDefinition,
  existing: PropertyDefinition[],
): Promise<PropertyDefinition> {
  if (existing.some((stored) => stored.name === definition.name)) throw propertyNameTaken(definition.name);
  if (isLabelTaken(type, existing, definition.label, definition.name)) throw propertyLabelTaken(type, definition.label);
  // Refused early from the catalog as read; the count item written with the definition is what holds the caps.
  if (definition.hasUniqueValue && existing.filter((stored) => stored.hasUniqueValue).length >= maxUniqueProperties)
    throw tooManyUniqueProperties(type);
  if (existing.length >= maxCustomProperties) throw tooManyProperties(type, definition.name);
  const outcome = await customProperties.insertPropertyDefinition(
    type,
    hubId,
    definition,
    { definitions: maxCustomProperties, uniqueDefinitions: maxUniqueProperties },
    {
      customGroup: standardOutlineOf(type).isStandardGroup(definition.groupName) ? undefined : definition.groupName,
      catalog: existing,
    },
  );
  if (outcome === 'name-taken') throw propertyNameTaken(definition.name);
  if (outcome === 'label-taken') throw propertyLabelTaken(type, definition.label);
  if (outcome === 'group-missing') throw propertyGroupMissing(definition.groupName);
  if (outcome === 'too-many-unique') throw tooManyUniqueProperties(type);
  if (outcome === 'too-many') throw tooManyProperties(type, definition.name);
  if (outcome === 'contended')
    throw new ConflictError("The account's properties are being changed by other requests; retry the request.", {
      context: { name: [definition.name] },
    });
  existing.push(definition);
  return definition;
}

/** A new custom definition of a checked input (checkNewProperty gave its options), created now by `userId`. */
export function newPropertyDefinition(
  input: NewProperty,
  options: PropertyDefinition['options'],
  userId: number,
): PropertyDefinition {
  const now = new Date(nowMs()).toISOString();
  return {
    name: input.name,
    label: input.label,
    type: input.type,
    fieldType: input.fieldType,
    description: input.description ?? '',
    groupName: input.groupName,
    options,
    displayOrder: input.displayOrder ?? -1,
    calculated: false,
    externalOptions: false,
    hasUniqueValue: input.hasUniqueValue ?? false,
    hidden: input.hidden ?? false,
    hubspotDefined: false,
    formField: input.formField ?? false,
    dataSensitivity: 'non_sensitive',
    modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
    archived: false,
    createdAt: now,
    updatedAt: now,
    createdUserId: String(userId),
    updatedUserId: String(userId),
  };
}

function tooManyUniqueProperties(type: ObjectType): ValidationError {
  return new ValidationError(
    `An account may define at most ${maxUniqueProperties} ${type.singular} properties with unique values`,
    { context: { hasUniqueValue: ['true'] } },
  );
}

function tooManyProperties(type: ObjectType, name: string): ValidationError {
  return new ValidationError(
    `An account may define at most ${maxCustomProperties} custom ${type.singular} properties`,
    {
      context: { name: [name] },
    },
  );
}

/** Whether an error is propertyGroupMissing's. */
export function isGroupMissing(error: unknown): boolean {
  return error instanceof ValidationError && error.errors?.[0]?.code === 'PROPERTY_GROUP_NOT_FOUND';
}

export function propertyGroupMissing(groupName: string): ValidationError {
  return new ValidationError(
    `Property group ${groupName} does not exist (or is archived): create it first, or use one of the listed groups`,
    {
      context: { groupName: [groupName] },
      errors: [{ message: 'No live property group has this name', code: 'PROPERTY_GROUP_NOT_FOUND', in: 'groupName' }],
    },
  );
}

/**
 * A definition DynamoDB could not store in one item is refused before anything is written. Only
 * the options can make one that large (every other field is short), so the error names them.
 */
export function requireStorableDefinition(type: ObjectType, hubId: number, definition: PropertyDefinition): void {
  const bytes = customProperties.propertyItemBytes(type, hubId, definition);
  if (bytes <= customProperties.maxPropertyItemBytes) return;
  const message = `The property definition would take ${bytes} bytes; one definition may take at most ${customProperties.maxPropertyItemBytes}: use fewer or shorter options`;
  throw new ValidationError(message, {
    context: { options: [String(definition.options.length)] },
    errors: [{ message, code: 'TOO_LARGE', in: 'options' }],
  });
}
