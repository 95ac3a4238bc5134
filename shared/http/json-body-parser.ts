import { UnsupportedMediaTypeError, ValidationError } from '../base/errors';
import type { Middleware } from './middlewares';

/** The media types of a JSON body: application/json and application/<anything>+json, with or without parameters. */
const jsonMediaType = /^application\/(.+\+)?json($|;.+)/;

/**
 * The body parser of a row whose body is 'json' (RouteParts.bodyParser): what @middy/http-json-body-parser
 * does, answered as shared/http/error-mapper.ts answers that parser's errors (415 for another media
 * type, 400 for a body that is not JSON), without the parser's table of every HTTP status (about
 * 2 KiB of a bundle).
 */
export function jsonBodyParser(): Middleware {
  return {
    before: function jsonBodyParserBefore(request) {
      const event = request.event;
      const headers = event.headers;
      if (!jsonMediaType.test(String(headers?.['content-type'] ?? headers?.['Content-Type'])))
        throw new UnsupportedMediaTypeError('Unsupported Content-Type for this endpoint', {
          context: { 'content-type': ['unsupported'] },
        });
      const body = event.body as string | undefined;
      try {
        if (body === undefined) throw new Error('no body');
        event.body = JSON.parse(event.isBase64Encoded ? Buffer.from(body, 'base64').toString() : body);
      } catch (error) {
        throw new ValidationError('Invalid input: Invalid or malformed JSON was provided', {
          context: { body: ['malformed'] },
          cause: error,
        });
      }
    },
  };
}
