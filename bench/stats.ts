/** Nearest-rank percentile (p in 0..100) of a sample; NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new RangeError(`percentile ${p} is outside 0..100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** measured / floor; NaN when the floor is not a positive number (no meaningful ratio). */
export function ratio(measured: number, floor: number): number {
  return floor > 0 && Number.isFinite(measured) ? measured / floor : Number.NaN;
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sum = samplesMs.reduce((total, value) => total + value, 0);
  return {
    count: samplesMs.length,
    p50Ms: percentile(samplesMs, 50),
    p99Ms: percentile(samplesMs, 99),
    meanMs: samplesMs.length === 0 ? Number.NaN : sum / samplesMs.length,
  };
}

/** Rounds for the report: enough digits to compare, not the noise. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
