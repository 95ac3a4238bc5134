import { readRecordCounts } from '../db/order-index';
import { reportedLimits } from './limit-values';
import { limitAndUsage, overallUsage, type PerTypeLimits } from './limit-shapes';
import { customTrackedTypes, standardTrackedTypes } from './tracked-types';

/**
 * Records per type (`/crm/v3/limits/records`): the active records the type's counters hold
 * (shared/db/order-index.ts), written in each record's own transaction. One Query of the schemas,
 * then ceil(16 x types / 100) BatchGetItem calls: 2 with no custom types, 4 with the most (10).
 */
export async function readRecordLimits(hubId: number): Promise<PerTypeLimits> {
  const custom = await customTrackedTypes(hubId);
  const counts = await readRecordCounts(
    hubId,
    [...standardTrackedTypes, ...custom].map(({ type }) => type),
  );
  const usageOf = (typeId: string): number => counts.get(typeId) ?? 0;
  return {
    hubspotDefinedObjectTypes: standardTrackedTypes.map(({ type, definition }) =>
      limitAndUsage(definition, reportedLimits.recordsPerStandardType, usageOf(type.id)),
    ),
    customObjectTypes: overallUsage(
      custom.map(({ type, definition }) => ({ definition, usage: usageOf(type.id) })),
      reportedLimits.customObjectRecords,
    ),
  };
}
