/** What a handler returns; http-handler.ts serializes it. */
export interface HttpResult {
  statusCode: number;
  body?: unknown;
  /** Pre-rendered HTML, sent instead of JSON; its headers (pageHeaders) are the result's own. */
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
/** Headers every page carries: text/html, no framing (clickjacking), no caching of forms with CSRF tokens. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export const htmlPage = (statusCode: number, html: string, cookies?: string[]): HttpResult => ({
  statusCode,
  html,
  headers: { ...pageHeaders },
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
