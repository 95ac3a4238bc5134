import type { DynamoDBStreamEvent } from 'aws-lambda';
import { deliveryQueue } from '../../shared/webhooks/delivery-queue';
import { processStreamBatch, type StreamBatchOutput } from '../../shared/webhooks/stream-batch';
import { changeRecordsOf, type RawStreamRecord } from '../../shared/webhooks/stream-records';

/**
 * The table's stream -> webhook events -> the delivery queue, and the batch's list membership
 * changes (for the webhooks journal). A throw makes Lambda hand out the same records again
 * (bisecting the batch); event ids follow from the records, so a receiver sees the same ids for a
 * repeated change.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<StreamBatchOutput> =>
  processStreamBatch(changeRecordsOf(event.Records as RawStreamRecord[]), deliveryQueue());
