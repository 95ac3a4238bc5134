import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '../../shared/webhooks/webhook-events';

export interface ReceivedDelivery {
  url: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  events: WebhookEvent[];
  status: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** Every event of every request (failed ones too), in arrival order. */
  events(): WebhookEvent[];
  /** Chooses the status of the next request; 200 unless set. */
  respondWith(choose: (index: number) => number): void;
  /** Holds every answer this long (0 unless set), so requests in flight overlap when they can. */
  holdFor(ms: number): void;
  /** Holds every answer until `released` settles (as well as holdFor's time): a test ends the hold when it has seen what it looks for. */
  holdUntil(released: Promise<unknown>): void;
  /** The most requests this receiver had open at once. */
  peakInFlight(): number;
  waitFor(predicate: (deliveries: ReceivedDelivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The events of a webhook delivery: a POST to the target's path with a JSON array body; undefined for any other request. */
function eventsOf(request: IncomingMessage, body: string, pathName: string): WebhookEvent[] | undefined {
  if (request.method !== 'POST' || new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== pathName)
    return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? (parsed as WebhookEvent[]) : undefined;
  } catch {
    return undefined;
  }
}

/** A real HTTP target on 127.0.0.1 (port 0) that records every webhook delivery and answers as told. */
export async function startWebhookReceiver(pathName = '/hooks'): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  let choose: (index: number) => number = () => 200;
  let seen = 0;
  let holdMs = 0;
  let heldUntil: Promise<unknown> = Promise.resolve();
  let inFlight = 0;
  let peak = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const events = eventsOf(request, body, pathName);
      // Not a delivery to this target (a client of another test file whose server had this port before): not counted.
      if (!events) {
        response.writeHead(404).end();
        return;
      }
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      response.on('close', () => {
        inFlight -= 1;
      });
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
      await heldUntil.catch(() => undefined);
      const status = choose(seen);
      seen += 1;
      const address = server.address() as AddressInfo;
      deliveries.push({
        url: `http://127.0.0.1:${address.port}${request.url ?? ''}`,
        method: request.method ?? '',
        headers: request.headers,
        body,
        events,
        status,
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${pathName}`,
    deliveries,
    events: () => deliveries.flatMap((delivery) => delivery.events),
    respondWith(next) {
      choose = next;
    },
    holdFor(ms) {
      holdMs = ms;
    },
    holdUntil(released) {
      heldUntil = released;
    },
    peakInFlight: () => peak,
    async waitFor(predicate, timeoutMs = 20000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(deliveries)) {
        if (Date.now() > deadline)
          throw new Error(
            `the receiver did not see what the test waits for within ${timeoutMs} ms; got ${JSON.stringify(deliveries.map((delivery) => delivery.events))}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
