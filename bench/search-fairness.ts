import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { installApp } from './bench-data';
import { ApiClient, jsonRequest } from './http-client';
import { round, summarize, type LatencySummary } from './stats';
import { roundSummary } from './api-latency';

/**
 * One account runs the costliest searches it can build against its own data, back to back from
 * one client, while another account reads a company on the same process (the local gateway, like
 * sam local, serves every account from one Node process). The figure is the reader's latency
 * beside the same reads with nobody searching (before the search budget, a read waited 23 s).
 */
export const fairnessAttacks = [
  'issueNotContainsToken',
  'eighteenLongPatterns',
  'eighteenTokenWalks',
  'queryTerms',
  'longSortedPage',
] as const;
export type FairnessAttack = (typeof fairnessAttacks)[number];

export interface FairnessCase {
  attack: FairnessAttack | 'none';
  /** The other account's company reads while the attack ran; non200: reads answered 503. */
  reads: LatencySummary & { maxMs: number; non200: number };
  /** The searching account's searches: how many finished, how many answered other than 200, their latency. */
  searches: { count: number; non200: number; latency: LatencySummary };
  /** How late the process's event loop ran its callbacks meanwhile (ms): a stretch of synchronous work shows here. */
  eventLoopDelay: { p99Ms: number; maxMs: number };
  /** Reads p99 under the target, every read answered 200. */
  isMet: boolean;
}

export interface FairnessReport {
  /** Companies of the searching account, and the length of each of their long values. */
  companies: number;
  valueLength: number;
  secondsPerCase: number;
  targetP99Ms: number;
  cases: FairnessCase[];
}

/** The longest value the API accepts (shared/properties/validate-property-values.ts) less 2, as in the issue. */
const valueLength = 65_534;
/** The search body's limit (characters of compact JSON). */
const maxBodyChars = 3000;
const targetP99Ms = 100;

/** The three kinds of company the searching account holds, in turn. */
const kinds = ['issueName', 'periodicName', 'words'] as const;

/** Words of the third kind of value: many distinct tokens, each a few characters. */
const wordsValue = (seed: number): string => {
  const words: string[] = [];
  let length = 0;
  for (let index = 0; length < valueLength; index += 1) {
    const word = `w${(seed * 7919 + index).toString(36)}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, valueLength);
};

function companyOf(kind: (typeof kinds)[number], index: number): { properties: Record<string, string> } {
  switch (kind) {
    // The name.
    case 'issueName':
      return { properties: { name: 'a'.repeat(valueLength) } };
    // A b, then a's: a pattern of a's then a b holds only characters the name holds, and never occurs in it, so each filter scans the whole name.
    case 'periodicName':
      return { properties: { name: `b${'a'.repeat(valueLength - 1)}` } };
    case 'words':
      return { properties: { name: wordsValue(index), description: wordsValue(index + 1) } };
  }
}

/** The largest n whose body(n) fits the 3,000-character body. */
function longestFitting(body: (n: number) => unknown): number {
  let low = 0;
  let high = maxBodyChars;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (JSON.stringify(body(mid)).length <= maxBodyChars) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The searches, each as costly as the validation lets it be against the values loaded. */
function attackBody(attack: FairnessAttack): unknown {
  switch (attack) {
    // The search, verbatim.
    case 'issueNotContainsToken':
      return {
        filterGroups: [
          { filters: [{ propertyName: 'name', operator: 'NOT_CONTAINS_TOKEN', value: `*${'a'.repeat(2880)}b` }] },
        ],
        limit: 1,
      };
    // 18 filters (the most a search may have): runs of a's then a b, as long as the body allows, on the names.
    case 'eighteenLongPatterns': {
      const body = (n: number) => ({
        filterGroups: Array.from({ length: 3 }, (_, group) => ({
          filters: Array.from({ length: 6 }, (_unused, index) => ({
            propertyName: 'name',
            operator: index % 2 === 0 ? 'NOT_CONTAINS_TOKEN' : 'CONTAINS_TOKEN',
            value: `*${'a'.repeat(n + group + index)}b`,
          })),
        })),
        limit: 1,
      });
      return body(longestFitting(body));
    }
    // 18 filters whose longest literal (w) every word holds and whose tail (-) none ends with: every token of every words value is tried.
    case 'eighteenTokenWalks':
      return {
        filterGroups: Array.from({ length: 3 }, () => ({
          filters: Array.from({ length: 6 }, (_unused, index) => ({
            propertyName: index % 2 === 0 ? 'description' : 'name',
            operator: index % 3 === 0 ? 'CONTAINS_TOKEN' : 'NOT_CONTAINS_TOKEN',
            value: '*w*-',
          })),
        })),
        limit: 1,
      };
    // As many distinct query terms as the body holds, each found in the values: every term is looked for in every value.
    case 'queryTerms': {
      const terms = Array.from({ length: 1500 }, (_, index) => `w${index.toString(36)}`);
      const body = (n: number) => ({ query: terms.slice(0, n).join(' '), limit: 1 });
      return body(longestFitting(body));
    }
    // The most results a page holds, sorted by the long values, with every long value shown.
    case 'longSortedPage':
      return { sorts: ['-name'], properties: ['name', 'description'], limit: 200 };
  }
}

/** Reads back to back while `isRunning`; an answer other than 200 (a 503 after waiting out the function timeout) is counted. */
async function readLoop(
  client: ApiClient,
  path: string,
  token: string,
  isRunning: () => boolean,
): Promise<{ samples: number[]; non200: number }> {
  const samples: number[] = [];
  let non200 = 0;
  while (isRunning()) {
    const began = performance.now();
    const response = await client.send(jsonRequest('GET', path, token));
    samples.push(performance.now() - began);
    if (response.status !== 200) non200 += 1;
    if (response.status !== 200 && response.status !== 503)
      throw new Error(`fairness: the other account's read answered ${response.status}: ${response.body.slice(0, 300)}`);
  }
  return { samples, non200 };
}

