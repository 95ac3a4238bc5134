/**
 * DynamoDB calls each API operation may make, by command name (the SDK's low-level names,
 * as dynamoCallCounter records them). An operation that makes a call its budget does not
 * list, or more calls than listed, is over budget and fails the benchmark.
 */
export type CallBudget = Readonly<Record<string, number>>;

export interface MeasuredCost {
  operation: string;
  /** Calls by command name for one request. */
  calls: Readonly<Record<string, number>>;
  /** Calls that only retried keys DynamoDB left unprocessed (allowed on top of the budget). */
  unprocessedRetries?: number;
}

export interface BudgetVerdict {
  operation: string;
  isWithinBudget: boolean;
  /** Why not, one line per command over its budget. */
  excess: string[];
}

export function checkBudget(cost: MeasuredCost, budget: CallBudget): BudgetVerdict {
  const excess: string[] = [];
  let retriesLeft = cost.unprocessedRetries ?? 0;
  for (const [command, count] of Object.entries(cost.calls)) {
    const allowed = budget[command] ?? 0;
    let over = count - allowed;
    // Unprocessed-key retries are the only calls allowed past the budget, and only of batch reads.
    if (over > 0 && command === 'BatchGetItemCommand') {
      const forgiven = Math.min(over, retriesLeft);
      retriesLeft -= forgiven;
      over -= forgiven;
    }
    if (over > 0) excess.push(`${command}: ${count} calls, budget ${allowed}`);
  }
  return { operation: cost.operation, isWithinBudget: excess.length === 0, excess };
}

export const totalCalls = (calls: Readonly<Record<string, number>>): number =>
  Object.values(calls).reduce((sum, count) => sum + count, 0);
