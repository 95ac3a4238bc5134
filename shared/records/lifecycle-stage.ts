/** HubSpot's default lifecycle stages in pipeline order; the order drives the forward-only rule. */
export const lifecycleStages = [
  { value: 'subscriber', label: 'Subscriber' },
  { value: 'lead', label: 'Lead' },
  { value: 'marketingqualifiedlead', label: 'Marketing Qualified Lead' },
  { value: 'salesqualifiedlead', label: 'Sales Qualified Lead' },
  { value: 'opportunity', label: 'Opportunity' },
  { value: 'customer', label: 'Customer' },
  { value: 'evangelist', label: 'Evangelist' },
  { value: 'other', label: 'Other' },
] as const;

let stageOrder: ReadonlyMap<string, number> | undefined;

/**
 * Lifecycle stages only move forward, as HubSpot's lifecyclestage does: a later stage replaces the
 * current one, an earlier or equal one is ignored until the value has been cleared.
 */
export function isLifecycleStageAccepted(current: string | undefined, next: string): boolean {
  if (next === '' || current === undefined || current === '') return true;
  stageOrder ??= new Map(lifecycleStages.map((stage, index) => [stage.value, index]));
  const from = stageOrder.get(current);
  const to = stageOrder.get(next);
  if (from === undefined || to === undefined) return true;
  return to > from;
}
