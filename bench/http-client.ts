import { Agent, request } from 'node:http';

export interface ApiRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ApiResponse {
  status: number;
  body: string;
}

/**
 * One keep-alive connection to the gateway, like a client SDK reusing its socket: a request's
 * latency is the server's work and the loopback round trip, not a TCP handshake.
 */
export class ApiClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;

  constructor(baseUrl: string) {
    this.url = new URL(baseUrl);
  }

  send(spec: ApiRequest): Promise<ApiResponse> {
    const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method: spec.method,
          path: spec.path,
          headers: { ...spec.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** Sends and insists on a 2xx: a benchmark of error answers would measure the wrong thing. */
  async expectOk(spec: ApiRequest): Promise<ApiResponse> {
    const response = await this.send(spec);
    if (response.status < 200 || response.status > 299) {
      throw new Error(`${spec.method} ${spec.path} answered ${response.status}: ${response.body.slice(0, 500)}`);
    }
    return response;
  }

  close(): void {
    this.agent.destroy();
  }
}

export const jsonRequest = (method: string, path: string, token: string | undefined, body?: unknown): ApiRequest => ({
  method,
  path,
  headers: {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export const formRequest = (path: string, fields: Record<string, string>): ApiRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
