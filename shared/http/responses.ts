/** What a handler returns; http-handler.ts serializes it. */
export interface HttpResult {
  statusCode: number;
  body?: unknown;
  /** Pre-rendered HTML; sent as text/html instead of JSON. */
  html?: string;
  headers?: Record<string, string>;
  cookies?: string[];
}

export const ok = (body: unknown, headers?: Record<string, string>): HttpResult => ({ statusCode: 200, body, headers });
export const created = (body: unknown, headers?: Record<string, string>): HttpResult => ({
  statusCode: 201,
  body,
  headers,
});
export const multiStatus = (body: unknown): HttpResult => ({ statusCode: 207, body });
export const noContent = (): HttpResult => ({ statusCode: 204 });
export const htmlPage = (statusCode: number, html: string, cookies?: string[]): HttpResult => ({
  statusCode,
  html,
  cookies,
});
/** 302 for the OAuth redirects (RFC 6749 4.1.2); 303 after a form post so the browser follows with GET. */
export const redirect = (location: string, cookies?: string[], statusCode: 302 | 303 = 302): HttpResult => ({
  statusCode,
  headers: { location },
  cookies,
});

/** A next-page link that repeats the request's query with the new cursor, as HubSpot's does. */
export function nextPageLink(baseUrl: string, path: string, rawQueryString: string, after: string): string {
  const kept = rawQueryString
    .split('&')
    .filter((pair) => pair !== '' && pair !== 'after' && !pair.startsWith('after='));
  return `${baseUrl}${path}?${[...kept, `after=${encodeURIComponent(after)}`].join('&')}`;
}
