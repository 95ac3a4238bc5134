/** Ids a client may choose (no '#', which keys use as a separator). */
const chosenId = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' } as const;
const label = { type: 'string', minLength: 1, maxLength: 255 } as const;
const displayOrder = { type: 'integer', minimum: -1, maximum: 1_000_000 } as const;
/** Metadata values are strings on the wire; numbers and booleans are taken as their text. */
const metadata = {
  type: 'object',
  maxProperties: 20,
  propertyNames: { type: 'string', maxLength: 100 },
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
} as const;

const stageInput = {
  type: 'object',
  required: ['label', 'displayOrder'],
  properties: { label, displayOrder, metadata, stageId: chosenId },
} as const;

export const pipelinePath = {
  type: 'object',
  required: ['pipelineObjectType'],
  properties: { pipelineObjectType: { type: 'string', maxLength: 100 } },
} as const;

export const pipelineIdPath = {
  type: 'object',
  required: ['pipelineObjectType', 'pipelineId'],
  properties: {
    pipelineObjectType: { type: 'string', maxLength: 100 },
    pipelineId: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

export const stageIdPath = {
  type: 'object',
  required: ['pipelineObjectType', 'pipelineId', 'stageId'],
  properties: {
    pipelineObjectType: { type: 'string', maxLength: 100 },
    pipelineId: { type: 'string', minLength: 1, maxLength: 200 },
    stageId: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/** The flags of HubSpot's changes that may delete stages (the SDK sends them on pipeline PUT, PATCH and DELETE). */
export const deleteFlagsQuery = {
  type: 'object',
  properties: {
    validateReferencesBeforeDelete: { type: 'boolean' },
    validateDealStageUsagesBeforeDelete: { type: 'boolean' },
  },
} as const;

export const createPipelineBody = {
  type: 'object',
  required: ['label', 'displayOrder', 'stages'],
  properties: {
    label,
    displayOrder,
    stages: { type: 'array', minItems: 1, maxItems: 100, items: stageInput },
    pipelineId: chosenId,
  },
} as const;

export const replacePipelineBody = {
  type: 'object',
  required: ['label', 'displayOrder', 'stages'],
  properties: { label, displayOrder, stages: { type: 'array', minItems: 1, maxItems: 100, items: stageInput } },
} as const;

export const updatePipelineBody = {
  type: 'object',
  properties: { label, displayOrder, archived: { type: 'boolean' } },
} as const;

export const createStageBody = stageInput;

export const replaceStageBody = {
  type: 'object',
  required: ['label', 'displayOrder'],
  properties: { label, displayOrder, metadata },
} as const;

export const updateStageBody = {
  type: 'object',
  properties: { label, displayOrder, metadata, archived: { type: 'boolean' } },
} as const;
