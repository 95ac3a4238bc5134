import { batchPurgeAssociationLimits } from '../../shared/association-limits/association-limit-configurations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireLabelScope } from '../associations/require-from-scope';
import { archiveAnswer } from '../associations/pair-batch-request';
import { limitSpecsBody, limitsPairPath } from './association-limits.schema';

/** v4: 204 without a body; a dated path: 200 BatchResponse, as HubSpot's dated specs define it (archiveAnswer). */
export const handler = httpHandler(
  'batchPurgeAssociationLimits',
  { path: limitsPairPath, body: limitSpecsBody },
  async (request) => {
    const startedAt = new Date();
    requireLabelScope(request.auth, request.path.fromObjectType, 'write');
    await batchPurgeAssociationLimits(
      request.auth.hubId,
      request.path.fromObjectType,
      request.path.toObjectType,
      request.body.inputs,
    );
    return archiveAnswer(request.version, startedAt);
  },
);
