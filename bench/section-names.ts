/**
 * The benchmark's sections, in the order a full run takes them. A module of its own, importing
 * nothing: bin/bench.ts reads it to check `--sections` before it sets up the environment the rest
 * of the benchmark (and the service's modules) load with.
 */
export const sectionNames = [
  'cold',
  'costs',
  'warm',
  'scale',
  'search',
  'contacts',
  'lists',
  'fairness',
  'throughput',
  'webhooks',
] as const;
export type SectionName = (typeof sectionNames)[number];
