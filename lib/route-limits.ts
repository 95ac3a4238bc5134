/** Lambda keeps at least this much of the account's concurrency unreserved. */
export const minimumUnreservedConcurrency = 100;
/** `auto` reserves at most half of what may be reserved, and at most this much per function. */
const maxAutoReservedConcurrency = 25;

/** `auto`, `off` (no reservation), or a number of concurrent executions per route function. */
export type ReservedConcurrencySetting = 'auto' | 'off' | number;

/**
 * The reserved concurrency of each route function, or undefined for none. A reservation caps the
 * function (one flooded route cannot take the whole account) and guarantees it that much. `auto`
 * shares half of the reservable concurrency (the account's limit less the 100 Lambda keeps
 * unreserved) among the route functions, at most 25 each; with too little to give each function
 * one, it reserves nothing. A number must fit the account's limit, or the deploy would fail.
 */
export function reservedConcurrencyPerFunction(
  setting: ReservedConcurrencySetting,
  accountConcurrency: number,
  functionCount: number,
): number | undefined {
  const reservable = accountConcurrency - minimumUnreservedConcurrency;
  if (setting === 'off' || setting === 0 || functionCount === 0) return undefined;
  if (setting === 'auto') {
    const share = Math.min(maxAutoReservedConcurrency, Math.floor(reservable / 2 / functionCount));
    return share >= 1 ? share : undefined;
  }
  if (!Number.isInteger(setting) || setting < 0)
    throw new Error(`reservedConcurrency must be auto, off or a whole number, got ${setting}`);
  if (setting * functionCount > reservable) {
    throw new Error(
      `reservedConcurrency ${setting} x ${functionCount} route functions = ${setting * functionCount} exceeds the ${reservable} an account concurrency of ${accountConcurrency} can reserve (Lambda keeps ${minimumUnreservedConcurrency} unreserved): lower reservedConcurrency, set it to off, or raise accountConcurrency after raising the account's quota`,
    );
  }
  return setting;
}
