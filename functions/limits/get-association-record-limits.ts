import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readAssociationRecordLimits } from '../../shared/limits-tracking/association-limits';
import { typePairPath } from './limits.schema';

export const handler = httpHandler('getAssociationRecordLimits', { path: typePairPath }, async ({ auth, path }) =>
  ok(await readAssociationRecordLimits(auth.hubId, path.fromObjectTypeId, path.toObjectTypeId)),
);
