import { companyObjectType } from '../../../shared/objects/object-types';
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import type { Item } from '../../../shared/db/core';
import {
  scanSearchProjection,
  searchBytesInFlight,
  searchChainsInFlight,
  searchProjectionPut,
} from '../../../shared/db/search-projection';
import { searchShards } from '../../../shared/db/keys';
import { searchFormsOf, type SearchForms } from '../../../shared/records/search-forms';
import { findStandardCompanyProperty } from '../../support/company-catalog';
import { compileSearchMatch } from '../../../shared/search/match-search';
import { SearchBudget, SearchDeadlineError } from '../../../shared/search/search-budget';
import { createProjectionSearchIndex, SearchPageCollector, searchRecords } from '../../../shared/search/search-records';
import { compileSearch, type SearchInput } from '../../../shared/search/search-request';

/**
 * A search must not match each page in one synchronous stretch, check its deadline only between
 * pages, or leave the other shard chains running after it answers. These pin down each part: the matching yields to the process's other work, stops within one record of the
 * deadline, and a search that ends (deadline or failure) leaves no DynamoDB call behind.
 */
const lookup = { find: findStandardCompanyProperty };
/** A `b`, then `a`s: every pattern below holds only characters the name holds, so each filter scans the whole name. */
const longName = `b${'a'.repeat(65_533)}`;

/** 18 NOT_CONTAINS_TOKEN filters (the most a search may have), each with a pattern the names nearly match. */
const costlyInput: SearchInput = {
  filterGroups: Array.from({ length: 3 }, (_, group) => ({
    filters: Array.from({ length: 6 }, (_unused, index) => ({
      propertyName: 'name',
      operator: 'NOT_CONTAINS_TOKEN' as const,
      value: `*${'a'.repeat(70 + group * 6 + index)}b`,
    })),
  })),
  limit: 1,
};

function longNamedForms(count: number): SearchForms[] {
  return Array.from({ length: count }, (_, index) =>
    searchFormsOf(companyObjectType, {
      id: String(1_950_000_000_000_000 + index),
      properties: { name: longName },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    }),
  );
}

type Middleware = (
  next: (args: { input: Item }) => Promise<{ output: Item }>,
) => (args: { input: Item }) => Promise<{ output: Item }>;

