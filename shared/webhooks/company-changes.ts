import { recordChangesOf, type ChangeRecord, type RecordChange } from './record-changes';

export type { ChangeRecord } from './record-changes';

/** A company's change, under the name it had when companies were the only type with events. */
export type CompanyChange = RecordChange & { object: 'company'; companyId: string };

/**
 * The company changes one stream record stands for: recordChangesOf (record-changes.ts, which
 * event generation uses for every type), kept for companies only, with the id also as `companyId`.
 */
export function companyChangesOf(record: ChangeRecord): CompanyChange[] {
  return recordChangesOf(record)
    .filter((change) => change.object === 'company')
    .map((change) => ({ ...change, object: 'company', companyId: change.objectId }));
}
