import { randomInt } from 'node:crypto';
import { nowMs } from '../base/clock';

/** Milliseconds since this instant keep ids short: 12 digits last until 2055. */
const idEpochMs = Date.UTC(2024, 0, 1);
let lastMs = 0;
let sequence = 0;

/**
 * A new record id without a database call: "1", 12 digits of milliseconds, 3 digits of sequence.
 * Fixed width, so the sort key orders ids by creation: within one process each id is greater than
 * the last (a millisecond's thousandth id borrows the next millisecond, and a clock that steps back
 * keeps the last one). 16 digits stay below Number.MAX_SAFE_INTEGER for clients that parse ids as
 * numbers. The sequence starts at a random point below 500 each millisecond, so two functions rarely
 * pick the same id, and the create's conditional put turns the rare collision into a retry with a
 * new id.
 */
export function newRecordId(): string {
  const ms = Math.max(0, nowMs() - idEpochMs);
  if (ms > lastMs) {
    lastMs = ms;
    sequence = randomInt(0, 500);
  } else if (sequence < 999) {
    sequence += 1;
  } else {
    lastMs += 1;
    sequence = randomInt(0, 500);
  }
  return `1${String(lastMs).padStart(12, '0')}${String(sequence).padStart(3, '0')}`;
}

/** Ids this service hands out, or any plausible numeric id (HubSpot ids are numeric). */
export function isNumericId(id: string): boolean {
  return /^\d{1,19}$/.test(id);
}
