/** An answer of a test-account control: its status, headers and JSON body ({} for none). */
export interface ControlAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Calls a test-account control (`/sandbox/v1…`) with a developer API key as `?hapikey=`, a JSON body
 * when given, and reads the JSON answer.
 */
export async function sandboxControl<T = Record<string, unknown>>(
  gateway: { readonly baseUrl: string },
  developerApiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ControlAnswer<T>> {
  const response = await fetch(`${gateway.baseUrl}/sandbox/v1${path}?hapikey=${encodeURIComponent(developerApiKey)}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T, headers: response.headers };
}
