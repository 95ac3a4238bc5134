import { maxAssociationsPerRecord } from '../../shared/db/records';
import { maxLimitInputs } from '../../shared/association-limits/association-limit-configurations';

export { labelsPath as limitsPairPath } from '../associations/association.schema';

const category = { type: 'string', enum: ['HUBSPOT_DEFINED', 'INTEGRATOR_DEFINED', 'USER_DEFINED', 'WORK'] } as const;
const typeId = { type: 'integer', minimum: 0, maximum: 999999999 } as const;

/** BatchInputPublicAssociationDefinitionConfigurationCreateRequest (and …UpdateRequest: the same fields). */
export const limitInputsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxLimitInputs,
      items: {
        type: 'object',
        required: ['category', 'typeId', 'maxToObjectIds'],
        properties: {
          category,
          typeId,
          // The spec sets no bound; this service's (docs/crm-objects.md).
          maxToObjectIds: { type: 'integer', minimum: 1, maximum: maxAssociationsPerRecord },
        },
      },
    },
  },
} as const;

/** BatchInputPublicAssociationSpec: the types whose limits go. */
export const limitSpecsBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: maxLimitInputs,
      items: {
        type: 'object',
        required: ['category', 'typeId'],
        properties: { category: { type: 'string', maxLength: 100 }, typeId },
      },
    },
  },
} as const;
