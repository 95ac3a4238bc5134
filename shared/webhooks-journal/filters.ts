import { nowMs } from '../base/clock';
import { NotFoundError, ValidationError } from '../base/errors';
import { nextSequenceValue } from '../db/counters';
import {
  deleteJournalFilter,
  findJournalFilter,
  findJournalFilters,
  insertJournalFilter,
  type JournalFilter,
  type JournalFilterCondition,
} from '../db/webhooks-journal';
import { journalLimits, multiValueOperators, noValueOperators, singleValueOperators } from './journal-limits';
import { requireJournalSubscription, type JournalCaller } from './subscriptions';

export interface FilterCreateInput {
  subscriptionId: number;
  filter: { conditions: JournalFilterCondition[] };
}

/** HubSpot's FilterResponse: the creation time in epoch milliseconds. */
export interface FilterView {
  id: number;
  filter: { conditions: JournalFilterCondition[] };
  createdAt: number;
}

const includes = (list: readonly string[], value: string) => list.includes(value);

/**
 * A condition compares with `value` (EQ … ENDS_WITH), with `values` (IN, NOT_IN) or with nothing
 * (IS_EMPTY, IS_NOT_EMPTY): the other field present, or the needed one missing, is a 400 naming it.
 */
function checkedCondition(condition: JournalFilterCondition, index: number): JournalFilterCondition {
  const at = (field: string) => `body.filter.conditions.${index}.${field}`;
  const refuse = (field: string, message: string) => new ValidationError(message, { context: { field: [at(field)] } });
  const { operator } = condition;
  const { filterType, property } = condition;
  if (includes(singleValueOperators, operator)) {
    if (condition.value === undefined) throw refuse('value', `The operator ${operator} compares with value: send it.`);
    if (condition.values !== undefined) throw refuse('values', `The operator ${operator} takes value, not values.`);
    return { filterType, property, operator, value: condition.value };
  }
  if (includes(multiValueOperators, operator)) {
    if (condition.values === undefined || condition.values.length === 0)
      throw refuse('values', `The operator ${operator} compares with values: send at least one.`);
    if (condition.value !== undefined) throw refuse('value', `The operator ${operator} takes values, not value.`);
    return { filterType, property, operator, values: condition.values };
  }
  if (includes(noValueOperators, operator)) {
    if (condition.value !== undefined) throw refuse('value', `The operator ${operator} compares with nothing.`);
    if (condition.values !== undefined) throw refuse('values', `The operator ${operator} compares with nothing.`);
    return { filterType, property, operator };
  }
  throw refuse('operator', `${operator} is not a filter operator.`);
}

const viewOf = (filter: JournalFilter): FilterView => ({
  id: filter.id,
  filter: filter.filter,
  createdAt: filter.createdAt,
});

/** Adds a filter to one of the caller's subscriptions (at most the filter limit each): its id. */
export async function createJournalFilter(
  caller: JournalCaller,
  input: FilterCreateInput,
): Promise<{ filterId: number }> {
  const conditions = input.filter.conditions.map(checkedCondition);
  if (conditions.length === 0)
    throw new ValidationError('A filter needs at least one condition.', {
      context: { field: ['body.filter.conditions'] },
    });
  const subscription = await requireJournalSubscription(caller, String(input.subscriptionId));
  const filter: JournalFilter = {
    id: await nextSequenceValue('journalFilterId', 1_000_001),
    appId: caller.appId,
    subscriptionId: subscription.id,
    filter: { conditions },
    createdAt: nowMs(),
  };
  const outcome = await insertJournalFilter(filter, journalLimits.filtersPerSubscription);
  if (outcome === 'no-subscription')
    throw new NotFoundError(`Subscription ${subscription.id} not found.`, {
      context: { subscriptionId: [String(subscription.id)] },
    });
  if (outcome === 'limit-reached')
    throw new ValidationError(
      `Subscription ${subscription.id} already has ${journalLimits.filtersPerSubscription} filters, the most one may have.`,
      { context: { field: ['body.subscriptionId'], subscriptionId: [String(subscription.id)] } },
    );
  return { filterId: filter.id };
}

const filterNotFound = (raw: string): NotFoundError =>
  new NotFoundError(`Filter ${raw} not found.`, { context: { filterId: [raw] } });

async function requireJournalFilter(caller: JournalCaller, raw: string): Promise<JournalFilter> {
  const id = Number(raw);
  const filter = Number.isSafeInteger(id) && id >= 1 ? await findJournalFilter(caller.appId, id) : undefined;
  if (!filter) throw filterNotFound(raw);
  return filter;
}

export async function getJournalFilter(caller: JournalCaller, raw: string): Promise<FilterView> {
  return viewOf(await requireJournalFilter(caller, raw));
}

export async function deleteJournalFilterById(caller: JournalCaller, raw: string): Promise<void> {
  const filter = await requireJournalFilter(caller, raw);
  if (!(await deleteJournalFilter(filter))) throw filterNotFound(raw);
}

/** The filters of one of the caller's subscriptions (404 for another app's or a missing one). */
export async function listJournalFiltersOfSubscription(caller: JournalCaller, raw: string): Promise<FilterView[]> {
  const subscription = await requireJournalSubscription(caller, raw);
  return (await findJournalFilters(caller.appId, subscription.filterIds)).map(viewOf);
}
