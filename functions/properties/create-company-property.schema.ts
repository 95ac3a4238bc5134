import { typedSchema } from '../../shared/http/http-handler';
import { fieldTypes, propertyTypes } from '../../shared/properties/property-definition';

const shortText = { type: 'string', minLength: 1, maxLength: 400 } as const;

export const createCompanyPropertyBody = typedSchema({
  type: 'object',
  required: ['name', 'label', 'type', 'fieldType', 'groupName'],
  additionalProperties: true,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    label: shortText,
    type: { type: 'string', enum: propertyTypes },
    fieldType: { type: 'string', enum: fieldTypes },
    groupName: shortText,
    description: { type: 'string', maxLength: 2000 },
    displayOrder: { type: 'integer', minimum: -1, maximum: 100000 },
    hasUniqueValue: { type: 'boolean' },
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
  },
} as const);

export const propertyNamePath = typedSchema({
  type: 'object',
  required: ['propertyName'],
  properties: { propertyName: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const);
