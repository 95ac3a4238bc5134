const recordId = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** PublicMergeInput: both ids are strings and both are required. */
export const mergeObjectsBody = {
  type: 'object',
  required: ['primaryObjectId', 'objectIdToMerge'],
  properties: { primaryObjectId: recordId, objectIdToMerge: recordId },
} as const;
