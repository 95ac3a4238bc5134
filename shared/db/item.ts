/** Drops the key and bookkeeping attributes so repositories return plain domain objects. */
export function withoutKeys<T extends object>(item: Record<string, unknown>): T {
  const { pk, sk, ttl, writeId, ...rest } = item;
  void pk;
  void sk;
  void ttl;
  void writeId;
  return rest as T;
}
