/**
 * Keys a client chooses (property names, field names, cookie names) become object keys. On an
 * ordinary object, `constructor`, `toString` or `__proto__` already answer from Object.prototype,
 * so a lookup finds something the client never set and an assignment may change the prototype.
 * Maps keyed by client input are therefore built without a prototype, read with Object.hasOwn,
 * and names of Object.prototype members are refused where a client defines a name.
 */
let objectPrototypeNames: ReadonlySet<string> | undefined;

export function isObjectPrototypeName(name: string): boolean {
  objectPrototypeNames ??= new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);
  return objectPrototypeNames.has(name);
}

/** An empty record with no prototype: every key it answers for is one that was set. */
export function clientKeyedRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value the record itself holds under the key, never one inherited from a prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Like Object.fromEntries, into a record without a prototype. */
export function clientKeyedRecordOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record = clientKeyedRecord<T>();
  for (const [key, value] of entries) record[key] = value;
  return record;
}
