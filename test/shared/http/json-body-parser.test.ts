import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { AppError } from '../../../shared/base/errors';
import { toAppError } from '../../../shared/http/error-mapper';
import { jsonBodyParser } from '../../../shared/http/json-body-parser';
import type { Event, Middleware } from '../../../shared/http/middlewares';

/**
 * jsonBodyParser answers every body as @middy/http-json-body-parser does once shared/http/error-mapper.ts
 * has mapped that parser's errors: the parsed body, or the same status, category, message and context.
 */
type Outcome = { body: unknown } | { status: number; category: string; message: string; context: unknown };

async function outcomeOf(parser: Middleware, event: Partial<Event>): Promise<Outcome> {
  const request = {
    event: { ...event } as Event,
    context: {} as never,
    response: undefined,
    error: undefined,
    internal: {},
  };
  try {
    await parser.before?.(request as never);
    return { body: request.event.body };
  } catch (error) {
    const mapped: AppError = toAppError(error);
    return { status: mapped.status, category: mapped.category, message: mapped.message, context: mapped.context };
  }
}

const json = { 'content-type': 'application/json' };
const events: [string, Partial<Event>][] = [
  ['a JSON object', { headers: json, body: '{"a":[1,"x",null]}' }],
  ['a JSON string', { headers: json, body: '"text"' }],
  [
    'application/<x>+json with a charset',
    { headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' }, body: '[]' },
  ],
  ['a base64 body', { headers: json, body: Buffer.from('{"b":2}').toString('base64'), isBase64Encoded: true }],
  ['malformed JSON', { headers: json, body: '{"a":' }],
  ['an empty body', { headers: json, body: '' }],
  ['no body', { headers: json }],
  ['no content type', { headers: {}, body: '{}' }],
  ['no headers', { body: '{}' }],
  ['text/plain', { headers: { 'content-type': 'text/plain' }, body: '{}' }],
  ['application/jsonp', { headers: { 'content-type': 'application/jsonp' }, body: '{}' }],
  ['Content-Type spelled by a direct invocation', { headers: { 'Content-Type': 'application/json' }, body: '{"c":3}' }],
];

describe('jsonBodyParser', () => {
  it.each(events)('answers %s as the middy parser does', async (_name, event) => {
    expect(await outcomeOf(jsonBodyParser(), event)).toEqual(
      await outcomeOf(httpJsonBodyParser() as unknown as Middleware, event),
    );
  });
});
