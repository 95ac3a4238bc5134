import { associationInputs, propertyValues } from './object.schema';

/** HubSpot's limit for every batch route; more is a 400 VALIDATION_ERROR. */
const maxInputs = 100;
const recordId = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const names = { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 255 } } as const;
const traceId = { type: 'string', maxLength: 200 } as const;

export const batchReadBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxInputs,
      items: { type: 'object', required: ['id'], properties: { id: recordId } },
    },
    properties: names,
    propertiesWithHistory: names,
    idProperty: { type: 'string', minLength: 1, maxLength: 255 },
  },
} as const;

export const batchReadQuery = {
  type: 'object',
  properties: { archived: { type: 'boolean' } },
} as const;

export const batchCreateBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxInputs,
      items: {
        type: 'object',
        required: ['properties'],
        properties: { properties: propertyValues, associations: associationInputs, objectWriteTraceId: traceId },
      },
    },
  },
} as const;

export const batchUpdateBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxInputs,
      items: {
        type: 'object',
        required: ['id', 'properties'],
        properties: {
          id: recordId,
          idProperty: { type: 'string', minLength: 1, maxLength: 255 },
          properties: propertyValues,
          objectWriteTraceId: traceId,
        },
      },
    },
  },
} as const;

export const batchArchiveBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxInputs,
      items: { type: 'object', required: ['id'], properties: { id: recordId } },
    },
  },
} as const;
