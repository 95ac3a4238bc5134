import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/http/logger';
import { jobQueue, type JobMessage } from '../../shared/jobs/job-queue';
import { runJob } from '../../shared/jobs/run-job';

/**
 * The job queue -> one chunk of a job each message (shared/jobs): the chunk runs, and the message of
 * the next one, if any, goes back on the queue. A chunk that throws is reported failed, so SQS hands
 * it out again (chunks are idempotent) and, after repeated failures, parks it in the dead-letter queue.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (message) => {
      try {
        const next = await runJob(JSON.parse(message.body) as JobMessage);
        if (next) await jobQueue().send(next, next.delayMs ?? 0);
        return undefined;
      } catch (error) {
        logger.error('job chunk failed', { messageId: message.messageId, error: String(error) });
        return { itemIdentifier: message.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
};
