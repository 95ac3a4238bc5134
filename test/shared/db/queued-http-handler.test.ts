import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueuedHttpHandler } from '../../../shared/db/queued-http-handler';

/**
 * The DynamoDB client's HTTP handler: calls beyond its sockets wait in its queue, where the SDK's
 * connection timer does not run yet, and the wait has its own bound. A server on 127.0.0.1 that
 * holds every answer stands in for a busy DynamoDB Local.
 */
let server: Server;
let port: number;
let open = 0;
let mostOpen = 0;
// Far above a loaded machine's connect time to 127.0.0.1, so only the queue's wait can exceed the connection timeout.
const holdMs = 600;

beforeAll(async () => {
  server = createServer((_request, response) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    setTimeout(() => {
      open -= 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    }, holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  mostOpen = 0;
});

type Request = Parameters<QueuedHttpHandler['handle']>[0];
const request = (): Request =>
  ({
    protocol: 'http:',
    hostname: '127.0.0.1',
    port,
    method: 'GET',
    path: '/',
    query: {},
    headers: { host: `127.0.0.1:${port}` },
  }) as unknown as Request; // the fields NodeHttpHandler reads

async function call(handler: QueuedHttpHandler): Promise<number> {
  const { response } = await handler.handle(request());
  const chunks: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return response.statusCode;
}

describe('QueuedHttpHandler', () => {
  it('hands the agent at most maxSockets calls; the others wait longer than the connection timeout and still succeed', async () => {
    const handler = new QueuedHttpHandler({
      connectionTimeout: 500,
      socketTimeout: 5000,
      maxSockets: 2,
      maxQueueWaitMs: 10000,
    });

    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 8 }, () => call(handler)));
    const elapsedMs = performance.now() - started;
    handler.destroy();

    expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
    expect(mostOpen).toBe(2);
    expect(elapsedMs).toBeGreaterThanOrEqual(4 * holdMs - 20); // the last calls waited past the 500 ms connection timeout
    expect(handler.queuedCalls).toBe(0);
  });

  it('fails a call that waits longer than maxQueueWaitMs as a TimeoutError, and keeps serving after it', async () => {
    const handler = new QueuedHttpHandler({
      connectionTimeout: 1000,
      socketTimeout: 5000,
      maxSockets: 1,
      maxQueueWaitMs: 30,
    });

    const [first, second] = await Promise.allSettled([call(handler), call(handler)]);
    const third = await call(handler);
    handler.destroy();

    expect(first).toEqual({ status: 'fulfilled', value: 200 });
    expect(second.status).toBe('rejected');
    expect((second as PromiseRejectedResult).reason).toMatchObject({ name: 'TimeoutError' });
    expect(third).toBe(200);
    expect(handler.queuedCalls).toBe(0);
  });
});