/** Runs `body` with `middleware` on the real client (every request still reaches DynamoDB Local). */
async function intercepted<T>(middleware: Middleware, body: () => Promise<T>): Promise<T> {
  const name = `budgetTestInterceptor-${randomUUID()}`;
  (db.middlewareStack as unknown as { add: (m: Middleware, o: object) => void }).add(middleware, {
    step: 'initialize',
    name,
  });
  try {
    return await body();
  } finally {
    db.middlewareStack.remove(name);
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Projection items written straight to the table for a hub no account has: `perShard` companies in every shard. */
async function writeProjection(hubId: number, perShard: number): Promise<void> {
  for (let index = 0; index < searchShards * perShard; index += 1) {
    const id = String(3_000_000_000_000_000 + index);
    const put = searchProjectionPut(
      companyObjectType,
      hubId,
      { id, v: { name: `company ${index}` }, l: {}, n: {} },
      1,
    ).Put;
    await db.send(new PutCommand({ TableName: tableName, Item: put?.Item ?? {} }));
  }
}

describe('matching a page', () => {
  it("lets the process's other requests run while it matches a costly page, instead of holding it to the end", async () => {
    const collector = new SearchPageCollector(compileSearch(costlyInput, lookup, companyObjectType));
    const events: string[] = [];
    setImmediate(() => events.push('another request'));

    await collector.add(longNamedForms(40));
    events.push('page matched');

    expect(events).toEqual(['another request', 'page matched']);
    expect((await collector.page()).total).toBe(40);
  });

  it('pauses between the token filters of one record, and answers as matching in one go does', async () => {
    const search = compileSearch(costlyInput, lookup, companyObjectType);
    const match = compileSearchMatch(search);
    const [record] = longNamedForms(1) as [SearchForms];
    let pauses = 0;
    const pace = {
      isDue: () => true,
      pause: async () => {
        pauses += 1;
      },
    };

    const paced = await match.matchesPaced(record, pace);

    expect(match.isCostly).toBe(true);
    expect(paced).toBe(match.matches(record));
    // Every filter of the first group holds (the name lacks each pattern), so all 6 are checked, each after a pause.
    expect(pauses).toBe(6);
  });

  it('stops within one record of the deadline, in the middle of a page', async () => {
    let clockReads = 0;
    // A clock that moves 1 ms per read: each record costs one read, so the deadline falls on the 10th.
    const budget = new SearchBudget(10, { now: () => clockReads++, sliceMs: 1000 });
    const collector = new SearchPageCollector(compileSearch({ limit: 10 }, lookup, companyObjectType), budget);

    await expect(collector.add(longNamedForms(1000))).rejects.toBeInstanceOf(SearchDeadlineError);
    expect(clockReads).toBeLessThan(15);
    budget.end();
  });

  it('passes its deadline on a real clock while matching a costly page', async () => {
    const budget = new SearchBudget(performance.now() + 20);
    const collector = new SearchPageCollector(compileSearch(costlyInput, lookup, companyObjectType), budget);

    await expect(collector.add(longNamedForms(40))).rejects.toBeInstanceOf(SearchDeadlineError);
    budget.end();
  });
});

describe('pacing a search by what its pages weigh', () => {
  /** Runs a scan over `perShard` companies a shard with names of `nameLength`, counting the Query calls in flight at once. */
  async function pacedScan(perShard: number, nameLength: number): Promise<{ mostInFlight: number; pages: number }> {
    const hubId = 970000000 + Math.floor(Math.random() * 9000000);
    for (let index = 0; index < searchShards * perShard; index += 1) {
      const id = String(4_000_000_000_000_000 + index);
      const put = searchProjectionPut(
        companyObjectType,
        hubId,
        { id, v: { name: `${index}${'x'.repeat(nameLength)}` }, l: {}, n: {} },
        1,
      ).Put;
      await db.send(new PutCommand({ TableName: tableName, Item: put?.Item ?? {} }));
    }
    let inFlight = 0;
    let mostInFlight = 0;
    let pages = 0;
    const counting: Middleware = (next) => async (args) => {
      if (!('KeyConditionExpression' in args.input)) return next(args);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        return await next(args);
      } finally {
        inFlight -= 1;
      }
    };
    const query = { projectionExpression: '#sk, #v', names: { '#sk': 'sk', '#v': 'v' }, values: {} };
    // Pages of 2 items: every shard takes several, so the pacing has pages to learn from.
    await intercepted(counting, () =>
      scanSearchProjection(
        companyObjectType,
        hubId,
        query,
        new AbortController().signal,
        () => {
          pages += 1;
        },
        2,
      ),
    );
    return { mostInFlight, pages };
  }

  it('keeps 2 Query calls in flight when pages bring long values back (2 x 130,000 characters a page)', async () => {
    const { mostInFlight, pages } = await pacedScan(6, 130_000);

    expect(Math.floor(searchBytesInFlight / (2 * 130_000))).toBe(2);
    // 6 items in pages of 2: three full pages and the empty one that ends each shard's chain.
    expect(pages).toBe(searchShards * 4);
    expect(mostInFlight).toBe(2);
  });

  it('runs every chain when pages are light', async () => {
    const { mostInFlight } = await pacedScan(6, 10);

    expect(mostInFlight).toBe(searchChainsInFlight);
  });
});

describe('ending a search', () => {
  const hubId = 980000000 + Math.floor(Math.random() * 9000000);
  const query = { projectionExpression: '#sk, #v', names: { '#sk': 'sk', '#v': 'v' }, values: {} };

  beforeAll(async () => {
    await writeProjection(hubId, 6);
  });

  it('stops every shard chain when one fails: no Query is sent after the scan rejects', async () => {
    dynamoCallCounter.reset();
    const failure = new Error('a page could not be matched');
    let pages = 0;

    // Only the first page fails; the other chains' pages would be taken as they come.
    await expect(
      scanSearchProjection(
        companyObjectType,
        hubId,
        query,
        new AbortController().signal,
        () => {
          pages += 1;
          if (pages === 1) throw failure;
        },
        1,
      ),
    ).rejects.toBe(failure);
    const sentByRejection = dynamoCallCounter.calls.get('QueryCommand') ?? 0;
    await settle(300);

    // 16 shards of 6 companies in pages of one: 112 Query calls had the chains run on.
    expect(dynamoCallCounter.calls.get('QueryCommand') ?? 0).toBe(sentByRejection);
    expect(sentByRejection).toBeLessThanOrEqual(8);
  });

  it('cancels the Query calls in flight when the deadline passes, and answers SearchDeadlineError', async () => {
    const outcomes: string[] = [];
    let sentAfterDeadline = 0;
    let deadlineMs = Number.POSITIVE_INFINITY;
    // DynamoDB answering slowly: every Query waits 150 ms before it is sent.
    const slowQueries: Middleware = (next) => async (args) => {
      if (!('KeyConditionExpression' in args.input)) return next(args);
      if (performance.now() > deadlineMs) sentAfterDeadline += 1;
      await settle(150);
      try {
        const output = await next(args);
        outcomes.push('answered');
        return output;
      } catch (error) {
        outcomes.push((error as Error).name);
        throw error;
      }
    };
    const budget = new SearchBudget(performance.now() + 40);
    deadlineMs = performance.now() + 40;

    await intercepted(slowQueries, async () => {
      await expect(
        createProjectionSearchIndex({ pageItems: 1 })(
          companyObjectType,
          hubId,
          compileSearch({}, lookup, companyObjectType),
          budget,
        ),
      ).rejects.toBeInstanceOf(SearchDeadlineError);
      await settle(400);
    });

    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== 'AbortError')).toEqual([]);
    expect(sentAfterDeadline).toBe(0);
    budget.end();
  });

  it('answers 503 SERVICE_UNAVAILABLE when the index passes the deadline', async () => {
    const pastDeadline = async (): Promise<never> => {
      throw new SearchDeadlineError();
    };

    await expect(searchRecords(companyObjectType, hubId, {}, pastDeadline, false)).rejects.toMatchObject({
      status: 503,
      category: 'SERVICE_UNAVAILABLE',
    });
  });
});
