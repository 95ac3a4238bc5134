import { deleteAssociationLabel } from '../../shared/association-types/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { requireLabelScope } from './require-from-scope';
import { noContent } from '../../shared/http/responses';
import { labelPath } from './association.schema';

/** On the SDK's /crm/v4/associations/... path and the published spec's /crm/associations/v4/... alias. */
export const handler = httpHandler('deleteAssociationLabel', { path: labelPath }, async ({ path, auth }) => {
  requireLabelScope(auth, path.fromObjectType, 'write');
  await deleteAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, path.associationTypeId);
  return noContent();
});
