import { NodeHttpHandler, type NodeHttpHandlerOptions } from '@smithy/node-http-handler';

type HandleArguments = Parameters<NodeHttpHandler['handle']>;
type Handled = Awaited<ReturnType<NodeHttpHandler['handle']>>;

interface Waiter {
  grant(): void;
}

export interface QueuedHttpHandlerOptions extends Omit<NodeHttpHandlerOptions, 'httpAgent' | 'httpsAgent'> {
  /** Sockets of the keep-alive agent, and calls handed to it at once. */
  maxSockets: number;
  /** A call that waits longer than this for a socket fails as a TimeoutError (a 503 for the client). */
  maxQueueWaitMs: number;
}

interface BodyStream {
  once(event: 'end' | 'close' | 'error', listener: () => void): unknown;
  readableEnded?: boolean;
  destroyed?: boolean;
}

function isBodyStream(body: unknown): body is BodyStream {
  return typeof body === 'object' && body !== null && typeof (body as { once?: unknown }).once === 'function';
}

/**
 * The SDK's Node handler, handed at most `maxSockets` calls at once; the others wait here, in order.
 *
 * Why: this SDK version starts a call's connection timer when the call is made, not when the agent
 * gives it a socket. With more calls in flight than the agent has sockets, the agent queues them,
 * and a call that waited there longer than the connection timeout (1 s) failed as if DynamoDB could
 * not be reached: 250 parallel GETs through the local gateway, one process for every request, got
 * 184 503s. Here a call reaches the agent only when a socket is free (or may be opened),
 * so the connection timeout measures connecting again, and the wait for a socket has its own bound.
 * A slot is held until the response body has been read, as the agent holds the socket.
 */
export class QueuedHttpHandler extends NodeHttpHandler {
  private readonly maxInFlight: number;
  private readonly maxQueueWaitMs: number;
  private inFlight = 0;
  /** Insertion-ordered: the first waiter is the oldest. */
  private readonly waiting = new Set<Waiter>();

  constructor(options: QueuedHttpHandlerOptions) {
    const { maxSockets, maxQueueWaitMs, ...rest } = options;
    super({ ...rest, httpAgent: { maxSockets }, httpsAgent: { maxSockets } });
    this.maxInFlight = maxSockets;
    this.maxQueueWaitMs = maxQueueWaitMs;
  }

  override async handle(...args: HandleArguments): Promise<Handled> {
    await this.acquire();
    let handled: Handled;
    try {
      handled = await super.handle(...args);
    } catch (error) {
      this.release();
      throw error;
    }
    this.releaseWhenRead(handled.response.body);
    return handled;
  }

  /** Calls waiting for a socket now (for tests and diagnostics). */
  get queuedCalls(): number {
    return this.waiting.size;
  }

  private acquire(): Promise<void> {
    if (this.inFlight < this.maxInFlight) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting.delete(waiter);
        reject(
          Object.assign(new Error(`no socket to DynamoDB became free within ${this.maxQueueWaitMs} ms`), {
            name: 'TimeoutError',
          }),
        );
      }, this.maxQueueWaitMs);
      this.waiting.add(waiter);
    });
  }

  /** Passes the slot to the oldest waiter, if any (the count in flight stays the same). */
  private release(): void {
    const next = this.waiting.values().next();
    if (next.done) {
      this.inFlight -= 1;
      return;
    }
    this.waiting.delete(next.value);
    next.value.grant();
  }

  private releaseWhenRead(body: unknown): void {
    if (!isBodyStream(body) || body.readableEnded === true || body.destroyed === true) {
      this.release();
      return;
    }
    let isReleased = false;
    const releaseOnce = () => {
      if (isReleased) return;
      isReleased = true;
      this.release();
    };
    body.once('end', releaseOnce);
    body.once('close', releaseOnce);
    body.once('error', releaseOnce);
  }
}
