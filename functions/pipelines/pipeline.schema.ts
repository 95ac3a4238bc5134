import { typedSchema } from '../../shared/http/http-handler';

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

export const pipelinePath = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['pipelineObjectType'],
  properties: { pipelineObjectType: { type: 'string', maxLength: 100 } },
} as const);

export const pipelineIdPath = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['pipelineObjectType', 'pipelineId'],
  properties: {
    pipelineObjectType: { type: 'string', maxLength: 100 },
    pipelineId: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const);

export const stageIdPath = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['pipelineObjectType', 'pipelineId', 'stageId'],
  properties: {
    pipelineObjectType: { type: 'string', maxLength: 100 },
    pipelineId: { type: 'string', minLength: 1, maxLength: 200 },
    stageId: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const);

/** The flags of HubSpot's changes that may delete stages (the SDK sends them on pipeline PUT, PATCH and DELETE). */
export const deleteFlagsQuery = /* @__PURE__ */ typedSchema({
  type: 'object',
  properties: {
    validateReferencesBeforeDelete: { type: 'boolean' },
    validateDealStageUsagesBeforeDelete: { type: 'boolean' },
  },
} as const);

export const createPipelineBody = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['label', 'displayOrder', 'stages'],
  properties: {
    label,
    displayOrder,
    stages: { type: 'array', minItems: 1, maxItems: 100, items: stageInput },
    pipelineId: chosenId,
  },
} as const);

export const replacePipelineBody = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['label', 'displayOrder', 'stages'],
  properties: { label, displayOrder, stages: { type: 'array', minItems: 1, maxItems: 100, items: stageInput } },
} as const);

export const updatePipelineBody = /* @__PURE__ */ typedSchema({
  type: 'object',
  properties: { label, displayOrder, archived: { type: 'boolean' } },
} as const);

export const createStageBody = /* @__PURE__ */ typedSchema(stageInput);

export const replaceStageBody = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['label', 'displayOrder'],
  properties: { label, displayOrder, metadata },
} as const);

export const updateStageBody = /* @__PURE__ */ typedSchema({
  type: 'object',
  properties: { label, displayOrder, metadata, archived: { type: 'boolean' } },
} as const);
