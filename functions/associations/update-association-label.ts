import { updateAssociationLabel } from '../../shared/association-types/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { requireLabelScope } from './require-from-scope';
import { noContent } from '../../shared/http/responses';
import { labelsPath, updateLabelBody } from './association.schema';

/** On the SDK's /crm/v4/associations/... path and the published spec's /crm/associations/v4/... alias. */
export const handler = httpHandler(
  'updateAssociationLabel',
  { path: labelsPath, body: updateLabelBody },
  async ({ path, body, auth }) => {
    requireLabelScope(auth, path.fromObjectType, 'write');
    await updateAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, body);
    return noContent();
  },
);
