import { fieldTypes, propertyTypes } from '../../shared/properties/property-definition';
import { objectTypePath, objectTypeToken } from '../objects/object-type-path.schema';

export { objectTypePath };

const shortText = { type: 'string', minLength: 1, maxLength: 400 } as const;

/** The fields a create sets and an update may change (PropertyUpdate). */
export const editableFields = {
  label: shortText,
  type: { type: 'string', enum: propertyTypes },
  fieldType: { type: 'string', enum: fieldTypes },
  groupName: shortText,
  description: { type: 'string', maxLength: 2000 },
  displayOrder: { type: 'integer', minimum: -1, maximum: 100000 },
  hidden: { type: 'boolean' },
  formField: { type: 'boolean' },
  options: {
    type: 'array',
    maxItems: 1000,
    items: {
      type: 'object',
      required: ['label', 'value'],
      additionalProperties: true,
      properties: {
        label: shortText,
        value: { type: 'string', minLength: 1, maxLength: 400 },
        displayOrder: { type: 'integer', minimum: -1, maximum: 100000 },
        hidden: { type: 'boolean' },
        description: { type: 'string', maxLength: 2000 },
      },
    },
  },
} as const;

const propertyCreate = {
  type: 'object',
  required: ['name', 'label', 'type', 'fieldType', 'groupName'],
  additionalProperties: true,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    hasUniqueValue: { type: 'boolean' },
    ...editableFields,
  },
} as const;

export const createPropertyBody = propertyCreate;

export const propertyNamePath = {
  type: 'object',
  required: ['objectType', 'propertyName'],
  properties: { objectType: objectTypeToken, propertyName: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const;

export const propertyReadQuery = {
  type: 'object',
  properties: { archived: { type: 'boolean', default: false } },
} as const;

/** PropertyUpdate: every field optional; the domain refuses name, hasUniqueValue and dataSensitivity. */
export const updatePropertyBody = {
  type: 'object',
  additionalProperties: true,
  properties: editableFields,
} as const;

const propertyNameInputs = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 1024 } },
  },
} as const;

export const batchReadPropertiesBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: propertyNameInputs,
    archived: { type: 'boolean' },
    dataSensitivity: { type: 'string', maxLength: 50 },
  },
} as const;

export const batchArchivePropertiesBody = {
  type: 'object',
  required: ['inputs'],
  properties: { inputs: propertyNameInputs },
} as const;

export const batchCreatePropertiesBody = {
  type: 'object',
  required: ['inputs'],
  properties: { inputs: { type: 'array', minItems: 1, maxItems: 100, items: propertyCreate } },
} as const;

export const groupNamePath = {
  type: 'object',
  required: ['objectType', 'groupName'],
  properties: { objectType: objectTypeToken, groupName: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const;

export const createGroupBody = {
  type: 'object',
  required: ['name', 'label'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    label: shortText,
    displayOrder: { type: 'integer', minimum: -1, maximum: 100000 },
  },
} as const;

export const updateGroupBody = {
  type: 'object',
  properties: { label: shortText, displayOrder: { type: 'integer', minimum: -1, maximum: 100000 } },
} as const;
