const numericId = { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 20 }] } as const;
const template = { anyOf: [{ type: 'string', maxLength: 65536 }, { type: 'null' }] } as const;

// id and applicationId are accepted because clients send back what they read.
const eventTypeFields = {
  id: numericId,
  applicationId: numericId,
  name: { type: 'string', maxLength: 1000 },
  headerTemplate: template,
  detailTemplate: template,
  objectType: { type: 'string', enum: ['CONTACT', 'COMPANY', 'DEAL'] },
} as const;

export const createEventTypeBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: eventTypeFields,
} as const;

export const updateEventTypeBody = {
  type: 'object',
  additionalProperties: false,
  properties: eventTypeFields,
} as const;
