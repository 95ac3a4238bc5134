import { readSchemaCount } from '../db/object-schemas';
import { percentageOf, reportedLimits } from './limit-values';

/** CustomObjectLimitResponse. */
export interface CustomObjectLimits {
  limit: number;
  usage: number;
  percentage: number;
}

/**
 * Custom object types (`/crm/v3/limits/custom-object-types`): the account's schema count item, the
 * one the create's cap is a condition on (archived schemas count until deleted for good). One GetItem.
 */
export async function readCustomObjectLimits(hubId: number): Promise<CustomObjectLimits> {
  const usage = await readSchemaCount(hubId);
  const limit = reportedLimits.customObjectTypes;
  return { limit, usage, percentage: percentageOf(usage, limit) };
}
