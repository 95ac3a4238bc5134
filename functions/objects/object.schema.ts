import { objectTypePath, objectTypeToken } from './object-type-path.schema';

export { objectTypePath };

/** Property maps: values are strings on the wire; numbers, booleans and null are tolerated. */
export const propertyValues = {
  type: 'object',
  maxProperties: 1000,
  // No propertyNames rule: a name no property has (empty or 255+ characters included) is answered by the values'
  // check (400 naming it, PROPERTY_DOESNT_EXIST); the rule's three errors would add about 0.4 KiB to each body validator.
  // One type list, not anyOf: one check and one error per bad value ("must be string,number,boolean,null"); anyOf's four branches would add about 1.5 KiB to each body validator.
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
} as const;

/** The association types of one pair, as a create names them (`{associationCategory?, associationTypeId}`). */
export const associationSpecs = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: {
    type: 'object',
    required: ['associationTypeId'],
    properties: {
      associationCategory: { type: 'string', enum: ['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED'] },
      associationTypeId: { type: 'integer', minimum: 0, maximum: 999999999 },
    },
  },
} as const;

export const associationInputs = {
  type: 'array',
  maxItems: 1000,
  items: {
    type: 'object',
    required: ['to', 'types'],
    properties: {
      to: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
      types: associationSpecs,
    },
  },
} as const;

export const createObjectBody = {
  type: 'object',
  required: ['properties'],
  properties: {
    properties: propertyValues,
    associations: associationInputs,
    objectWriteTraceId: { type: 'string', maxLength: 200 },
  },
} as const;

export const updateObjectBody = {
  type: 'object',
  required: ['properties'],
  properties: { properties: propertyValues, objectWriteTraceId: { type: 'string', maxLength: 200 } },
} as const;

export const objectIdPath = {
  type: 'object',
  required: ['objectType', 'objectId'],
  properties: { objectType: objectTypeToken, objectId: { type: 'string', minLength: 1, maxLength: 2048 } },
} as const;

const nameList = { type: 'string', maxLength: 10000 } as const;

export const readObjectQuery = {
  type: 'object',
  properties: {
    properties: nameList,
    propertiesWithHistory: nameList,
    associations: nameList,
    archived: { type: 'boolean' },
    idProperty: { type: 'string', minLength: 1, maxLength: 255 },
  },
} as const;

export const listObjectsQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    after: { type: 'string', maxLength: 100 },
    properties: nameList,
    propertiesWithHistory: nameList,
    associations: nameList,
    archived: { type: 'boolean' },
  },
} as const;

export const idPropertyQuery = {
  type: 'object',
  properties: { idProperty: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;
