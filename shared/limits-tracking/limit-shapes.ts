import { percentageOf } from './limit-values';
import type { ObjectTypeDefinition } from './tracked-types';

/** One type's limit and usage (LimitAndUsageForObjectType). */
export interface LimitAndUsageForObjectType extends ObjectTypeDefinition {
  limit: number;
  usage: number;
  percentage: number;
}

/** One type's usage under a limit shared by several types (UsageForObjectType). */
export interface UsageForObjectType extends ObjectTypeDefinition {
  usage: number;
}

/** Several types' usage under one overall limit (CustomObjectRecordLimitResponse, CalculatedPropertyLimitResponse). */
export interface OverallUsage {
  byObjectType: UsageForObjectType[];
  overallLimit: number;
  overallUsage: number;
  overallPercentage: number;
}

/** The HubSpot-defined types one by one, the custom types under one limit (RecordLimitResponse, PipelineLimitResponse). */
export interface PerTypeLimits {
  hubspotDefinedObjectTypes: LimitAndUsageForObjectType[];
  customObjectTypes: OverallUsage;
}

export const limitAndUsage = (
  definition: ObjectTypeDefinition,
  limit: number,
  usage: number,
): LimitAndUsageForObjectType => ({ ...definition, limit, usage, percentage: percentageOf(usage, limit) });

export function overallUsage(
  entries: readonly { definition: ObjectTypeDefinition; usage: number }[],
  overallLimit: number,
): OverallUsage {
  const total = entries.reduce((sum, entry) => sum + entry.usage, 0);
  return {
    byObjectType: entries.map((entry) => ({ ...entry.definition, usage: entry.usage })),
    overallLimit,
    overallUsage: total,
    overallPercentage: percentageOf(total, overallLimit),
  };
}
