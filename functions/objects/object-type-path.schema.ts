/** A plural name, singular name or type id (shared/objects/object-types.ts resolves it). */
export const objectTypeToken = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** The path of every `{objectType}` route of records and properties. */
export const objectTypePath = {
  type: 'object',
  required: ['objectType'],
  properties: { objectType: objectTypeToken },
} as const;
