import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../base/config';
import { QueuedHttpHandler } from './queued-http-handler';

/**
 * Counts every DynamoDB call this process makes, by command name, with the capacity it
 * consumed. The tests and the benchmark read it to prove per-operation budgets.
 */
export const dynamoCallCounter = {
  calls: new Map<string, number>(),
  /**
   * Batch calls, by command name, whose answer left keys or items unprocessed: DynamoDB does that
   * under load, and shared/db/core.ts sends what is left again, a call that `calls` counts too.
   */
  unprocessedRetries: new Map<string, number>(),
  capacityUnits: 0,
  total(): number {
    let sum = 0;
    for (const count of this.calls.values()) sum += count;
    return sum;
  },
  /** The calls by command name less the retries of unprocessed keys and items: what an operation sends when every batch is processed at once. */
  callsApartFromRetries(): Record<string, number> {
    const own: Record<string, number> = {};
    for (const [name, count] of this.calls) {
      const left = count - (this.unprocessedRetries.get(name) ?? 0);
      if (left > 0) own[name] = left;
    }
    return own;
  },
  /** The number of calls less the retries of unprocessed keys and items. */
  totalApartFromRetries(): number {
    return Object.values(this.callsApartFromRetries()).reduce((sum, count) => sum + count, 0);
  },
  reset(): void {
    this.calls.clear();
    this.unprocessedRetries.clear();
    this.capacityUnits = 0;
  },
};

/** Whether a BatchGetItem or BatchWriteItem answer left anything unprocessed (any other answer: false). */
function leftUnprocessed(output: {
  UnprocessedKeys?: Record<string, { Keys?: unknown[] } | undefined>;
  UnprocessedItems?: Record<string, unknown[] | undefined>;
}): boolean {
  return (
    Object.values(output.UnprocessedKeys ?? {}).some((request) => (request?.Keys?.length ?? 0) > 0) ||
    Object.values(output.UnprocessedItems ?? {}).some((requests) => (requests?.length ?? 0) > 0)
  );
}

/** The SDK's default pool size, kept for DynamoDB itself. */
const dynamoDbSockets = 50;
/** shared/associations/batch-associations.ts reads 16 pages at once: one request never waits for its own calls. */
const localEndpointSockets = 16;
const localEndpointSocketTimeoutMs = 4000;

function createClient(): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint
      ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
    // A database that stops answering must become a bounded 503, never a hung request. DynamoDB
    // answers in milliseconds, so two silent seconds (socketTimeout: inactivity, not total time) mean
    // it will not answer; requestTimeout caps one attempt's total and throws only with
    // throwOnRequestTimeout (without it, this SDK version merely logs a warning and waits on).
    // Worst case per call: 3 attempts of 2 s plus backoff, about 6.5 s (less once the SDK's retry
    // quota is spent), inside the 10 s Lambda timeout (lib/bundled-function.ts), where middy's
    // timeoutEarly answers 503 for whatever is still waiting. One second is too tight for
    // DynamoDB Local on a busy 2-core CI machine: healthy calls time out and are retried.
    // Calls wait for a free socket in the handler's queue, not in the agent's, where this SDK version
    // already runs the 1 s connection timer (shared/db/queued-http-handler.ts; without it, 250 parallel
    // GETs through the local gateway get 184 503s). Against DynamoDB: the SDK's own pool of 50 sockets,
    // which a function serving one request at a time rarely fills. Against a local endpoint (DynamoDB
    // Local, one Java process on the same cores) 16, the widest fan-out of one request (batch reads'
    // readConcurrency), so one request alone never queues: more calls at once add no throughput, only
    // length to each call, which the 2 s socket timeout counts (250 parallel UpdateItems on a fresh
    // DynamoDB Local on a loaded 2-core machine: 38 failed with 50 sockets, none with 16 or 8).
    // The queue wait is bounded below the 10 s function timeout. DynamoDB Local (a local endpoint)
    // gets 4 s of silence: with two test suites on 2 cores it fell silent past 2 s three attempts
    // running; a database that stops answering still ends in the early-timeout 503 before 10 s.
    requestHandler: new QueuedHttpHandler({
      connectionTimeout: 1000,
      socketTimeout: config.dynamodbEndpoint ? localEndpointSocketTimeoutMs : 2000,
      requestTimeout: 5000,
      throwOnRequestTimeout: true,
      maxSockets: config.dynamodbEndpoint ? localEndpointSockets : dynamoDbSockets,
      maxQueueWaitMs: 8000,
    }),
  });
  base.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      dynamoCallCounter.calls.set(name, (dynamoCallCounter.calls.get(name) ?? 0) + 1);
      const result = await next(args);
      const output = result.output as Parameters<typeof leftUnprocessed>[0] & {
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      if (leftUnprocessed(output))
        dynamoCallCounter.unprocessedRetries.set(name, (dynamoCallCounter.unprocessedRetries.get(name) ?? 0) + 1);
      const consumed = output.ConsumedCapacity;
      for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        dynamoCallCounter.capacityUnits += entry.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name: 'callCounter' },
  );
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

export const db = createClient();
export const tableName = config.tableName;
