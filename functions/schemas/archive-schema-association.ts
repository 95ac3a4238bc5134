import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archiveSchemaAssociation } from '../../shared/schemas/object-schemas';
import { schemaAssociationPath } from './schema.schema';

export const handler = httpHandler(
  'archiveSchemaAssociation',
  { path: schemaAssociationPath },
  async ({ auth, path }) => {
    await archiveSchemaAssociation(auth.hubId, path.schemaType, path.associationIdentifier);
    return noContent();
  },
);
