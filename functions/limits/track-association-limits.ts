import type { DynamoDBStreamEvent } from 'aws-lambda';
import { trackAssociationLimits } from '../../shared/limits-tracking/association-limit-tracker';
import { changeRecordsOf, type RawStreamRecord } from '../../shared/webhooks/stream-records';

/**
 * The table's stream -> the association limit markers. A throw makes Lambda hand out the same
 * records again (bisecting the batch); a change already applied writes nothing the second time.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<{ records: number }> =>
  trackAssociationLimits(changeRecordsOf(event.Records as RawStreamRecord[]));
