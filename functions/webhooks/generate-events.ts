import type { DynamoDBStreamEvent } from 'aws-lambda';
import { deliveryQueue } from '../../shared/webhooks/delivery-queue';
import { generateEvents } from '../../shared/webhooks/generate-events';
import { changeRecordsOf, type RawStreamRecord } from '../../shared/webhooks/stream-records';

/**
 * The table's stream -> webhook events -> the delivery queue. A throw makes Lambda hand out the
 * same records again (bisecting the batch); event ids follow from the records, so a receiver sees
 * the same ids for a repeated change.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<{ queued: number }> => ({
  queued: await generateEvents(changeRecordsOf(event.Records as RawStreamRecord[]), deliveryQueue()),
});
