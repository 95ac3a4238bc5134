import { maxAssociationsPerRecord } from '../../shared/db/records';
import { maxLimitInputs } from '../../shared/association-limits/association-limit-configurations';

export { labelsPath as limitsPairPath } from '../associations/association.schema';

const category = { type: 'string', enum: ['HUBSPOT_DEFINED', 'INTEGRATOR_DEFINED', 'USER_DEFINED', 'WORK'] } as const;
const typeId = { type: 'integer', minimum: 0, maximum: 999999999 } as const;

/** A batch body: `inputs`, at most maxLimitInputs of the item's shape. */
const inputsOf = <Item extends object>(item: Item) =>
  ({
    type: 'object',
    required: ['inputs'],
    properties: { inputs: { type: 'array', maxItems: maxLimitInputs, items: item } },
  }) as const;

/** BatchInputPublicAssociationDefinitionConfigurationCreateRequest (and …UpdateRequest: the same fields). */
export const limitInputsBody = inputsOf({
  type: 'object',
  required: ['category', 'typeId', 'maxToObjectIds'],
  properties: {
    category,
    typeId,
    // The spec sets no bound; this service's (docs/crm-objects.md).
    maxToObjectIds: { type: 'integer', minimum: 1, maximum: maxAssociationsPerRecord },
  },
} as const);

/** BatchInputPublicAssociationSpec: the types whose limits go. */
export const limitSpecsBody = inputsOf({
  type: 'object',
  required: ['category', 'typeId'],
  properties: { category: { type: 'string', maxLength: 100 }, typeId },
} as const);
