import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../base/config';
import type { WebhookEvent } from './webhook-events';

/**
 * The seam between event generation and delivery. Deployed it is SQS (a queue and its dead-letter
 * queue); locally an in-process queue with the same delays stands in, kept in a file of the state
 * folder so a restarted `npm start --data-dir` loses nothing. Nothing else knows which one runs.
 */

/** One POST to one app's target: events of one account, at most 100. */
export interface DeliveryBatch {
  appId: number;
  portalId: number;
  /** 0 for the first try; every event carries the same number. */
  attemptNumber: number;
  events: WebhookEvent[];
  /** A retry further out than SQS can delay one message (15 min) waits in hops until this time. */
  notBeforeMs?: number;
  /**
   * Set on a test account's batches: the id of its pending item (shared/webhooks/pending-batches.ts),
   * which the deliverer claims before posting, so a batch a flush took is not posted twice.
   */
  pendingId?: string;
}

export interface DeliveryQueue {
  send(batches: readonly DeliveryBatch[], delaySeconds: number): Promise<void>;
  deadLetter(batch: DeliveryBatch): Promise<void>;
}

/** SQS delays a message at most this long. */
export const maxQueueDelaySeconds = 900;
/** SQS takes messages of up to 256 KB: a batch is split well below it. */
export const maxBatchBytes = 200_000;
export const maxEventsPerBatch = 100;

/** Batches of at most 100 events and 200 KB, in order. */
export function splitIntoBatches(appId: number, portalId: number, events: readonly WebhookEvent[]): DeliveryBatch[] {
  const batches: DeliveryBatch[] = [];
  let current: WebhookEvent[] = [];
  let bytes = 2;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (current.length > 0 && (current.length >= maxEventsPerBatch || bytes + size > maxBatchBytes)) {
      batches.push({ appId, portalId, attemptNumber: 0, events: current });
      current = [];
      bytes = 2;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) batches.push({ appId, portalId, attemptNumber: 0, events: current });
  return batches;
}

class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly deadLetterQueueUrl: string | undefined,
  ) {}

  private sqs: Promise<SQSClient> | undefined;

  /** Loaded on first use (sqs-client.ts says why). */
  private client(): Promise<SQSClient> {
    this.sqs ??= import('./sqs-client').then(({ SQSClient }) => new SQSClient({ region: config.region }));
    return this.sqs;
  }

  async send(batches: readonly DeliveryBatch[], delaySeconds: number): Promise<void> {
    const { SendMessageBatchCommand } = await import('./sqs-client');
    const client = await this.client();
    for (let start = 0; start < batches.length; start += 10) {
      // SQS delays at most 15 minutes: a later retry waits in hops, its due time in the message.
      const seconds = Math.max(0, Math.round(delaySeconds));
      const notBeforeMs = seconds > maxQueueDelaySeconds ? Date.now() + seconds * 1000 : undefined;
      let entries = batches.slice(start, start + 10).map((batch, index) => ({
        Id: String(index),
        MessageBody: JSON.stringify(notBeforeMs === undefined ? batch : { ...batch, notBeforeMs }),
        DelaySeconds: Math.min(seconds, maxQueueDelaySeconds),
      }));
      // Entries SQS could not take this time are sent again; anything still failing fails the caller, which is retried.
      for (let round = 0; entries.length > 0; round += 1) {
        if (round === 3) throw new Error(`SQS refused ${entries.length} webhook batches`);
        const result = await client.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
        const failed = new Set((result.Failed ?? []).map((entry) => entry.Id));
        entries = entries.filter((entry) => failed.has(entry.Id));
      }
    }
  }

  async deadLetter(batch: DeliveryBatch): Promise<void> {
    if (!this.deadLetterQueueUrl) throw new Error('WEBHOOK_DEAD_LETTER_QUEUE_URL is not set');
    const { SendMessageCommand } = await import('./sqs-client');
    await (await this.client()).send(
      new SendMessageCommand({ QueueUrl: this.deadLetterQueueUrl, MessageBody: JSON.stringify(batch) }),
    );
  }
}

