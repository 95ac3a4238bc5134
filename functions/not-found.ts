import { httpHandler } from '../shared/http/http-handler';
import { NotFoundError } from '../shared/base/errors';

/** The catch-all route: unknown paths answer with the error object, as HubSpot does. */
export const handler = httpHandler('notFound', {}, async () => {
  throw new NotFoundError('resource not found');
});
