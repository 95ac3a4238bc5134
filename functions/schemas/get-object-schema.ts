import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getObjectSchema } from '../../shared/schemas/object-schemas';
import { schemaPath } from './schema.schema';

export const handler = httpHandler('getObjectSchema', { path: schemaPath }, async ({ auth, path }) =>
  ok(await getObjectSchema(auth.hubId, path.schemaType)),
);
