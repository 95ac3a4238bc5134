/**
 * How this service waits between attempts, written once: unprocessed batch requests
 * (shared/db/core.ts) and optimistic writes that met a conflict (retryOnConflict, below) both wait
 * before retry n a random time up to baseDelayMs * 2^n, capped at maxDelayMs ("full jitter"), so
 * competing callers spread out instead of colliding again in lockstep.
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The wait before retry `retry` (1 for the second attempt) under `policy`. */
export function jitteredDelayMs(retry: number, policy: RetryPolicy): number {
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read-modify-writes of a company (save, merge): every stale attempt means another writer
 * succeeded, so ten racing writers need at most ten rounds. Worst case about 4.5 s of waiting,
 * inside the 10 s Lambda timeout.
 */
export const conflictRetryPolicy: RetryPolicy = { attempts: 12, baseDelayMs: 10, maxDelayMs: 640 };

/**
 * Writes that contend only on one small item of an account's catalog (the custom properties' count
 * item, a pair's association label names): a few short rounds absorb a burst. Worst case about 0.3 s.
 */
export const catalogConflictRetryPolicy: RetryPolicy = { attempts: 6, baseDelayMs: 5, maxDelayMs: 160 };

/** What an attempt of retryOnConflict returns when it met a conflict (a stale read, a transaction conflict): read again and retry. */
export const conflicted: unique symbol = Symbol('conflicted');

/**
 * Runs `attempt` (its number, from 0) until it returns anything but `conflicted`, waiting under
 * `policy` before each retry; after the policy's last attempt, `exhausted` answers (or throws).
 * Whatever `attempt` throws ends the retries.
 */
export async function retryOnConflict<T>(
  attempt: (attempt: number) => Promise<T | typeof conflicted>,
  exhausted: () => T,
  policy: RetryPolicy = conflictRetryPolicy,
): Promise<T> {
  for (let number = 0; number < policy.attempts; number += 1) {
    if (number > 0 && policy.maxDelayMs > 0) await sleep(jitteredDelayMs(number, policy));
    const result = await attempt(number);
    if (result !== conflicted) return result;
  }
  return exhausted();
}
