import { createRecord } from '../../shared/records/create-record';
import { writeRulesFor } from '../../shared/records/write-validation';
import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createObjectBody, objectTypePath } from './object.schema';
import { objectsPrefix, resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'createObject',
  { path: objectTypePath, body: createObjectBody },
  async ({ path, body, auth, requestContext, version }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const company = await createRecord(auth, type, body, await writeRulesFor(type, auth.hubId, version));
    return created(company, {
      location: `${baseUrlOf(requestContext)}${objectsPrefix(version)}/${type.name}/${company.id}`,
    });
  },
);
