/** An object type id (`0-1`, `2-1000001`) or name, as the paths and filters of the limits tracking API name one. */
const objectTypeToken = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const labelLimitsQuery = {
  type: 'object',
  properties: { fromObjectTypeId: objectTypeToken, toObjectTypeId: objectTypeToken },
} as const;

export const fromTypePath = {
  type: 'object',
  required: ['fromObjectTypeId'],
  properties: { fromObjectTypeId: objectTypeToken },
} as const;

export const typePairPath = {
  type: 'object',
  required: ['fromObjectTypeId', 'toObjectTypeId'],
  properties: { fromObjectTypeId: objectTypeToken, toObjectTypeId: objectTypeToken },
} as const;
