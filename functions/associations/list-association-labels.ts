import { listAssociationLabels } from '../../shared/associations/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { labelsPath } from './association.schema';

export const handler = httpHandler('listAssociationLabels', { path: labelsPath }, async ({ path, auth }) =>
  ok({ results: await listAssociationLabels(auth.hubId, path.fromObjectType, path.toObjectType) }));
