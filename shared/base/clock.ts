/**
 * The one source of "now" for expiry decisions. Tests that run the gateway in-process
 * move time with setNow() instead of sleeping.
 */
let offsetMs = 0;
let frozenAtMs: number | undefined;

export function nowMs(): number {
  return (frozenAtMs ?? Date.now()) + offsetMs;
}

export function nowSeconds(): number {
  return Math.floor(nowMs() / 1000);
}

/** Shifts the clock by the given amount; for tests only. */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

/** Stops the clock where it is (it then moves only with advanceClock); for tests whose timing must not depend on load. */
export function freezeClock(): void {
  frozenAtMs = Date.now();
}

export function resetClock(): void {
  offsetMs = 0;
  frozenAtMs = undefined;
}
