/**
 * When a failed delivery is tried again. HubSpot retries "up to 10 times … spread out over the next
 * 24 hours, with varying delays" and does not publish the schedule; this one makes 10 attempts in
 * all (the first and 9 retries), the first retry within a minute, about 24 hours from the first
 * attempt to the last.
 */
export const maxDeliveryAttempts = 10;

/** Base delay before retry n (index n - 1), in seconds: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 6 h, 10 h. */
export const retryBaseDelaysSeconds = [30, 120, 600, 1800, 3600, 7200, 14400, 21600, 36000] as const;

/** The delay before the attempt with this number (1 = the first retry): the base ±20 % jitter, the first never past 60 s. */
export function retryDelaySeconds(attemptNumber: number, random: () => number = Math.random): number {
  const base = retryBaseDelaysSeconds[Math.min(Math.max(attemptNumber, 1), retryBaseDelaysSeconds.length) - 1] ?? 30;
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  return attemptNumber <= 1 ? Math.min(jittered, 60) : jittered;
}

/**
 * How long the stream's records gather before one invocation handles them: the deployed event
 * source's MaximumBatchingWindowInSeconds (lib/webhook-pipeline.ts) and the local runtime's poll
 * interval (local/local-webhooks.ts), so both batch alike.
 */
export const streamBatchingWindowSeconds = 1;