interface PendingBatch {
  id: string;
  dueAtMs: number;
  batch: DeliveryBatch;
}

export interface InProcessQueueOptions {
  /** Runs one batch (the delivery handler); a throw sends it again after a few seconds. */
  deliver: (batch: DeliveryBatch, queue: DeliveryQueue) => Promise<unknown>;
  /** Where pending batches and dead letters are kept; in memory without it. */
  stateDir?: string;
  /** Multiplies every delay; below 1 only in tests, which cannot wait 30 s for a retry. */
  delayScale?: number;
}

export const queueFiles = (stateDir: string) => ({
  pending: path.join(stateDir, 'webhook-queue.json'),
  deadLetters: path.join(stateDir, 'webhook-dead-letters.jsonl'),
  /** Batches the admin CLI hands the running queue (dead-letter replay); drained on every tick. */
  inbox: path.join(stateDir, 'webhook-inbox.jsonl'),
});

function readJsonLines(file: string): DeliveryBatch[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DeliveryBatch);
}

/** The local stand-in for SQS: timers, the same delays, a file so pending batches survive a restart. */
export class InProcessDeliveryQueue implements DeliveryQueue {
  private readonly pending = new Map<string, PendingBatch>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly deadLetters: DeliveryBatch[] = [];
  private inboxTimer: NodeJS.Timeout | undefined;
  private isStopped = false;

  constructor(private readonly options: InProcessQueueOptions) {
    const files = options.stateDir ? queueFiles(options.stateDir) : undefined;
    if (files && existsSync(files.pending)) {
      for (const entry of JSON.parse(readFileSync(files.pending, 'utf8')) as PendingBatch[]) this.schedule(entry);
    }
    this.inboxTimer = files ? setInterval(() => this.drainInbox(), 500) : undefined;
    this.inboxTimer?.unref();
  }

  /** Batches waiting or being delivered. */
  get size(): number {
    return this.pending.size;
  }

  deadLettered(): DeliveryBatch[] {
    return this.options.stateDir ? readJsonLines(queueFiles(this.options.stateDir).deadLetters) : [...this.deadLetters];
  }

  async send(batches: readonly DeliveryBatch[], delaySeconds: number): Promise<void> {
    const dueAtMs = Date.now() + Math.max(0, delaySeconds) * 1000 * (this.options.delayScale ?? 1);
    for (const batch of batches) this.schedule({ id: randomUUID(), dueAtMs, batch });
    this.persist();
  }

  async deadLetter(batch: DeliveryBatch): Promise<void> {
    if (!this.options.stateDir) {
      this.deadLetters.push(batch);
      return;
    }
    mkdirSync(this.options.stateDir, { recursive: true });
    appendFileSync(queueFiles(this.options.stateDir).deadLetters, `${JSON.stringify(batch)}\n`);
  }

