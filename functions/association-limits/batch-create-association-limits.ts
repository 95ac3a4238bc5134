import { batchCreateAssociationLimits } from '../../shared/association-limits/association-limit-configurations';
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { requireLabelScope } from '../associations/require-from-scope';
import { pairBatchAnswer } from '../associations/pair-batch-request';
import { limitInputsBody, limitsPairPath } from './association-limits.schema';

/** 201 BatchResponsePublicAssociationDefinitionUserConfiguration; 207 when an input's type is not one of the pair. */
export const handler = httpHandler(
  'batchCreateAssociationLimits',
  { path: limitsPairPath, body: limitInputsBody },
  async ({ path, body, auth }) => {
    requireLabelScope(auth, path.fromObjectType, 'write');
    const result = await batchCreateAssociationLimits(auth.hubId, path.fromObjectType, path.toObjectType, body.inputs);
    return pairBatchAnswer(result, created);
  },
);
