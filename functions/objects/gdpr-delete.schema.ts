/** PublicGdprDeleteInput: the contact's id, or with idProperty `email` its address. */
export const gdprDeleteBody = {
  type: 'object',
  required: ['objectId'],
  properties: {
    objectId: { type: 'string', minLength: 1, maxLength: 1000 },
    idProperty: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;
