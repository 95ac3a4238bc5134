import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateObjectSchema } from '../../shared/schemas/object-schemas';
import { schemaPath, updateSchemaBody } from './schema.schema';

export const handler = httpHandler(
  'updateObjectSchema',
  { path: schemaPath, body: updateSchemaBody },
  async ({ auth, path, body }) => ok(await updateObjectSchema(auth.hubId, auth.userId, path.schemaType, body)),
);
