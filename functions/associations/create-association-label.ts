import { createAssociationLabel } from '../../shared/association-types/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { requireLabelScope } from './require-from-scope';
import { ok } from '../../shared/http/responses';
import { createLabelBody, labelsPath } from './association.schema';

/**
 * On the SDK's /crm/v4/associations/... path and the published spec's /crm/associations/v4/... alias.
 * 200, not 201: the real API answers a label create with 200 (the SDK's labels API expects 200).
 */
export const handler = httpHandler(
  'createAssociationLabel',
  { path: labelsPath, body: createLabelBody },
  async ({ path, body, auth }) => {
    requireLabelScope(auth, path.fromObjectType, 'write');
    return ok({ results: await createAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, body) });
  },
);
