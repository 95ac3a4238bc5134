import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { listOwners } from '../../shared/owners/read-owners';
import { listOwnersQuery } from './owners.schema';

export const handler = httpHandler(
  'listOwners',
  { query: listOwnersQuery },
  async ({ query, auth, requestContext, rawQueryString, version }) =>
    ok(
      await listOwners(auth.hubId, query, (after) =>
        nextPageLink(
          baseUrlOf(requestContext),
          version ? `/crm/owners/${version}/` : '/crm/v3/owners/',
          rawQueryString,
          after,
        ),
      ),
    ),
);
