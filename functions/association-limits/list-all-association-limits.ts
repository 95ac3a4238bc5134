import { listAllAssociationLimits } from '../../shared/association-limits/association-limit-configurations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';

/** CollectionResponsePublicAssociationDefinitionUserConfigurationNoPaging: every limit of the account. */
export const handler = httpHandler('listAllAssociationLimits', {}, async ({ auth }) =>
  ok({ results: await listAllAssociationLimits(auth.hubId) }),
);
