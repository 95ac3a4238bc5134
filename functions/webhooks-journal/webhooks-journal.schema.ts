import {
  filterOperators,
  journalActions,
  journalLimits,
  journalSubscriptionTypes,
} from '../../shared/webhooks-journal/journal-limits';

const text = { type: 'string', minLength: 1, maxLength: journalLimits.textLength } as const;
const objectTypeId = { type: 'string', minLength: 1, maxLength: 100 } as const;
const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

// Non-numeric ids answer like missing ones (the domain decides), as the webhooks' subscription routes do.
export const subscriptionPath = {
  type: 'object',
  required: ['subscriptionId'],
  properties: { subscriptionId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const filterPath = {
  type: 'object',
  required: ['filterId'],
  properties: { filterId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const portalPath = {
  type: 'object',
  required: ['portalId'],
  properties: { portalId: { type: 'string', pattern: '^[0-9]{1,15}$' } },
} as const;

/**
 * Every field of HubSpot's five upsert requests (SubscriptionUpsertRequest's oneOf), with the
 * service's bounds: which a type takes and needs, and which actions, is the domain's check, so the
 * 400 names the field and the type.
 */
export const upsertSubscriptionBody = {
  type: 'object',
  required: ['subscriptionType'],
  additionalProperties: false,
  properties: {
    subscriptionType: { type: 'string', enum: [...journalSubscriptionTypes] },
    objectTypeId,
    portalId: id,
    eventTypeId: text,
    actions: { type: 'array', maxItems: journalActions.length, items: { type: 'string', enum: [...journalActions] } },
    properties: { type: 'array', maxItems: journalLimits.propertiesPerSubscription, items: text },
    objectIds: { type: 'array', maxItems: journalLimits.objectIdsPerSubscription, items: id },
    listIds: { type: 'array', maxItems: journalLimits.listIdsPerSubscription, items: id },
    associatedObjectTypeIds: {
      type: 'array',
      maxItems: journalLimits.associatedObjectTypeIdsPerSubscription,
      items: objectTypeId,
    },
  },
} as const;

const condition = {
  type: 'object',
  required: ['filterType', 'property', 'operator'],
  additionalProperties: false,
  properties: {
    filterType: { type: 'string', enum: ['CRM_OBJECT_PROPERTY'] },
    property: text,
    operator: { type: 'string', enum: [...filterOperators] },
    value: { type: 'string', maxLength: journalLimits.textLength },
    values: {
      type: 'array',
      maxItems: journalLimits.valuesPerCondition,
      items: { type: 'string', maxLength: journalLimits.textLength },
    },
  },
} as const;

export const createFilterBody = {
  type: 'object',
  required: ['subscriptionId', 'filter'],
  additionalProperties: false,
  properties: {
    subscriptionId: id,
    filter: {
      type: 'object',
      required: ['conditions'],
      additionalProperties: false,
      properties: {
        conditions: { type: 'array', minItems: 1, maxItems: journalLimits.conditionsPerFilter, items: condition },
      },
    },
  },
} as const;
