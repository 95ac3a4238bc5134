import { lifecycleStages } from '../properties/company-property-catalog';

const stageOrder = new Map<string, number>(lifecycleStages.map((stage, index) => [stage.value, index]));

/**
 * Lifecycle stages only move forward, as HubSpot's lifecyclestage does: a later stage replaces the
 * current one, an earlier or equal one is ignored until the value has been cleared.
 */
export function isLifecycleStageAccepted(current: string | undefined, next: string): boolean {
  if (next === '' || current === undefined || current === '') return true;
  const from = stageOrder.get(current);
  const to = stageOrder.get(next);
  if (from === undefined || to === undefined) return true;
  return to > from;
}
