import { install, type InstalledTokens } from './harness';

/** An answer of a test-account control: its status, headers and JSON body ({} for none). */
export interface ControlAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends `body` (JSON, when given) with `headers` and reads the JSON answer ({} for none). */
async function jsonCall<T>(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T, headers: response.headers };
}

/** Calls a test-account control (`/sandbox/v1…`) with a developer API key as `?hapikey=`. */
export function sandboxControl<T = Record<string, unknown>>(
  gateway: { readonly baseUrl: string },
  developerApiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ControlAnswer<T>> {
  const url = `${gateway.baseUrl}/sandbox/v1${path}?hapikey=${encodeURIComponent(developerApiKey)}`;
  return jsonCall<T>(url, method, {}, body);
}

/** Calls the API with an access token, as a test account's install would. */
export function tokenCall<T = Record<string, unknown>>(
  gateway: { readonly baseUrl: string },
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ControlAnswer<T>> {
  return jsonCall<T>(`${gateway.baseUrl}${path}`, method, { authorization: `Bearer ${token}` }, body);
}

/**
 * A developer account for a test file (an install of its own, made before the file's tests), its
 * controls and a new test account of it.
 */
export function useSandboxDeveloper(gateway: { readonly baseUrl: string }): {
  readonly developer: InstalledTokens;
  control: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<ControlAnswer<T>>;
  newTestAccount: () => Promise<number>;
} {
  let developer: InstalledTokens | undefined;
  beforeAll(async () => {
    developer = await install(gateway);
  });
  const current = (): InstalledTokens => {
    if (!developer) throw new Error('the developer is made before the tests (beforeAll)');
    return developer;
  };
  const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    sandboxControl<T>(gateway, current().developerApiKey, method, path, body);
  return {
    get developer() {
      return current();
    },
    control,
    newTestAccount: async () => {
      const created = await control<{ hubId: number }>('POST', '/test-accounts', {});
      expect(created.status).toBe(201);
      return created.body.hubId;
    },
  };
}
