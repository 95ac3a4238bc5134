import { batchUpdateAssociationLimits } from '../../shared/association-limits/association-limit-configurations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { requireLabelScope } from '../associations/require-from-scope';
import { pairBatchAnswer } from '../associations/pair-batch-request';
import { limitInputsBody, limitsPairPath } from './association-limits.schema';

/** 200 BatchResponsePublicAssociationDefinitionConfigurationUpdateResult; 207 for inputs without a limit or not of the pair. */
export const handler = httpHandler(
  'batchUpdateAssociationLimits',
  { path: limitsPairPath, body: limitInputsBody },
  async ({ path, body, auth }) => {
    requireLabelScope(auth, path.fromObjectType, 'write');
    const result = await batchUpdateAssociationLimits(auth.hubId, path.fromObjectType, path.toObjectType, body.inputs);
    return pairBatchAnswer(result, ok);
  },
);
