import { editableFields } from '../properties/property.schema';

/** A schema's type id (`2-<id>`), fully qualified name (`p<hubId>_<name>`) or `p_<name>`. */
const schemaToken = { type: 'string', minLength: 1, maxLength: 200 } as const;
const shortText = { type: 'string', minLength: 1, maxLength: 400 } as const;
const propertyNames = {
  type: 'array',
  maxItems: 100,
  items: { type: 'string', minLength: 1, maxLength: 100 },
} as const;

const labels = {
  type: 'object',
  additionalProperties: true,
  properties: { singular: shortText, plural: shortText },
} as const;

/** The display and search fields a create sets and an update may change. */
const schemaFields = {
  description: { type: 'string', maxLength: 2000 },
  requiredProperties: propertyNames,
  searchableProperties: propertyNames,
  primaryDisplayProperty: { type: 'string', minLength: 1, maxLength: 100 },
  secondaryDisplayProperties: propertyNames,
} as const;

/** ObjectSchemaEgg: `name`, `labels` and `properties` required (the SDK's model also marks requiredProperties and associatedObjects; absent, they are empty). */
export const createSchemaBody = {
  type: 'object',
  required: ['name', 'labels', 'properties'],
  additionalProperties: true,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    labels: { ...labels, required: ['singular', 'plural'] },
    properties: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['name', 'label', 'type', 'fieldType'],
        additionalProperties: true,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          hasUniqueValue: { type: 'boolean' },
          ...editableFields,
        },
      },
    },
    associatedObjects: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 200 } },
    ...schemaFields,
  },
} as const;

/** ObjectTypeDefinitionPatch: every field optional. */
export const updateSchemaBody = {
  type: 'object',
  additionalProperties: true,
  properties: { labels, clearDescription: { type: 'boolean' }, ...schemaFields },
} as const;

export const schemaPath = {
  type: 'object',
  required: ['schemaType'],
  properties: { schemaType: schemaToken },
} as const;

export const schemaListQuery = {
  type: 'object',
  properties: { archived: { type: 'boolean', default: false } },
} as const;

export const schemaArchiveQuery = schemaListQuery;

/** AssociationDefinitionEgg. */
export const createSchemaAssociationBody = {
  type: 'object',
  required: ['fromObjectTypeId', 'toObjectTypeId'],
  additionalProperties: true,
  properties: {
    fromObjectTypeId: schemaToken,
    toObjectTypeId: schemaToken,
    name: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

export const schemaAssociationPath = {
  type: 'object',
  required: ['schemaType', 'associationIdentifier'],
  properties: { schemaType: schemaToken, associationIdentifier: { type: 'string', minLength: 1, maxLength: 20 } },
} as const;
