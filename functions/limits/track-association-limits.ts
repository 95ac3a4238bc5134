import type { DynamoDBStreamEvent } from 'aws-lambda';
import { trackAssociationLimits } from '../../shared/limits-tracking/association-limit-tracker';
import { syncAssociationLists } from '../../shared/lists/association-list-sync';
import { changeRecordsOf, type RawStreamRecord } from '../../shared/webhooks/stream-records';

/**
 * The table's stream -> the association limit markers, and the memberships of DYNAMIC lists whose
 * ASSOCIATION filters a change reaches without being a write of the record (association-list-sync.ts).
 * A throw makes Lambda hand out the same records again (bisecting the batch); a change already
 * applied writes nothing the second time.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<{ records: number; listRecords: number }> => {
  const changes = changeRecordsOf(event.Records as RawStreamRecord[]);
  const { records } = await trackAssociationLimits(changes);
  const lists = await syncAssociationLists(changes);
  return { records, listRecords: lists.records };
};
