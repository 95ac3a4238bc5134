import { readCustomPropertyCounts } from '../db/property-definitions';
import { percentageOf, reportedLimits } from './limit-values';
import { limitAndUsage, overallUsage, type LimitAndUsageForObjectType, type OverallUsage } from './limit-shapes';
import { customTrackedTypes, standardTrackedTypes } from './tracked-types';

/** CustomPropertyLimitResponse. */
export interface CustomPropertyLimits {
  byObjectType: LimitAndUsageForObjectType[];
  overallLimit: number;
  overallUsage: number;
  overallPercentage: number;
}

/**
 * Custom properties per type (`/crm/v3/limits/custom-properties`): each type's catalog count item,
 * which every create of a definition moves in its own transaction (archived definitions count, as
 * the cap counts them). The overall limit is the sum of the types' limits. One Query of the schemas
 * and one BatchGetItem.
 */
export async function readCustomPropertyLimits(hubId: number): Promise<CustomPropertyLimits> {
  const tracked = [...standardTrackedTypes, ...(await customTrackedTypes(hubId))];
  const counts = await readCustomPropertyCounts(
    hubId,
    tracked.map(({ type }) => type),
  );
  const byObjectType = tracked.map(({ type, definition }) =>
    limitAndUsage(definition, reportedLimits.customPropertiesPerType, counts.get(type.id) ?? 0),
  );
  const overallLimit = reportedLimits.customPropertiesPerType * tracked.length;
  const total = byObjectType.reduce((sum, entry) => sum + entry.usage, 0);
  return { byObjectType, overallLimit, overallUsage: total, overallPercentage: percentageOf(total, overallLimit) };
}

/**
 * Calculated properties (`/crm/v3/limits/calculated-properties`): this service defines none, so
 * every type's usage is 0. One Query of the schemas (to list the custom types).
 */
export async function readCalculatedPropertyLimits(hubId: number): Promise<OverallUsage> {
  const tracked = [...standardTrackedTypes, ...(await customTrackedTypes(hubId))];
  return overallUsage(
    tracked.map(({ definition }) => ({ definition, usage: 0 })),
    reportedLimits.calculatedProperties,
  );
}
