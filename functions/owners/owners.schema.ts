/** Owner ids (and user ids, with idProperty=userId) are numbers: the SDK's getById takes one. */
const numericId = { type: 'string', pattern: '^[0-9]{1,15}$' } as const;

export const listOwnersQuery = {
  type: 'object',
  properties: {
    email: { type: 'string', maxLength: 254 },
    after: numericId,
    limit: { type: 'integer', minimum: 1, maximum: 500 },
    archived: { type: 'boolean' },
  },
} as const;

export const ownerIdPath = {
  type: 'object',
  required: ['ownerId'],
  properties: { ownerId: numericId },
} as const;

export const getOwnerQuery = {
  type: 'object',
  properties: {
    idProperty: { type: 'string', enum: ['id', 'userId'] },
    archived: { type: 'boolean' },
  },
} as const;
