import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/http/logger';
import { deliverBatch } from '../../shared/webhooks/deliver-batch';
import { deliveryQueue, type DeliveryBatch } from '../../shared/webhooks/delivery-queue';

/**
 * The delivery queue -> the apps' targets. Every message is one batch; they are delivered side by
 * side (each app's maxConcurrentRequests is held in the table). A message whose delivery could not
 * even be tried or re-queued is reported failed, so SQS hands it out again (and after repeated
 * failures moves it to the dead-letter queue by the redrive policy).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const queue = deliveryQueue();
  const failures = await Promise.all(
    event.Records.map(async (message) => {
      try {
        await deliverBatch(JSON.parse(message.body) as DeliveryBatch, queue);
        return undefined;
      } catch (error) {
        logger.error('webhook delivery failed to run', { messageId: message.messageId, error: String(error) });
        return { itemIdentifier: message.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
};
