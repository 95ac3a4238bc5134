import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createPropertyGroup } from '../../shared/properties/change-company-properties';
import { createGroupBody } from './create-company-property.schema';

export const handler = httpHandler('createPropertyGroup', { body: createGroupBody }, async ({ body, auth }) =>
  created(await createPropertyGroup(auth.hubId, body)),
);
