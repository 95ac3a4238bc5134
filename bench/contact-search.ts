import { performance } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoCallCounter } from '../shared/db/client';
import { orderIndexItems, recordCountItems } from '../shared/db/order-index';
import type { CrmRecord } from '../shared/db/records';
import { searchProjectionPut } from '../shared/db/search-projection';
import { requireStoredObjectType } from '../shared/objects/object-types';
import { searchFormsOf } from '../shared/records/search-forms';
import { totalCalls } from './budgets';
import { batchWrite } from './bulk-load';
import {
  type FloorReplay,
  prepareFloor,
  recordCommands,
  timeFloorReplay,
  setReturnConsumedCapacity,
} from './dynamo-recorder';
import { jsonRequest, type ApiClient } from './http-client';
import { median, ratio, round, summarize, type LatencySummary } from './stats';
import { isBelowFloor, roundSummary } from './api-latency';

/**
 * The two searches integrations send most, on contacts, at each account size: the
 * incremental sync page (modified since T, oldest first, 100 at a time) and the default-order page
 * (no filter, 100 at a time). Both read the ordered index (shared/search/ordered-search.ts). Held to:
 * read capacity per search at the largest size within 2x the smallest's, and p50 within 3x, or,
 * where DynamoDB Local's own floor (the same calls the search sent, replayed in their recorded overlap
 * through the service's client in the same run)
 * grows more than that, within 1.3x of the floor's growth; and an exact total.
 */
export const contactSearchCases = ['syncPage', 'defaultPage'] as const;
export type ContactSearchCase = (typeof contactSearchCases)[number];

export interface ContactSearchCaseResult {
  case: ContactSearchCase;
  calls: Record<string, number>;
  totalCalls: number;
  capacityUnits: number;
  total: number;
  expectedTotal: number;
  latency: LatencySummary;
  /** The same DynamoDB calls the search sent, replayed in their recorded overlap through the service's client. */
  floor: LatencySummary;
  /** The search's p50 below its floor's: impossible for a true floor, so the run fails on it. */
  isBelowFloor: boolean;
}

export interface ContactSearchLevel {
  contacts: number;
  loadSeconds: number;
  cases: ContactSearchCaseResult[];
}

export interface ContactSearchReport {
  levels: ContactSearchLevel[];
  /** Per case, from the smallest level to the largest: capacity, p50 and the floor's p50 growth, and the verdict. */
  growth: {
    case: ContactSearchCase;
    capacity: number;
    p50: number;
    floorP50: number;
    isMet: boolean;
  }[];
}

const contactsPath = '/crm/v3/objects/contacts';
const contacts = requireStoredObjectType('contacts');
/** Contacts of the bench account matched by the sync page at every size: the most recently modified this many. */
const syncMatches = 1000;
const baseMs = Date.UTC(2025, 0, 1);
export const contactId = (index: number): string => String(1_700_000_000_000_000 + index);
/** Contacts built and written at a time by the load. */
const loadChunk = 10_000;

/** Each contact's modified time: a spread of its index, so modified order is not create order. */
const modifiedMsOf = (index: number): number => baseMs + 86_400_000 + ((index * 7919) % 1_000_003) * 1000 + index;

/** The items a create writes for the bench's contact number `index`: record, projection, ordered-index keys (lastname `Contact<index % 97>`). */
export function contactItems(hubId: number, index: number): Record<string, unknown>[] {
  const id = contactId(index);
  const createdAt = new Date(baseMs + index * 1000).toISOString();
  const updatedAt = new Date(modifiedMsOf(index)).toISOString();
  const properties = { firstname: `Bench${index}`, lastname: `Contact${index % 97}` };
  const record: CrmRecord = {
    id,
    properties,
    history: {},
    associations: {},
    uniqueValues: [],
    createdAt,
    updatedAt,
    archived: false,
    version: 1,
  };
  const forms = searchFormsOf(contacts, record);
  const projection = searchProjectionPut(contacts, hubId, forms, record.version).Put?.Item;
  return [
    { pk: `HUB#${hubId}`, sk: `CONTACT#${id}`, ...record },
    ...(projection ? [projection] : []),
    ...orderIndexItems(contacts, hubId, forms),
  ];
}

/** The request of each case; the sync page's T leaves `syncMatches` contacts modified after it. */
function caseRequest(searchCase: ContactSearchCase, since: string): Record<string, unknown> {
  return searchCase === 'syncPage'
    ? {
        filterGroups: [{ filters: [{ propertyName: 'lastmodifieddate', operator: 'GT', value: since }] }],
        sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
        properties: ['firstname', 'lastmodifieddate'],
        limit: 100,
      }
    : { properties: ['firstname'], limit: 100 };
}

