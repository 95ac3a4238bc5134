import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createSchemaAssociation } from '../../shared/schemas/object-schemas';
import { createSchemaAssociationBody, schemaPath } from './schema.schema';

export const handler = httpHandler(
  'createSchemaAssociation',
  { path: schemaPath, body: createSchemaAssociationBody },
  async ({ auth, path, body }) => created(await createSchemaAssociation(auth.hubId, path.schemaType, body)),
);
