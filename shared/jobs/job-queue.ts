import { config } from '../base/config';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { runJob } from './run-job';

/**
 * Work that outlives a request, as messages of bounded chunks: each message is one chunk, and a
 * chunk that has more to do answers the message of the next. Deployed the queue is SQS and the job
 * function (functions/jobs/run-job.ts) runs each message; locally, and wherever JOB_QUEUE_URL is
 * unset, an in-process queue runs the same handler on timers. Nothing else knows which one runs.
 */
export interface ListEvaluationJob {
  kind: 'list-evaluation';
  hubId: number;
  listId: string;
  /** The filters this evaluation is of: a message of older filters ends without work. */
  filtersChangedAtMs: number;
  /** Where the scan is: the search shard and the last record id done in it. */
  shard: number;
  after?: string;
  /** Chunks so far that found a list its IN_LIST filters name still PROCESSING, and waited. */
  waits?: number;
  /** How long the queue holds this message before its chunk runs (a chunk that waits sets it). */
  delayMs?: number;
}

export type JobMessage = ListEvaluationJob;

/** Runs one chunk; answers the next message, if any. */
export type JobHandler = (message: JobMessage) => Promise<JobMessage | undefined>;

export interface JobQueue {
  send(message: JobMessage, delayMs: number): Promise<void>;
}

/** SQS delays a message at most 15 minutes; jobs never ask for more than seconds. */
const maxDelaySeconds = 900;

class SqsJobQueue implements JobQueue {
  private sqs: Promise<SQSClient> | undefined;
  constructor(private readonly queueUrl: string) {}

  async send(message: JobMessage, delayMs: number): Promise<void> {
    const { SQSClient, SendMessageCommand } = await import('../webhooks/sqs-client');
    this.sqs ??= Promise.resolve(new SQSClient({ region: config.region }));
    const client = await this.sqs;
    await client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(maxDelaySeconds, Math.ceil(delayMs / 1000)),
      }),
    );
  }
}

/**
 * The in-process stand-in for SQS: a timer per message, the handler run when it is due, the next
 * chunk sent at once. A chunk that throws is sent again after `retryMs`, at most `attempts` times.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private isStopped = false;

  constructor(
    private readonly handler: () => Promise<JobHandler>,
    private readonly retryMs = 1000,
    private readonly attempts = 5,
  ) {}

  async send(message: JobMessage, delayMs: number): Promise<void> {
    this.schedule(message, delayMs, 1);
  }

  private schedule(message: JobMessage, delayMs: number, attempt: number): void {
    if (this.isStopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.run(message, attempt).finally(() => this.running.delete(run));
      this.running.add(run);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async run(message: JobMessage, attempt: number): Promise<void> {
    try {
      const next = await (await this.handler())(message);
      if (next) this.schedule(next, next.delayMs ?? 0, 1);
    } catch (error) {
      if (attempt >= this.attempts) {
        console.error(JSON.stringify({ event: 'job-failed', kind: message.kind, error: String(error) }));
        return;
      }
      this.schedule(message, this.retryMs, attempt + 1);
    }
  }

  /** Resolves once no job is waiting or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}

/**
 * Inside a Lambda function with no job queue (a `sam local` template, which has no queue): the
 * process freezes once it answers, so a job runs in the request that starts it, chunk after chunk,
 * for at most `budgetMs`; a longer one stops there (its list stays PROCESSING).
 */
class InlineJobQueue implements JobQueue {
  constructor(private readonly budgetMs = 10_000) {}

  async send(message: JobMessage): Promise<void> {
    const stopAt = Date.now() + this.budgetMs;
    let next: JobMessage | undefined = message;
    while (next && Date.now() + (next.delayMs ?? 0) < stopAt) {
      if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next?.delayMs));
      next = await runJob(next);
    }
  }
}

let current: JobQueue | undefined;

export function installJobQueue(queue: JobQueue): void {
  current = queue;
}

/** The job queue: SQS where JOB_QUEUE_URL is set; else inside Lambda the request's own time, elsewhere this process's timers. */
export function jobQueue(): JobQueue {
  if (current) return current;
  current = config.jobQueueUrl
    ? new SqsJobQueue(config.jobQueueUrl)
    : process.env.AWS_LAMBDA_FUNCTION_NAME
      ? new InlineJobQueue()
      : new InProcessJobQueue(async () => runJob);
  return current;
}
