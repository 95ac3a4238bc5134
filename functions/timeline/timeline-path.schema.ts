// The app id must be numeric here (a 400 naming path.appId); the other ids are checked by the domain,
// which answers a non-numeric one like a missing object.
const appId = { type: 'string', pattern: '^[0-9]{1,15}$' } as const;
const id = { type: 'string', minLength: 1, maxLength: 1024 } as const;

export const appPath = {
  type: 'object',
  required: ['appId'],
  properties: { appId },
} as const;

export const eventTypePath = {
  type: 'object',
  required: ['appId', 'eventTypeId'],
  properties: { appId, eventTypeId: id },
} as const;

export const eventTypePropertyPath = {
  type: 'object',
  required: ['appId', 'eventTypeId', 'propertyId'],
  properties: { appId, eventTypeId: id, propertyId: id },
} as const;

export const eventPath = {
  type: 'object',
  required: ['appId', 'eventTypeId', 'eventId'],
  properties: { appId, eventTypeId: id, eventId: id },
} as const;
