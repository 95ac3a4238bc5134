const segment = { type: 'string', minLength: 1, maxLength: 1024 } as const;

export const companyAssociationPath = {
  type: 'object',
  required: ['companyId', 'toObjectType', 'toObjectId', 'associationTypeId'],
  properties: { companyId: segment, toObjectType: segment, toObjectId: segment, associationTypeId: segment },
} as const;

export const labelsPath = {
  type: 'object',
  required: ['fromObjectType', 'toObjectType'],
  properties: { fromObjectType: segment, toObjectType: segment },
} as const;

export const createLabelBody = {
  type: 'object',
  required: ['name', 'label'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    label: { type: 'string', minLength: 1, maxLength: 100 },
    inverseLabel: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

export const recordAssociationsPath = {
  type: 'object',
  required: ['objectType', 'objectId', 'toObjectType'],
  properties: { objectType: segment, objectId: segment, toObjectType: segment },
} as const;

export const recordPairPath = {
  type: 'object',
  required: ['objectType', 'objectId', 'toObjectType', 'toObjectId'],
  properties: { objectType: segment, objectId: segment, toObjectType: segment, toObjectId: segment },
} as const;

export const companyAssociationsPath = {
  type: 'object',
  required: ['companyId', 'toObjectType'],
  properties: { companyId: segment, toObjectType: segment },
} as const;

/** limit is checked by the domain (1..500), so a bad one gets the same error as HubSpot's. */
export const associationPageQuery = {
  type: 'object',
  properties: { limit: { type: 'integer' }, after: { type: 'string', maxLength: 100 } },
} as const;

export const associationSpec = {
  type: 'object',
  required: ['associationTypeId'],
  properties: {
    associationCategory: { type: 'string', enum: ['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED', 'WORK'] },
    associationTypeId: { type: 'integer', minimum: 0, maximum: 999999999 },
  },
} as const;

export const associationSpecsBody = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: associationSpec,
} as const;

export const updateLabelBody = {
  type: 'object',
  required: ['associationTypeId', 'label'],
  properties: {
    associationTypeId: { type: 'integer', minimum: 0, maximum: 999999999 },
    label: { type: 'string', minLength: 1, maxLength: 100 },
    inverseLabel: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

export const labelPath = {
  type: 'object',
  required: ['fromObjectType', 'toObjectType', 'associationTypeId'],
  properties: { fromObjectType: segment, toObjectType: segment, associationTypeId: segment },
} as const;

const objectId = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** {from:{id}, to:{id}, types:[AssociationSpec]}: batch create and batch labels/archive. */
export const batchPairsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: 2000,
      items: {
        type: 'object',
        required: ['from', 'to', 'types'],
        properties: { from: objectId, to: objectId, types: { type: 'array', maxItems: 20, items: associationSpec } },
      },
    },
  },
} as const;

/** {from:{id}, to:{id}}: batch associate/default. */
export const batchDefaultPairsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: 2000,
      items: { type: 'object', required: ['from', 'to'], properties: { from: objectId, to: objectId } },
    },
  },
} as const;

/** {from:{id}, to:[{id}]}: batch archive; at most 2,000 pairs over all inputs (the domain counts them). */
export const batchArchivePairsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: 2000,
      items: {
        type: 'object',
        required: ['from', 'to'],
        properties: { from: objectId, to: { type: 'array', maxItems: 2000, items: objectId } },
      },
    },
  },
} as const;

/** {id, after?}: batch read (v4 and v3). */
export const batchReadAssociationsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, after: { type: 'string', maxLength: 100 } },
      },
    },
  },
} as const;

/** {from:{id}, to:{id}, type}: the v3 batch create and archive; `type` a v3 type name or a type id as a string. */
export const batchV3PairsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: 2000,
      items: {
        type: 'object',
        required: ['from', 'to', 'type'],
        properties: { from: objectId, to: objectId, type: { type: 'string', minLength: 1, maxLength: 100 } },
      },
    },
  },
} as const;
