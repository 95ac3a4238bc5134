import { journalBatchMax } from '../../shared/webhooks-journal/journal-reads';

// Offsets and counts are checked by the domain (an unknown offset is a 404, a count out of range a 400 naming it).
const offset = { type: 'string', minLength: 1, maxLength: 100 } as const;
const count = { type: 'string', minLength: 1, maxLength: 20 } as const;

export const journalQuery = {
  type: 'object',
  properties: { installPortalId: { type: 'string', minLength: 1, maxLength: 20 } },
} as const;

export const offsetPath = { type: 'object', required: ['offset'], properties: { offset } } as const;
export const countPath = { type: 'object', required: ['count'], properties: { count } } as const;
export const offsetCountPath = {
  type: 'object',
  required: ['offset', 'count'],
  properties: { offset, count },
} as const;

export const batchReadBody = {
  type: 'object',
  required: ['inputs'],
  additionalProperties: false,
  properties: { inputs: { type: 'array', minItems: 1, maxItems: journalBatchMax, items: offset } },
} as const;

export const filePath = {
  type: 'object',
  required: ['appId', 'offset'],
  properties: { appId: { type: 'string', minLength: 1, maxLength: 20 }, offset },
} as const;

export const fileQuery = {
  type: 'object',
  properties: {
    expires: { type: 'string', minLength: 1, maxLength: 20 },
    signature: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;
