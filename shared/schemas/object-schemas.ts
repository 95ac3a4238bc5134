import { nowMs } from '../base/clock';
import { ConflictError, NotFoundError, ObjectAlreadyExistsError, ValidationError } from '../base/errors';
import { requireAssociationLabelName } from '../association-types/association-labels';
import {
  allocateAssociationTypeIds,
  associationTypeKeysOf,
  newAssociationTypeWrites,
  updateCustomAssociationTypes,
  type AssociationType,
} from '../db/association-labels';
import { nextSequenceValue } from '../db/counters';
import { maxTransactionItems } from '../db/core';
import { closingMs } from '../db/order-index';
import { catalogConflictRetryPolicy, conflicted, retryOnConflict } from '../base/retry';
import {
  archiveClosedSchema,
  closeSchemaRecords,
  deleteObjectSchema,
  hasActiveRecords,
  reopenSchemaRecords,
  type SchemaCloseOutcome,
  insertObjectSchema,
  listObjectSchemas,
  replaceObjectSchema,
  replaceSchemaWrite,
  type SchemaAssociation,
  type StoredObjectSchema,
} from '../db/object-schemas';
import * as customProperties from '../db/property-definitions';
import { recordListPrefix } from '../db/keys';
import { schemaAssociationTypes, schemaNamedBy, typeOfSchema } from '../objects/account-object-types';
import { customObjectType, customTypeIdPattern, fullyQualifiedNameOf } from '../objects/custom-object-types';
import { findObjectType, type ObjectType } from '../objects/object-types';
import {
  isReadOnly,
  type PropertyDefinition,
  type PropertyGroup,
  type PropertyRules,
} from '../properties/property-definition';
import { standardRulesOf } from '../properties/standard-catalogs';
import {
  checkNewProperty,
  isStandardLabel,
  newPropertyDefinition,
  propertyLabelTaken,
  type NewProperty,
} from '../properties/type-properties';

/**
 * Custom object schemas (`/crm-object-schemas/v3/schemas`, the SDK's `crm.schemas.coreApi`,
 * reference/HUBSPOT-WIRE-FACTS-3.md §6): an account defines its own object types, whose records the
 * object engine then serves like any other (`/crm/v3/objects/2-<id>`). A schema's create stores,
 * in one transaction, the schema, the claim of its name, its place in the account's count, its
 * properties (the type's custom catalog, in the group `<name>_information`) and its association
 * definitions (USER_DEFINED association types, both directions).
 */

/** HubSpot's limit on custom object types of one account (archived ones count until deleted for good). */
export const maxSchemasPerAccount = 10;
/**
 * What a create writes in its one transaction besides its properties and associations: the count,
 * the schema, its name claim, its property group and its catalog's count item.
 */
const fixedSchemaWrites = 5;
/** A property's writes: its definition and the claim of its label. */
const writesPerSchemaProperty = 2;
/** An associated object type's writes: two association types (one a direction), each a label item and an id pointer. */
const writesPerAssociatedObject = 4;
/** The items of a create's transaction with `properties` properties and `associatedObjects` associated types. */
const schemaCreateWrites = (properties: number, associatedObjects: number): number =>
  fixedSchemaWrites + properties * writesPerSchemaProperty + associatedObjects * writesPerAssociatedObject;
/** Properties a create may define without associations (the rest through the properties API): one transaction holds them all. */
export const maxSchemaProperties = Math.floor((maxTransactionItems - fixedSchemaWrites) / writesPerSchemaProperty);
/** Object types a create may associate the new type with (two association types each). */
export const maxAssociatedObjects = 10;
/** Association definitions a schema may hold. */
const maxSchemaAssociations = 50;
const maxUniqueSchemaProperties = 10;
/** The first schema id: custom type ids are `2-<id>`, unique across the service. */
const firstSchemaId = 1_000_001;

const schemaNamePattern = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

export interface ObjectSchemaEgg {
  name: string;
  labels: { singular?: string; plural?: string };
  description?: string;
  properties?: readonly (Omit<NewProperty, 'groupName'> & { groupName?: string })[];
  requiredProperties?: readonly string[];
  searchableProperties?: readonly string[];
  primaryDisplayProperty?: string;
  secondaryDisplayProperties?: readonly string[];
  associatedObjects?: readonly string[];
}