/**
 * Loads the searching account (`companies` companies, a third of each kind: the name of
 * 65,534 a's; a b and 65,533 a's; a name and a description of 65,534 characters of distinct short
 * words), then for each attack runs the searches back to back for `seconds` while the other
 * account reads.
 */
export async function measureSearchFairness(options: {
  api: ApiClient;
  baseUrl: string;
  companies: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<FairnessReport> {
  const { api, log } = options;
  const searcher = await installApp(api);
  const reader = await installApp(api);
  for (let start = 0; start < options.companies; start += 5) {
    const inputs = Array.from({ length: Math.min(5, options.companies - start) }, (_, offset) => {
      const index = start + offset;
      return companyOf(kinds[index % kinds.length] ?? 'words', index);
    });
    await api.expectOk(jsonRequest('POST', '/crm/v3/objects/companies/batch/create', searcher.accessToken, { inputs }));
  }
  const own = await api.expectOk(
    jsonRequest('POST', '/crm/v3/objects/companies', reader.accessToken, { properties: { name: 'Reader company' } }),
  );
  const readPath = `/crm/v3/objects/companies/${(JSON.parse(own.body) as { id: string }).id}`;
  log(`fairness: ${options.companies} companies with ${valueLength}-character values loaded`);

  const readerClient = new ApiClient(options.baseUrl);
  const searchClient = new ApiClient(options.baseUrl);
  const cases: FairnessCase[] = [];
  try {
    // Warm both routes' handlers (their one-time imports are not a request's cost).
    await readerClient.expectOk(jsonRequest('GET', readPath, reader.accessToken));
    await searchClient.expectOk(
      jsonRequest('POST', '/crm/v3/objects/companies/search', searcher.accessToken, { limit: 1 }),
    );
    for (const attack of ['none', ...fairnessAttacks] as const) {
      const endsAt = performance.now() + options.seconds * 1000;
      const isRunning = () => performance.now() < endsAt;
      const searchSamples: number[] = [];
      let non200 = 0;
      const searching =
        attack === 'none'
          ? Promise.resolve()
          : (async () => {
              const body = attackBody(attack);
              while (isRunning()) {
                const began = performance.now();
                const response = await searchClient.send(
                  jsonRequest('POST', '/crm/v3/objects/companies/search', searcher.accessToken, body),
                );
                searchSamples.push(performance.now() - began);
                if (response.status !== 200) non200 += 1;
                if (response.status !== 200 && response.status !== 503)
                  throw new Error(`fairness: ${attack} answered ${response.status}: ${response.body.slice(0, 300)}`);
              }
            })();
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const [{ samples, non200: readsNon200 }] = await Promise.all([
        readLoop(readerClient, readPath, reader.accessToken, isRunning),
        searching,
      ]);
      delay.disable();
      const reads = { ...roundSummary(summarize(samples)), maxMs: round(Math.max(...samples), 1), non200: readsNon200 };
      const eventLoopDelay = { p99Ms: round(delay.percentile(99) / 1e6, 1), maxMs: round(delay.max / 1e6, 1) };
      cases.push({
        attack,
        reads,
        searches: { count: searchSamples.length, non200, latency: roundSummary(summarize(searchSamples)) },
        eventLoopDelay,
        isMet: reads.p99Ms < targetP99Ms && readsNon200 === 0,
      });
      log(
        `fairness: ${attack}: reads p50 ${reads.p50Ms} ms, p99 ${reads.p99Ms} ms, max ${reads.maxMs} ms (${reads.count}, ${readsNon200} not 200); searches ${searchSamples.length}, p50 ${cases.at(-1)?.searches.latency.p50Ms} ms, ${non200} not 200; event loop delay p99 ${eventLoopDelay.p99Ms} ms, max ${eventLoopDelay.maxMs} ms`,
      );
    }
  } finally {
    readerClient.close();
    searchClient.close();
  }
  return { companies: options.companies, valueLength, secondsPerCase: options.seconds, targetP99Ms, cases };
}