export async function measureContactSearch(options: {
  api: ApiClient;
  /** The untimed bulk load's client. */
  loader: DynamoDBDocumentClient;
  tableName: string;
  token: string;
  hubId: number;
  levels: readonly number[];
  requests: number;
  log: (line: string) => void;
}): Promise<ContactSearchReport> {
  const { api, loader, token } = options;
  const levels: ContactSearchLevel[] = [];
  let loaded = 0;
  for (const target of options.levels) {
    const began = performance.now();
    // In chunks, so a million contacts never sit in memory at once.
    let written = 0;
    for (let start = loaded; start < target; start += loadChunk) {
      const items: Record<string, unknown>[] = [];
      for (let index = start; index < Math.min(target, start + loadChunk); index += 1)
        items.push(...contactItems(options.hubId, index));
      await batchWrite(loader, options.tableName, items, 8);
      written += items.length;
    }
    const counters = recordCountItems(
      contacts,
      options.hubId,
      Array.from({ length: target }, (_, index) => contactId(index)),
    );
    await batchWrite(loader, options.tableName, counters, 8);
    loaded = target;
    const loadSeconds = (performance.now() - began) / 1000;
    options.log(
      `contact search: ${target} contacts loaded (${written + counters.length} items in ${loadSeconds.toFixed(1)} s)`,
    );

    const modified = Array.from({ length: target }, (_, index) => modifiedMsOf(index)).sort((a, b) => a - b);
    const matches = Math.min(syncMatches, target);
    // T: just before the first of the `matches` most recent modifications (their instants are distinct).
    const since = new Date((modified[target - matches] ?? baseMs) - 1).toISOString();
    const cases: ContactSearchCaseResult[] = [];
    for (const searchCase of contactSearchCases) {
      const request = caseRequest(searchCase, since);
      setReturnConsumedCapacity(true);
      dynamoCallCounter.reset();
      let floor: FloorReplay | undefined;
      let total = Number.NaN;
      try {
        const began = performance.now();
        const { result, commands } = await recordCommands(() =>
          api.expectOk(jsonRequest('POST', `${contactsPath}/search`, token, request)),
        );
        floor = prepareFloor(commands, undefined, began);
        total = (JSON.parse(result.body) as { total: number }).total;
      } finally {
        setReturnConsumedCapacity(false);
      }
      const calls = Object.fromEntries(dynamoCallCounter.calls);
      const capacityUnits = round(dynamoCallCounter.capacityUnits, 1);
      const samples: number[] = [];
      const floorSamples: number[] = [];
      for (let run = 0; run < options.requests; run += 1) {
        const requestBegan = performance.now();
        await api.expectOk(jsonRequest('POST', `${contactsPath}/search`, token, request));
        samples.push(performance.now() - requestBegan);
        if (floor) floorSamples.push(await timeFloorReplay(floor));
      }
      const result: ContactSearchCaseResult = {
        case: searchCase,
        calls,
        totalCalls: totalCalls(calls),
        capacityUnits,
        total,
        expectedTotal: searchCase === 'syncPage' ? matches : target,
        latency: roundSummary(summarize(samples)),
        floor: roundSummary(summarize(floorSamples)),
        isBelowFloor: isBelowFloor(median(samples), median(floorSamples)),
      };
      cases.push(result);
      options.log(
        `contact search: ${target} ${searchCase} p50 ${result.latency.p50Ms} ms (floor ${result.floor.p50Ms} ms), ${result.totalCalls} calls, ${capacityUnits} CU, total ${total} (expected ${result.expectedTotal})`,
      );
    }
    levels.push({ contacts: target, loadSeconds: round(loadSeconds, 1), cases });
  }
  const first = levels[0];
  const last = levels.at(-1);
  const growth = contactSearchCases.map((searchCase) => {
    const from = first?.cases.find((entry) => entry.case === searchCase);
    const to = last?.cases.find((entry) => entry.case === searchCase);
    const capacity = round(ratio(to?.capacityUnits ?? Number.NaN, from?.capacityUnits ?? Number.NaN), 2);
    const p50 = round(ratio(to?.latency.p50Ms ?? Number.NaN, from?.latency.p50Ms ?? Number.NaN), 2);
    const floorP50 = round(ratio(to?.floor.p50Ms ?? Number.NaN, from?.floor.p50Ms ?? Number.NaN), 2);
    const totalsExact = levels.every((level) =>
      level.cases.every((entry) => entry.case !== searchCase || entry.total === entry.expectedTotal),
    );
    const isMet = totalsExact && capacity <= 2 && (p50 <= 3 || (floorP50 > 3 && p50 <= 1.3 * floorP50));
    return { case: searchCase, capacity, p50, floorP50, isMet };
  });
  return { levels, growth };
}