export interface ObjectSchemaPatch {
  labels?: { singular?: string; plural?: string };
  description?: string;
  clearDescription?: boolean;
  requiredProperties?: readonly string[];
  searchableProperties?: readonly string[];
  primaryDisplayProperty?: string;
  secondaryDisplayProperties?: readonly string[];
}

/** AssociationDefinition of the API. */
export interface AssociationDefinitionView {
  id: string;
  fromObjectTypeId: string;
  toObjectTypeId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** ObjectTypeDefinition of the API (what a PATCH answers): the schema as stored, without its bookkeeping and associations, with its names. */
export type ObjectTypeDefinitionView = Omit<
  StoredObjectSchema,
  'associations' | 'archivedAssociations' | 'revision' | 'archivedAt'
> & {
  objectTypeId: string;
  fullyQualifiedName: string;
  portalId: number;
};

/** ObjectSchema of the API. */
export interface ObjectSchemaView extends Omit<ObjectTypeDefinitionView, 'portalId'> {
  properties: PropertyDefinition[];
  associations: AssociationDefinitionView[];
}

/** The labels a body gives (singular, plural), without any other key it carries. */
const labelsOf = (labels: { singular?: string; plural?: string }): { singular?: string; plural?: string } => ({
  ...(labels.singular === undefined ? {} : { singular: labels.singular }),
  ...(labels.plural === undefined ? {} : { plural: labels.plural }),
});

function definitionView(hubId: number, schema: StoredObjectSchema): ObjectTypeDefinitionView {
  return {
    id: schema.id,
    name: schema.name,
    labels: schema.labels,
    ...(schema.description === undefined ? {} : { description: schema.description }),
    requiredProperties: schema.requiredProperties,
    searchableProperties: schema.searchableProperties,
    ...(schema.primaryDisplayProperty === undefined ? {} : { primaryDisplayProperty: schema.primaryDisplayProperty }),
    secondaryDisplayProperties: schema.secondaryDisplayProperties,
    objectTypeId: `2-${schema.id}`,
    fullyQualifiedName: fullyQualifiedNameOf({ hubId, name: schema.name }),
    portalId: hubId,
    archived: schema.archived,
    createdAt: schema.createdAt,
    updatedAt: schema.updatedAt,
    ...(schema.createdByUserId === undefined ? {} : { createdByUserId: schema.createdByUserId }),
    ...(schema.updatedByUserId === undefined ? {} : { updatedByUserId: schema.updatedByUserId }),
  };
}

const associationView = ({ inverseId: _inverse, ...definition }: SchemaAssociation): AssociationDefinitionView =>
  definition;

/** The schema as the API returns it; `properties` when the caller has them (a create), else its live custom definitions are read. */
async function schemaView(
  hubId: number,
  schema: StoredObjectSchema,
  properties?: PropertyDefinition[],
): Promise<ObjectSchemaView> {
  const { portalId: _portal, ...definition } = definitionView(hubId, schema);
  const live =
    properties ??
    (await customProperties.listProperties(typeOfSchema(hubId, schema), hubId)).filter(
      (property) => !property.archived,
    );
  return { ...definition, properties: live, associations: schema.associations.map(associationView) };
}

function schemaNotFound(token: string): NotFoundError {
  return new NotFoundError(`Unable to find object schema ${token}`, { context: { objectType: [token] } });
}

/** The live schema a token names (type id, fully qualified name or `p_<name>`), or 404 naming the token. */
async function requireLiveSchema(hubId: number, token: string): Promise<StoredObjectSchema> {
  const schema = schemaNamedBy(hubId, await listObjectSchemas(hubId), token.trim());
  if (!schema) throw schemaNotFound(token);
  return schema;
}

function invalidNames(field: string, names: readonly string[], reason: string): ValidationError {
  return new ValidationError(`${field} ${reason}: ${names.join(', ')}`, { context: { [field]: [...names] } });
}

/** Each list of property names (required, searchable, display) names properties the type has; required ones can be set by a client. */
function checkPropertyLists(
  lists: Pick<
    ObjectSchemaPatch,
    'requiredProperties' | 'searchableProperties' | 'secondaryDisplayProperties' | 'primaryDisplayProperty'
  >,
  known: (name: string) => PropertyRules | undefined,
): void {
  const named: [string, readonly string[] | undefined][] = [
    ['requiredProperties', lists.requiredProperties],
    ['searchableProperties', lists.searchableProperties],
    ['secondaryDisplayProperties', lists.secondaryDisplayProperties],
    ['primaryDisplayProperty', lists.primaryDisplayProperty === undefined ? undefined : [lists.primaryDisplayProperty]],
  ];
  for (const [field, names] of named) {
    const unknown = (names ?? []).filter((name) => !known(name));
    if (unknown.length > 0) throw invalidNames(field, unknown, 'names properties the object type does not have');
  }
  const readOnly = (lists.requiredProperties ?? []).filter((name) => {
    const rules = known(name);
    return rules !== undefined && isReadOnly(rules);
  });
  if (readOnly.length > 0) throw invalidNames('requiredProperties', readOnly, 'names read-only properties');
}

/** The stored types a create's `associatedObjects` names (`CONTACT`, `0-1`, `contacts`, or a live custom type of the account). */
function associatedTypes(
  hubId: number,
  tokens: readonly string[],
  schemas: readonly StoredObjectSchema[],
): ObjectType[] {
  const types = new Map<string, ObjectType>();
  for (const token of tokens) {
    const standard = findObjectType(token);
    const custom = customTypeIdPattern.test(token.trim()) ? schemaNamedBy(hubId, schemas, token.trim()) : undefined;
    const type = standard ?? (custom ? typeOfSchema(hubId, custom) : undefined);
    if (!type?.isStored)
      throw invalidNames('associatedObjects', [token], 'names no object type whose records this account stores');
    types.set(type.id, type);
  }
  return [...types.values()];
}

/** The association definition from `from` to `to` (and its inverse, unless they are one type) on the ids allocated for it. */
function newAssociation(
  from: { id: string; name: string },
  to: ObjectType,
  name: string,
  firstId: number,
  now: string,
): SchemaAssociation {
  const isSelf = to.id === from.id;
  return {
    id: String(firstId),
    fromObjectTypeId: from.id,
    toObjectTypeId: to.id,
    name,
    inverseId: String(isSelf ? firstId : firstId + 1),
    createdAt: now,
    updatedAt: now,
  };
}

const defaultAssociationName = (schemaName: string, to: ObjectType): string =>
  `${schemaName}_to_${to.singular}`.toLowerCase();

export async function createObjectSchema(
  hubId: number,
  userId: number,
  egg: ObjectSchemaEgg,
): Promise<ObjectSchemaView> {
  if (!schemaNamePattern.test(egg.name)) {
    throw new ValidationError(
      `Object schema name "${egg.name}" is invalid: use letters, digits and underscores, starting with a letter (at most 100 characters)`,
      { context: { name: [egg.name] } },
    );
  }
  const groupName = `${egg.name.toLowerCase()}_information`;
  // The system catalog every custom type shares: what the new properties may not take the names and labels of.
  const catalogType = customObjectType({
    id: '0',
    hubId,
    name: egg.name,
    requiredProperties: [],
    searchableProperties: [],
  });
  const inputs = (egg.properties ?? []).map((input) => ({ ...input, groupName: input.groupName ?? groupName }));
  const definitions: PropertyDefinition[] = [];
  const labels = new Set<string>();
  for (const input of inputs) {
    const options = checkNewProperty(input);
    if (input.groupName !== groupName && input.groupName !== 'object_information') {
      throw new ValidationError(
        `Property ${input.name} names group ${input.groupName}: a new object type's properties go to ${groupName} (or object_information)`,
        { context: { groupName: [input.groupName] } },
      );
    }
    const label = customProperties.comparableLabel(input.label);
    if (
      definitions.some((definition) => definition.name === input.name) ||
      standardRulesOf(catalogType).find(input.name)
    ) {
      throw new ObjectAlreadyExistsError(`A property named "${input.name}" already exists.`, {
        context: { name: [input.name] },
      });
    }
    // Two of the schema's own properties with one label are refused like a label the type has: each label is claimed in the create's transaction.
    if (labels.has(label) || isStandardLabel(catalogType, label, input.name))
      throw propertyLabelTaken(catalogType, input.label);
    labels.add(label);
    definitions.push(newPropertyDefinition(input, options, userId));
  }
  if (definitions.filter((definition) => definition.hasUniqueValue).length > maxUniqueSchemaProperties) {
    throw new ValidationError(
      `An object type may have at most ${maxUniqueSchemaProperties} properties with unique values`,
      {
        context: { properties: ['hasUniqueValue'] },
      },
    );
  }
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  checkPropertyLists(egg, (name) => byName.get(name) ?? standardRulesOf(catalogType).find(name));

  const schemas = await listObjectSchemas(hubId);
  // Refused early from the listing as read; the count and name items written with the schema are what hold both rules.
  if (schemas.some((schema) => schema.name.toLowerCase() === egg.name.toLowerCase())) throw schemaNameTaken(egg.name);
  if (schemas.length >= maxSchemasPerAccount) throw tooManySchemas(egg.name);
  const targets = associatedTypes(hubId, egg.associatedObjects ?? [], schemas);
  // Refused before an id is allocated: everything the create writes must fit one transaction.
  if (schemaCreateWrites(definitions.length, targets.length) > maxTransactionItems) {
    const fitting = Math.floor((maxTransactionItems - schemaCreateWrites(0, targets.length)) / writesPerSchemaProperty);
    throw new ValidationError(
      `A schema create writes its properties, their labels and its association definitions in one transaction: ` +
        `with ${targets.length} associated object types it may define at most ${fitting} properties (it defines ${definitions.length}); ` +
        'create the others through the properties API',
      { context: { properties: [String(definitions.length)] } },
    );
  }

  const id = String(await nextSequenceValue('objectSchemaId', firstSchemaId));
  const typeId = `2-${id}`;
  const now = new Date(nowMs()).toISOString();
  const firstAssociationId = targets.length > 0 ? await allocateAssociationTypeIds(hubId, targets.length * 2) : 0;
  const associations = targets.map((target, index) =>
    newAssociation(
      { id: typeId, name: egg.name },
      target,
      defaultAssociationName(egg.name, target),
      firstAssociationId + index * 2,
      now,
    ),
  );
  const schema: StoredObjectSchema = {
    id,
    name: egg.name,
    labels: labelsOf(egg.labels),
    ...(egg.description === undefined ? {} : { description: egg.description }),
    requiredProperties: [...(egg.requiredProperties ?? [])],
    searchableProperties: [...(egg.searchableProperties ?? [])],
    ...(egg.primaryDisplayProperty === undefined ? {} : { primaryDisplayProperty: egg.primaryDisplayProperty }),
    secondaryDisplayProperties: [...(egg.secondaryDisplayProperties ?? [])],
    associations,
    archived: false,
    createdAt: now,
    updatedAt: now,
    createdByUserId: userId,
    updatedByUserId: userId,
    revision: 0,
  };
  const type = typeOfSchema(hubId, schema);
  const group: PropertyGroup = {
    name: groupName,
    label: `${egg.labels.singular ?? egg.name} information`,
    displayOrder: -1,
    archived: false,
  };
  const alongside = [
    ...customProperties.newCatalogWrites(type, hubId, [group], definitions),
    ...newAssociationTypeWrites(hubId, schemaAssociationTypes(schema)),
  ];
  // Checked above (schemaCreateWrites); this keeps a change of what a create writes from failing late.
  if (alongside.length + 3 > maxTransactionItems) throw new Error(`schema create needs ${alongside.length + 3} writes`);
  const outcome = await insertObjectSchema(hubId, schema, maxSchemasPerAccount, alongside);
  if (outcome === 'name-taken') throw schemaNameTaken(egg.name);
  if (outcome === 'too-many') throw tooManySchemas(egg.name);
  if (outcome === 'contended')
    throw new ConflictError("The account's object schemas are being changed by other requests; retry the request.", {
      context: { name: [egg.name] },
    });
  return schemaView(hubId, schema, definitions);
}

function tooManySchemas(name: string): ValidationError {
  return new ValidationError(
    `An account may define at most ${maxSchemasPerAccount} custom object types (archived ones count until deleted for good)`,
    { context: { name: [name] } },
  );
}

function schemaNameTaken(name: string): ObjectAlreadyExistsError {
  return new ObjectAlreadyExistsError(`An object schema named ${name} already exists in this account`, {
    context: { name: [name] },
  });
}

/** archived=true lists only archived schemas, as the properties API does; otherwise the live ones. */
export async function listObjectSchemaViews(hubId: number, isArchived = false): Promise<ObjectSchemaView[]> {
  const schemas = (await listObjectSchemas(hubId)).filter((schema) => schema.archived === isArchived);
  return Promise.all(schemas.map((schema) => schemaView(hubId, schema)));
}

export async function getObjectSchema(hubId: number, token: string): Promise<ObjectSchemaView> {
  return schemaView(hubId, await requireLiveSchema(hubId, token));
}

function contended(token: string): ConflictError {
  return new ConflictError(`The object schema ${token} was changed by another request; retry the request.`, {
    context: { objectType: [token] },
  });
}

export async function updateObjectSchema(
  hubId: number,
  userId: number,
  token: string,
  patch: ObjectSchemaPatch,
): Promise<ObjectTypeDefinitionView> {
  const schema = await requireLiveSchema(hubId, token);
  const type = typeOfSchema(hubId, schema);
  const custom = new Map(
    (await customProperties.listProperties(type, hubId))
      .filter((definition) => !definition.archived)
      .map((definition) => [definition.name, definition]),
  );
  checkPropertyLists(patch, (name) => custom.get(name) ?? standardRulesOf(type).find(name));
  // Only the fields a patch may change are read: the body may carry others (additionalProperties).
  const next: StoredObjectSchema = {
    ...schema,
    ...(patch.requiredProperties ? { requiredProperties: [...patch.requiredProperties] } : {}),
    ...(patch.searchableProperties ? { searchableProperties: [...patch.searchableProperties] } : {}),
    ...(patch.secondaryDisplayProperties ? { secondaryDisplayProperties: [...patch.secondaryDisplayProperties] } : {}),
    ...(patch.primaryDisplayProperty === undefined ? {} : { primaryDisplayProperty: patch.primaryDisplayProperty }),
    ...(patch.labels ? { labels: { ...schema.labels, ...labelsOf(patch.labels) } } : {}),
    ...(patch.description === undefined ? {} : { description: patch.description }),
    updatedAt: new Date(nowMs()).toISOString(),
    updatedByUserId: userId,
  };
  if (patch.clearDescription) delete next.description;
  if (!(await replaceObjectSchema(hubId, next, schema.revision))) throw contended(token);
  return definitionView(hubId, { ...next, revision: schema.revision + 1 });
}

/**
 * Archives a schema (204), refused with 400 while the type has active records (archived records do
 * not block it); with `forGood` (`?archived=true`), deletes an archived schema and what it defined.
 * The refusal holds against creates racing it: the archive first closes the type's records (one
 * transaction of the schema's check and the type's counters, which every create's transaction writes
 * on the condition that they are open), then reads whether any record is active, which now is final,
 * then archives the schema and closes the counters for good in one transaction, or opens them again
 * and refuses. A create meeting the closing waits for its outcome (saveWithRetries).
 */
export async function archiveObjectSchema(hubId: number, token: string, forGood: boolean): Promise<void> {
  if (forGood) return deleteArchivedSchema(hubId, token);
  const schema = await requireLiveSchema(hubId, token);
  const type = typeOfSchema(hubId, schema);
  const stillHasRecords = () =>
    new ValidationError(`Object type ${type.name} (${type.id}) still has records: archive them before the schema`, {
      context: { objectType: [token] },
    });
  const hasRecords = () => hasActiveRecords(hubId, recordListPrefix(type, false));
  // Records already there refuse it at once, nothing closed.
  if (await hasRecords()) throw stillHasRecords();
  const now = nowMs();
  const held = now + closingMs;
  const closed = await untilUncontended(() => closeSchemaRecords(hubId, schema, type, held, now));
  if (closed !== 'done') throw contended(token);
  if (await hasRecords()) {
    await untilUncontended(() => reopenSchemaRecords(hubId, type, held));
    throw stillHasRecords();
  }
  const archivedAt = new Date(nowMs()).toISOString();
  const archived = { ...schema, archived: true, archivedAt, updatedAt: archivedAt };
  const outcome =
    nowMs() < held
      ? await untilUncontended(() => archiveClosedSchema(hubId, archived, schema.revision, type, held, nowMs()))
      : 'changed';
  if (outcome !== 'done') {
    await untilUncontended(() => reopenSchemaRecords(hubId, type, held));
    throw contended(token);
  }
}

/** A schema transaction tried again while it meets only conflicts (creates writing the same counters), a few short rounds. */
function untilUncontended(write: () => Promise<SchemaCloseOutcome>): Promise<SchemaCloseOutcome> {
  return retryOnConflict(
    async () => {
      const outcome = await write();
      return outcome === 'contended' ? conflicted : outcome;
    },
    () => 'contended' as const,
    catalogConflictRetryPolicy,
  );
}

async function deleteArchivedSchema(hubId: number, token: string): Promise<void> {
  const trimmed = token.trim();
  const schemas = await listObjectSchemas(hubId);
  const schema = schemaNamedBy(hubId, schemas, trimmed, true);
  if (!schema) {
    if (schemaNamedBy(hubId, schemas, trimmed)) {
      throw new ValidationError(`Object schema ${token} is not archived: archive it before deleting it for good`, {
        context: { objectType: [token] },
      });
    }
    throw schemaNotFound(token);
  }
  const type = typeOfSchema(hubId, schema);
  const definedKeys = [
    ...(await customProperties.catalogKeysOf(type, hubId)),
    ...schemaAssociationTypes({
      associations: [...schema.associations, ...(schema.archivedAssociations ?? [])],
    }).flatMap((association) => associationTypeKeysOf(hubId, association)),
  ];
  if (!(await deleteObjectSchema(hubId, schema, definedKeys))) throw contended(token);
}

export interface NewAssociationDefinition {
  fromObjectTypeId: string;
  toObjectTypeId: string;
  name?: string;
}

export async function createSchemaAssociation(
  hubId: number,
  token: string,
  input: NewAssociationDefinition,
): Promise<AssociationDefinitionView> {
  const schemas = await listObjectSchemas(hubId);
  const schema = schemaNamedBy(hubId, schemas, token.trim());
  if (!schema) throw schemaNotFound(token);
  const from = typeOfSchema(hubId, schema);
  if (!schemaNamedBy(hubId, [schema], input.fromObjectTypeId.trim())) {
    throw invalidNames(
      'fromObjectTypeId',
      [input.fromObjectTypeId],
      `is not the object type of this schema (${from.id})`,
    );
  }
  const [to] = associatedTypes(hubId, [input.toObjectTypeId], schemas);
  if (!to) throw invalidNames('toObjectTypeId', [input.toObjectTypeId], 'names no object type');
  const name = input.name ?? defaultAssociationName(schema.name, to);
  requireAssociationLabelName(name);
  if (schema.associations.some((association) => association.name === name)) {
    throw new ObjectAlreadyExistsError(`The schema ${schema.name} already has an association named ${name}`, {
      context: { name: [name] },
    });
  }
  if (schema.associations.length >= maxSchemaAssociations) {
    throw new ValidationError(`An object schema may hold at most ${maxSchemaAssociations} association definitions`, {
      context: { toObjectTypeId: [input.toObjectTypeId] },
    });
  }
  const now = new Date(nowMs()).toISOString();
  const firstId = await allocateAssociationTypeIds(hubId, to.id === from.id ? 1 : 2);
  const association = newAssociation(from, to, name, firstId, now);
  const next = { ...schema, associations: [...schema.associations, association], updatedAt: now };
  const written = await replaceObjectSchema(
    hubId,
    next,
    schema.revision,
    newAssociationTypeWrites(hubId, schemaAssociationTypes({ associations: [association] })),
  );
  if (!written) throw contended(token);
  return associationView(association);
}

/** Archives an association definition (both directions): records associated through it stay associated. */
export async function archiveSchemaAssociation(hubId: number, token: string, associationId: string): Promise<void> {
  const schema = await requireLiveSchema(hubId, token);
  const association = schema.associations.find((candidate) => candidate.id === associationId);
  if (!association) {
    throw new NotFoundError(`Object schema ${token} has no association definition ${associationId}`, {
      context: { associationIdentifier: [associationId] },
    });
  }
  const types: AssociationType[] = schemaAssociationTypes({ associations: [association] });
  const next = {
    ...schema,
    associations: schema.associations.filter((candidate) => candidate !== association),
    archivedAssociations: [...(schema.archivedAssociations ?? []), association],
    updatedAt: new Date(nowMs()).toISOString(),
  };
  await updateCustomAssociationTypes(
    hubId,
    types.map((type) => ({ type, archived: true })),
    [replaceSchemaWrite(hubId, next, schema.revision)],
  );
}
