import { bearer } from './harness';

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A developer API key, sent as HubSpot's clients send it: the `hapikey` query parameter. */
export interface DeveloperKey {
  hapikey: string;
}

/** A bearer access token, or a developer API key. */
export type TimelineCredential = string | DeveloperKey;

export function withHapikey(path: string, key: DeveloperKey): string {
  return `${path}${path.includes('?') ? '&' : '?'}hapikey=${encodeURIComponent(key.hapikey)}`;
}

/** One JSON call to the timeline API with a bearer token or a developer key; the body is parsed when there is one. */
export async function callTimeline<T = Record<string, unknown>>(
  baseUrl: string,
  credential: TimelineCredential,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse<T>> {
  const isToken = typeof credential === 'string';
  const response = await fetch(`${baseUrl}${isToken ? path : withHapikey(path, credential)}`, {
    method,
    headers: {
      ...(isToken ? bearer(credential) : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
    text,
    headers: response.headers,
  };
}
