import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archiveObjectSchema } from '../../shared/schemas/object-schemas';
import { schemaArchiveQuery, schemaPath } from './schema.schema';

/** `?archived=true` deletes an archived schema for good (HubSpot's replacement of `/purge`). */
export const handler = httpHandler(
  'archiveObjectSchema',
  { path: schemaPath, query: schemaArchiveQuery },
  async ({ auth, path, query }) => {
    await archiveObjectSchema(auth.hubId, path.schemaType, query.archived);
    return noContent();
  },
);
