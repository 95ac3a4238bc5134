import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listObjectSchemaViews } from '../../shared/schemas/object-schemas';
import { schemaListQuery } from './schema.schema';

export const handler = httpHandler('listObjectSchemas', { query: schemaListQuery }, async ({ auth, query }) =>
  ok({ results: await listObjectSchemaViews(auth.hubId, query.archived) }),
);
