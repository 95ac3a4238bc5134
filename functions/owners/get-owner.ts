import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getOwner } from '../../shared/owners/read-owners';
import { getOwnerQuery, ownerIdPath } from './owners.schema';

export const handler = httpHandler(
  'getOwner',
  { path: ownerIdPath, query: getOwnerQuery },
  async ({ path, query, auth }) => ok(await getOwner(auth.hubId, path.ownerId, query)),
);
