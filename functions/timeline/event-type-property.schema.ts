const numericId = { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 20 }] } as const;

const option = {
  type: 'object',
  required: ['value', 'label'],
  additionalProperties: false,
  properties: {
    value: { type: 'string', minLength: 1, maxLength: 1000 },
    label: { type: 'string', maxLength: 1000 },
    propertyId: numericId,
  },
} as const;

// id and eventTypeId are accepted because clients send back what they read.
const propertyFields = {
  id: numericId,
  eventTypeId: numericId,
  name: { type: 'string', maxLength: 200 },
  label: { type: 'string', minLength: 1, maxLength: 1000 },
  propertyType: { type: 'string', enum: ['String', 'Numeric', 'Date', 'Enumeration'] },
  objectProperty: { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
  options: { anyOf: [{ type: 'array', maxItems: 1000, items: option }, { type: 'null' }] },
} as const;

export const createEventTypePropertyBody = {
  type: 'object',
  required: ['name', 'label', 'propertyType'],
  additionalProperties: false,
  properties: propertyFields,
} as const;

export const updateEventTypePropertyBody = {
  type: 'object',
  required: ['id', 'label', 'propertyType'],
  additionalProperties: false,
  properties: propertyFields,
} as const;
