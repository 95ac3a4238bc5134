/**
 * The one source of "now" for expiry decisions. Tests that run the gateway in-process
 * move time with setNow() instead of sleeping.
 */
let offsetMs = 0;

export function nowMs(): number {
  return Date.now() + offsetMs;
}

export function nowSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

/** Shifts the clock by the given amount; for tests only. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
