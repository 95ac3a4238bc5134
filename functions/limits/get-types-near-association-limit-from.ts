import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readTypesNearAssociationLimitFrom } from '../../shared/limits-tracking/association-limits';
import { fromTypePath } from './limits.schema';

export const handler = httpHandler('getTypesNearAssociationLimitFrom', { path: fromTypePath }, async ({ auth, path }) =>
  ok(await readTypesNearAssociationLimitFrom(auth.hubId, path.fromObjectTypeId)),
);
