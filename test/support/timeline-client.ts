import { bearer } from './harness';

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** One JSON call to the timeline API with a bearer token; the body is parsed when there is one. */
export async function callTimeline<T = Record<string, unknown>>(
  baseUrl: string, token: string, method: string, path: string, body?: unknown,
): Promise<JsonResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T, text, headers: response.headers };
}
