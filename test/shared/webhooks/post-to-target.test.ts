import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTargetPoster, type ResolvedAddress, type ResolveHost } from '../../../shared/webhooks/post-to-target';

/**
 * The webhook POST against a real server on 127.0.0.1. DNS cannot be changed in a test, so the
 * resolver is the poster's own parameter: names resolve where each test says, and the connection
 * must then go to that checked address (the server is reached by a name no DNS knows).
 */
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let port: number;
let seen: Seen[];
let connections: number;
let answer: (response: ServerResponse) => void;

beforeEach(async () => {
  seen = [];
  connections = 0;
  answer = (response) => response.writeHead(200).end('ok');
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(response);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ({ port } = server.address() as AddressInfo);
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A resolver answering from a table, counting its calls. */
function resolverOf(table: Record<string, ResolvedAddress[]>): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  return Object.assign(resolve, { calls });
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const body = JSON.stringify([{ eventId: 1 }]);

describe('the local runtime (loopback allowed)', () => {
  it('connects to the address the resolver checked, with the name as Host and the same headers', async () => {
    const resolve = resolverOf({ 'hooks.test': [v4('127.0.0.1')] });
    const post = createTargetPoster({ allowsLoopback: true, resolve });

    const result = await post(`http://hooks.test:${port}/hooks?x=1`, body, { 'X-HubSpot-Signature': 'abc' });

    expect(result).toEqual({ statusCode: 200, latencyMs: expect.any(Number) });
    expect(resolve.calls).toEqual(['hooks.test']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: '/hooks?x=1', body });
    expect(seen[0]?.headers).toMatchObject({
      host: `hooks.test:${port}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-hubspot-signature': 'abc',
      'user-agent': 'HubSpot-style platform slice webhooks',
    });
  });

  it('still refuses a name that resolves to a link-local or private address, before connecting', async () => {
    const resolve = resolverOf({
      'metadata.test': [v4('169.254.169.254')],
      'lan.test': [{ address: 'fd00::5', family: 6 }],
    });
    const post = createTargetPoster({ allowsLoopback: true, resolve });

    const metadata = await post(`http://metadata.test:${port}/`, body, {});
    const lan = await post(`http://lan.test:${port}/`, body, {});

    expect(metadata).toEqual({
      error: 'target resolves to a non-public address 169.254.169.254',
      latencyMs: expect.any(Number),
    });
    expect(lan.error).toBe('target resolves to a non-public address fd00::5');
    expect(seen).toHaveLength(0);
  });

  it('checks IP-literal hosts itself (no lookup happens for them)', async () => {
    const resolve = resolverOf({});
    const post = createTargetPoster({ allowsLoopback: true, resolve });

    const loopback = await post(`http://127.0.0.1:${port}/hooks`, body, {});
    const metadata = await post('http://169.254.169.254/latest/meta-data/', body, {});
    const mapped = await post(`http://[::ffff:a9fe:a9fe]:${port}/`, body, {});

    expect(loopback.statusCode).toBe(200);
    expect(metadata).toEqual({
      error: 'target is a non-public address 169.254.169.254',
      latencyMs: expect.any(Number),
    });
    expect(mapped.error).toBe('target is a non-public address ::ffff:a9fe:a9fe');
    expect(resolve.calls).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    answer = (response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    const post = createTargetPoster({ allowsLoopback: true, resolve: resolverOf({}) });

    const result = await post(`http://127.0.0.1:${port}/hooks`, body, {});

    expect(result.statusCode).toBe(302);
    expect(seen.map((request) => request.url)).toEqual(['/hooks']);
  });

  it('keeps the connection alive between POSTs to the same target', async () => {
    const post = createTargetPoster({ allowsLoopback: true, resolve: resolverOf({ 'hooks.test': [v4('127.0.0.1')] }) });

    const first = await post(`http://hooks.test:${port}/a`, body, {});
    const second = await post(`http://hooks.test:${port}/b`, body, {});

    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(seen).toHaveLength(2);
    expect(connections).toBe(1);
  });

  it('gives up after the timeout, whether the target or the lookup is slow', async () => {
    answer = () => undefined;
    const hanging: ResolveHost = () => new Promise(() => undefined);
    const post = createTargetPoster({ allowsLoopback: true, resolve: hanging, timeoutMs: 300 });

    const silent = await post(`http://127.0.0.1:${port}/hooks`, body, {});
    const unresolved = await post(`http://slow-dns.test:${port}/hooks`, body, {});

    expect(silent).toEqual({ error: 'no answer within 300 ms', latencyMs: expect.any(Number) });
    expect(silent.latencyMs).toBeGreaterThanOrEqual(290);
    expect(unresolved.error).toBe('no answer within 300 ms');
  });

  it('reports a name that does not resolve', async () => {
    const post = createTargetPoster({ allowsLoopback: true, resolve: resolverOf({}) });

    expect((await post(`http://nowhere.test:${port}/`, body, {})).error).toBe('getaddrinfo ENOTFOUND nowhere.test');
  });
});

describe('deployed (loopback refused)', () => {
  it('refuses a name resolving to loopback, and the loopback literal, sending nothing', async () => {
    const resolve = resolverOf({ 'hooks.test': [v4('127.0.0.1')] });
    const post = createTargetPoster({ allowsLoopback: false, resolve });

    const named = await post(`http://hooks.test:${port}/hooks`, body, {});
    const literal = await post(`https://127.0.0.1:${port}/hooks`, body, {});

    expect(named.error).toBe('target resolves to a non-public address 127.0.0.1');
    expect(literal.error).toBe('target is a non-public address 127.0.0.1');
    expect(seen).toHaveLength(0);
  });

  it('refuses a name when any of its addresses is not public, even after a public one', async () => {
    const resolve = resolverOf({
      'split.test': [v4('93.184.215.14'), v4('10.0.0.5')],
      'dual.test': [{ address: '2606:4700::1111', family: 6 }, v4('192.168.1.1')],
    });
    const post = createTargetPoster({ allowsLoopback: false, resolve });

    expect((await post('https://split.test/hooks', body, {})).error).toBe(
      'target resolves to a non-public address 10.0.0.5',
    );
    expect((await post('https://dual.test/hooks', body, {})).error).toBe(
      'target resolves to a non-public address 192.168.1.1',
    );
  });
});
