import { gdprDeleteContact } from '../../shared/contacts/gdpr-delete';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { gdprDeleteBody } from './gdpr-delete.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'gdprDeleteObject',
  { path: objectTypePath, body: gdprDeleteBody },
  async ({ path, body, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    await gdprDeleteContact(type, auth.hubId, body);
    return noContent();
  },
);
