// Custom fields are top-level keys named by the event type, so the body's shape is checked by the
// domain against the type's properties, not here.
export const eventBody = { type: 'object' } as const;

export const eventBatchBody = {
  type: 'object',
  required: ['eventWrappers'],
  properties: { eventWrappers: { type: 'array', minItems: 1, maxItems: 100 } },
} as const;
