import { maxConcurrentRequestsLimit } from '../../shared/webhooks/subscription-types';

const appId = { type: 'string', pattern: '^[0-9]{1,15}$' } as const;

export const appPath = {
  type: 'object',
  required: ['appId'],
  properties: { appId },
} as const;

// Non-numeric subscription ids answer like missing ones (the domain decides), as HubSpot does.
export const subscriptionPath = {
  type: 'object',
  required: ['appId', 'subscriptionId'],
  properties: { appId, subscriptionId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const settingsBody = {
  type: 'object',
  required: ['targetUrl'],
  additionalProperties: false,
  properties: {
    targetUrl: { type: 'string', minLength: 1, maxLength: 2048 },
    throttling: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxConcurrentRequests: { type: 'integer', minimum: 1, maximum: maxConcurrentRequestsLimit },
        // Legacy (SECONDLY, ROLLING_MINUTE): accepted and ignored, as the current API does.
        period: { type: 'string', maxLength: 50 },
      },
    },
  },
} as const;

export const createSubscriptionBody = {
  type: 'object',
  required: ['eventType'],
  additionalProperties: false,
  properties: {
    eventType: { type: 'string', minLength: 1, maxLength: 100 },
    propertyName: { type: 'string', pattern: '^[A-Za-z0-9_]{1,100}$' },
    active: { type: 'boolean' },
    // A legacy type implies its object: the domain checks this is its id. A generic object.* type needs it: a
    // stored type's id (0-1) or name (contact), which the domain resolves.
    objectTypeId: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

export const patchSubscriptionBody = {
  type: 'object',
  additionalProperties: false,
  properties: { active: { type: 'boolean' } },
} as const;

export const batchUpdateBody = {
  type: 'object',
  required: ['inputs'],
  additionalProperties: false,
  properties: {
    inputs: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        required: ['id', 'active'],
        additionalProperties: false,
        properties: { id: { type: 'integer', minimum: 1, maximum: 999999999999999 }, active: { type: 'boolean' } },
      },
    },
  },
} as const;

export const deliveriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$' },
    after: { type: 'string', pattern: '^[0-9]{15}#[0-9a-f-]{36}$' },
  },
} as const;
