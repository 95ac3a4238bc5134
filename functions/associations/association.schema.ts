import { typedSchema } from '../../shared/http/http-handler';

const segment = { type: 'string', minLength: 1, maxLength: 1024 } as const;

export const companyAssociationPath = typedSchema({
  type: 'object',
  required: ['companyId', 'toObjectType', 'toObjectId', 'associationTypeId'],
  properties: { companyId: segment, toObjectType: segment, toObjectId: segment, associationTypeId: segment },
} as const);

export const labelsPath = typedSchema({
  type: 'object',
  required: ['fromObjectType', 'toObjectType'],
  properties: { fromObjectType: segment, toObjectType: segment },
} as const);

export const createLabelBody = typedSchema({
  type: 'object',
  required: ['name', 'label'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    label: { type: 'string', minLength: 1, maxLength: 100 },
    inverseLabel: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const);
