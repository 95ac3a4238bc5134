import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readTypesNearAssociationLimit } from '../../shared/limits-tracking/association-limits';

export const handler = httpHandler('getTypesNearAssociationLimit', {}, async ({ auth }) =>
  ok(await readTypesNearAssociationLimit(auth.hubId)),
);
