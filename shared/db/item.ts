/** Drops the key and bookkeeping attributes so repositories return plain domain objects. */
export function withoutKeys<T extends object>(item: Record<string, unknown>): T {
  const { pk, sk, ttl, writeId, ...rest } = item;
  void pk; void sk; void ttl; void writeId;
  return rest as T;
}

/** True when a TransactWriteItems call was cancelled because a condition failed (not a conflict). */
export function cancellationReasons(error: unknown): string[] | undefined {
  if (typeof error !== 'object' || error === null || (error as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'ConditionalCheckFailedException';
}
