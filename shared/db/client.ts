import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { config } from '../config';

/**
 * Counts every DynamoDB call this process makes, by command name, with the capacity it
 * consumed. The tests and the benchmark read it to prove per-operation budgets.
 */
export const dynamoCallCounter = {
  calls: new Map<string, number>(),
  capacityUnits: 0,
  total(): number {
    let sum = 0;
    for (const count of this.calls.values()) sum += count;
    return sum;
  },
  reset(): void {
    this.calls.clear();
    this.capacityUnits = 0;
  },
};

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
    // timeoutEarly answers 503 for whatever is still waiting. One second proved too tight for
    // DynamoDB Local on a busy 2-core CI machine: healthy calls timed out and were retried.
    requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, socketTimeout: 2000, requestTimeout: 5000, throwOnRequestTimeout: true }),
  });
  base.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      dynamoCallCounter.calls.set(name, (dynamoCallCounter.calls.get(name) ?? 0) + 1);
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] };
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