  /** Resolves once nothing is due within `horizonMs` and nothing is being delivered (tests, shutdown). */
  async idle(horizonMs = 0): Promise<void> {
    for (;;) {
      const dueSoon = [...this.pending.values()].some((entry) => entry.dueAtMs <= Date.now() + horizonMs);
      if (!dueSoon && this.running.size === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Stops the timers; pending batches stay in the file for the next start. */
  async stop(): Promise<void> {
    this.isStopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.inboxTimer) clearInterval(this.inboxTimer);
    await Promise.allSettled([...this.running]);
  }

  private schedule(entry: PendingBatch): void {
    if (this.isStopped) return;
    this.pending.set(entry.id, entry);
    const timer = setTimeout(() => this.run(entry), Math.max(0, entry.dueAtMs - Date.now()));
    this.timers.set(entry.id, timer);
  }

  private run(entry: PendingBatch): void {
    this.timers.delete(entry.id);
    const delivery = this.options
      .deliver(entry.batch, this)
      .then(
        () => {
          this.pending.delete(entry.id);
        },
        () => {
          // The deliverer itself failed (not the target): like an SQS message that was not deleted, it comes back.
          this.pending.delete(entry.id);
          this.schedule({ ...entry, dueAtMs: Date.now() + 5000 * (this.options.delayScale ?? 1) });
        },
      )
      .finally(() => {
        this.running.delete(delivery);
        this.persist();
      });
    this.running.add(delivery);
  }

  private persist(): void {
    if (!this.options.stateDir || this.isStopped) return;
    const { pending } = queueFiles(this.options.stateDir);
    mkdirSync(this.options.stateDir, { recursive: true });
    // Write then rename: a kill mid-write leaves the previous file whole.
    writeFileSync(`${pending}.tmp`, JSON.stringify([...this.pending.values()]));
    renameSync(`${pending}.tmp`, pending);
  }

  private drainInbox(): void {
    if (!this.options.stateDir) return;
    const { inbox } = queueFiles(this.options.stateDir);
    if (!existsSync(inbox)) return;
    const taken = `${inbox}.${process.pid}`;
    renameSync(inbox, taken);
    void this.send(readJsonLines(taken), 0).then(() => rmSync(taken, { force: true }));
  }
}

let current: DeliveryQueue | undefined;

/** The local runtime installs its in-process queue here; deployed functions get the SQS one. */
export function installDeliveryQueue(queue: DeliveryQueue): void {
  current = queue;
}

export function deliveryQueue(): DeliveryQueue {
  if (current) return current;
  if (!config.webhookQueueUrl)
    throw new Error('no webhook delivery queue: WEBHOOK_QUEUE_URL is unset and no in-process queue is installed');
  current = new SqsDeliveryQueue(config.webhookQueueUrl, config.webhookDeadLetterQueueUrl);
  return current;
}

/** Moves every dead-lettered batch back to the queue as a fresh try (same event ids, attempt 0). */
export async function replayDeadLetters(localStateDir: string | undefined): Promise<number> {
  const fresh = (batch: DeliveryBatch): DeliveryBatch => ({
    appId: batch.appId,
    portalId: batch.portalId,
    attemptNumber: 0,
    events: batch.events.map((event) => ({ ...event, attemptNumber: 0 })),
  });
  if (config.webhookQueueUrl && config.webhookDeadLetterQueueUrl) {
    const { SQSClient, ReceiveMessageCommand, DeleteMessageCommand } = await import('./sqs-client');
    const client = new SQSClient({ region: config.region });
    const queue = new SqsDeliveryQueue(config.webhookQueueUrl, config.webhookDeadLetterQueueUrl);
    let moved = 0;
    // Bounded: 10,000 messages per run; run it again for more.
    for (let round = 0; round < 1000; round += 1) {
      const received = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: config.webhookDeadLetterQueueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
        }),
      );
      const messages = received.Messages ?? [];
      if (messages.length === 0) break;
      for (const message of messages) {
        await queue.send([fresh(JSON.parse(message.Body ?? '{}') as DeliveryBatch)], 0);
        await client.send(
          new DeleteMessageCommand({
            QueueUrl: config.webhookDeadLetterQueueUrl,
            ReceiptHandle: message.ReceiptHandle,
          }),
        );
        moved += 1;
      }
    }
    return moved;
  }
  if (!localStateDir)
    throw new Error(
      'no dead-letter queue: set WEBHOOK_QUEUE_URL and WEBHOOK_DEAD_LETTER_QUEUE_URL, or run it beside npm start',
    );
  const files = queueFiles(localStateDir);
  if (!existsSync(files.deadLetters)) return 0;
  const taken = `${files.deadLetters}.replaying`;
  renameSync(files.deadLetters, taken);
  const batches = readJsonLines(taken).map(fresh);
  appendFileSync(files.inbox, batches.map((batch) => `${JSON.stringify(batch)}\n`).join(''));
  rmSync(taken, { force: true });
  return batches.length;
}
