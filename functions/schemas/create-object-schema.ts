import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createObjectSchema } from '../../shared/schemas/object-schemas';
import { createSchemaBody } from './schema.schema';

export const handler = httpHandler('createObjectSchema', { body: createSchemaBody }, async ({ auth, body }) =>
  created(await createObjectSchema(auth.hubId, auth.userId, body)),
);
