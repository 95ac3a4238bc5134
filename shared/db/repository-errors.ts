/**
 * Errors the repositories throw, free of imports so the HTTP layer's error mapping can name them
 * without pulling the DynamoDB client into every bundle.
 */

/**
 * DynamoDB kept part of a batch unprocessed through every retry (it does so to a throttled
 * partition). Typed, so the HTTP layer maps it to 429 RATE_LIMITS without faking an SDK error name.
 */
export class DatabaseThrottledError extends Error {
  override readonly name = 'DatabaseThrottledError';

  constructor(
    operation: string,
    readonly unprocessed: number,
    attempts: number,
  ) {
    super(`${operation}: ${unprocessed} requests still unprocessed after ${attempts} attempts`);
  }
}

/**
 * A write of a test account met its write hold (shared/db/write-guard.ts): a reset or a delete is
 * purging the account, and nothing it did was written. The HTTP layer answers a reset's hold with
 * 503 and Retry-After, a delete's with 401 (the account's installs are ended).
 */
export class WriteHeldError extends Error {
  override readonly name = 'WriteHeldError';

  constructor(
    readonly hubId: number,
    readonly mode: 'reset' | 'delete',
  ) {
    super(`test account ${hubId} is held for a ${mode}`);
  }
}
