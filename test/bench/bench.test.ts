import { measureColdStarts } from '../../bench/cold-start';
import { measureContactSearch } from '../../bench/contact-search';
import { checkBudget } from '../../bench/budgets';
import { measureCosts } from '../../bench/api-latency';
import { loaderClient, toFloorInput } from '../../bench/dynamo-recorder';
import {
  createCompanies,
  createContacts,
  createCustomType,
  createTimelineEvent,
  installApp,
  seedJournal,
} from '../../bench/bench-data';
import { createListAccounts } from '../../bench/list-accounts';
import { measureListEvaluation, measureListMemberships } from '../../bench/list-scale';
import { operations, seededRandom, type BenchState } from '../../bench/operations';
import { percentile, ratio, summarize } from '../../bench/stats';
import { fairnessAttacks, measureSearchFairness } from '../../bench/search-fairness';
import { useBenchApi } from '../support/bench-api';
import { useBundleOutDir } from '../support/bundle-out-dir';

describe('bench statistics', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it('takes the nearest-rank percentile whatever the order of the samples', () => {
    const shuffled = [...oneToHundred].reverse();

    expect([
      percentile(shuffled, 50),
      percentile(shuffled, 99),
      percentile(shuffled, 100),
      percentile(shuffled, 0),
    ]).toEqual([50, 99, 100, 1]);
  });

  it('has no percentile of an empty sample', () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it('refuses a percentile outside 0..100', () => {
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('summarizes p50, p99 and mean', () => {
    expect(summarize(oneToHundred)).toEqual({ count: 100, p50Ms: 50, p99Ms: 99, meanMs: 50.5 });
  });

  it('gives no ratio against a floor that is not positive', () => {
    expect([ratio(3, 2), ratio(3, 0)]).toEqual([1.5, Number.NaN]);
  });
});

describe('bench budgets', () => {
  it('accepts calls within the budget', () => {
    const verdict = checkBudget({ operation: 'read', calls: { GetItemCommand: 1 } }, { GetItemCommand: 1 });

    expect(verdict).toEqual({ operation: 'read', isWithinBudget: true, excess: [] });
  });

  it('rejects a command the budget does not list', () => {
    const verdict = checkBudget(
      { operation: 'read', calls: { GetItemCommand: 1, QueryCommand: 1 } },
      { GetItemCommand: 1 },
    );

    expect(verdict.excess).toEqual(['QueryCommand: 1 calls, budget 0']);
  });

  it('rejects more calls of a command than budgeted', () => {
    expect(
      checkBudget({ operation: 'update', calls: { GetItemCommand: 2 } }, { GetItemCommand: 1 }).isWithinBudget,
    ).toBe(false);
  });

  it('forgives BatchGetItem retries of unprocessed keys, and nothing else', () => {
    const batch = checkBudget(
      { operation: 'batch', calls: { BatchGetItemCommand: 3 }, unprocessedRetries: 2 },
      { BatchGetItemCommand: 1 },
    );
    const get = checkBudget(
      { operation: 'get', calls: { GetItemCommand: 2 }, unprocessedRetries: 1 },
      { GetItemCommand: 1 },
    );

    expect([batch.isWithinBudget, get.isWithinBudget]).toEqual([true, false]);
  });
});

describe('bench floor replay', () => {
  it("moves every partition key of a recorded command into the floor's key space, and nothing else", () => {
    const input = {
      TransactItems: [
        {
          Put: {
            TableName: 'api',
            Item: { pk: 'a', sk: 'a', note: 'pk' },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Update: { TableName: 'api', Key: { pk: 'b', sk: 'b' }, ExpressionAttributeValues: { ':pk': 'kept' } } },
      ],
      RequestItems: { api: { Keys: [{ pk: 'c', sk: 'c' }] } },
      ReturnConsumedCapacity: 'TOTAL',
    };
    const query = {
      TableName: 'api',
      KeyConditionExpression: '#p = :queryPk AND begins_with(sk, :prefix)',
      ExpressionAttributeNames: { '#p': 'pk' },
      ExpressionAttributeValues: { ':queryPk': 'd', ':prefix': 'e' },
      ExclusiveStartKey: { pk: 'd', sk: 'e1' },
    };

    expect([toFloorInput(input, 'F#'), toFloorInput(query, 'F#')]).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: 'api',
              Item: { pk: 'F#a', sk: 'a', note: 'pk' },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Update: { TableName: 'api', Key: { pk: 'F#b', sk: 'b' }, ExpressionAttributeValues: { ':pk': 'kept' } } },
        ],
        RequestItems: { api: { Keys: [{ pk: 'F#c', sk: 'c' }] } },
      },
      {
        ...query,
        ExpressionAttributeValues: { ':queryPk': 'F#d', ':prefix': 'e' },
        ExclusiveStartKey: { pk: 'F#d', sk: 'e1' },
      },
    ]);
  });
});

describe('bench cost per operation (the check `npm run bench` fails on)', () => {
  const bench = useBenchApi();

  it('keeps every benchmarked operation within its DynamoDB call budget', async () => {
    const { api } = bench;
    const install = await installApp(api);
    const limitedInstall = await installApp(api, { rateLimited: true });
    const state: BenchState = {
      install,
      limitedInstall,
      limitedIds: await createCompanies(api, limitedInstall.accessToken, 3),
      poolIds: await createCompanies(api, install.accessToken, 100),
      createdIds: [],
      contactPool: await createContacts(api, install.accessToken, 100),
      createdContacts: [],
      createdProducts: [],
      customTypeId: await createCustomType(api, install.accessToken),
      installToEnd: await installApp(api),
      timeline: await createTimelineEvent(api, install),
      listAccounts: await createListAccounts(api, 2),
      journalOffsets: await seedJournal(install),
      random: seededRandom(1),
    };

    const rows = await measureCosts(api, state, operations);
    console.log(rows.map((row) => `${row.operation}: ${row.totalCalls} calls`).join(', '));

    expect(rows.filter((row) => !row.verdict.isWithinBudget).map((row) => row.verdict)).toEqual([]);
    expect(rows.map((row) => row.operation)).toEqual(operations.map((operation) => operation.name));
  });
});

describe('bench search fairness section', () => {
  const bench = useBenchApi();

  it('runs every costly search against its own account while the other account reads, all answered 200', async () => {
    const { api, gateway } = bench;
    const report = await measureSearchFairness({
      api,
      baseUrl: gateway.baseUrl,
      companies: 4,
      seconds: 0.5,
      log: () => undefined,
    });

    expect(report.cases.map((entry) => entry.attack)).toEqual(['none', ...fairnessAttacks]);
    expect(report.cases.every((entry) => entry.reads.count > 0 && entry.reads.non200 === 0)).toBe(true);
    expect(
      report.cases
        .filter((entry) => entry.attack !== 'none')
        .every((entry) => entry.searches.count > 0 && entry.searches.non200 === 0),
    ).toBe(true);
  }, 120_000);
});

describe('bench contact search section', () => {
  const bench = useBenchApi();

  it('loads contacts as creates write them and reads the sync and default pages with exact totals at each size', async () => {
    const { api } = bench;
    const install = await installApp(api);
    const report = await measureContactSearch({
      api,
      loader: loaderClient(process.env.DYNAMODB_ENDPOINT ?? '', process.env.AWS_REGION ?? 'us-east-1'),
      tableName: process.env.TABLE_NAME ?? '',
      token: install.accessToken,
      hubId: install.hubId,
      levels: [40, 200],
      requests: 2,
      log: () => undefined,
    });

    expect(
      report.levels.flatMap((level) =>
        level.cases.map((entry) => [level.contacts, entry.case, entry.total === entry.expectedTotal]),
      ),
    ).toEqual([
      [40, 'syncPage', true],
      [40, 'defaultPage', true],
      [200, 'syncPage', true],
      [200, 'defaultPage', true],
    ]);
    // The page's reads do not grow with the account: the same calls at 200 contacts as at 40 (a GetItem of the
    // install's state may come once a minute whatever the search: not counted).
    expect(
      report.levels.map((level) =>
        level.cases.map((entry) => [entry.calls.BatchGetItemCommand, entry.calls.QueryCommand]),
      ),
    ).toEqual([
      [
        [2, 32],
        [2, 16],
      ],
      [
        [2, 32],
        [2, 16],
      ],
    ]);
    expect(report.growth.map((entry) => entry.case)).toEqual(['syncPage', 'defaultPage']);
  }, 120_000);
});

describe('bench lists section', () => {
  const bench = useBenchApi();
  const loader = () => loaderClient(process.env.DYNAMODB_ENDPOINT ?? '', process.env.AWS_REGION ?? 'us-east-1');

  it('reads a page of 100 members, by id and by join order, with the same calls at two list sizes', async () => {
    const { api } = bench;
    const install = await installApp(api);
    const report = await measureListMemberships({
      api,
      loader: loader(),
      tableName: process.env.TABLE_NAME ?? '',
      token: install.accessToken,
      hubId: install.hubId,
      levels: [200, 600],
      requests: 2,
      warmup: 0,
      targetRatio: 1.3,
      random: seededRandom(2),
      log: () => undefined,
    });

    // The list's item (its size is the total), then one Query of 101 membership items, whatever the list's size.
    expect(
      report.levels.map((level) => [level.members, level.cases.map((entry) => [entry.case, entry.calls])]),
    ).toEqual(
      [200, 600].map((members) => [
        members,
        [
          ['byId', { GetItemCommand: 1, QueryCommand: 1 }],
          ['joinOrder', { GetItemCommand: 1, QueryCommand: 1 }],
        ],
      ]),
    );
    expect(report.isCallsFlat).toBe(true);
  }, 120_000);

  it("evaluates a new DYNAMIC list over loaded contacts to exactly its filter's matches, reading every contact's projection once and the members by id range", async () => {
    const { api } = bench;
    const install = await installApp(api);
    const report = await measureListEvaluation({
      api,
      loader: loader(),
      tableName: process.env.TABLE_NAME ?? '',
      token: install.accessToken,
      hubId: install.hubId,
      contacts: 300,
      log: () => undefined,
    });

    // Contacts 5, 102, 199 and 296 have lastname Contact5.
    expect([report.matched, report.size]).toEqual([4, 4]);
    // The projection's 300 items, and each page's range of the list's members: each member at most once per shard.
    const items = report.byCommand.QueryCommand?.items ?? 0;
    expect(items).toBeGreaterThanOrEqual(300);
    expect(items).toBeLessThanOrEqual(300 + 16 * 4);
    expect(report.byCommand.BatchGetCommand).toBeUndefined();
    expect(report.seconds).toBeGreaterThan(0);
  }, 120_000);
});

describe('bench cold start section', () => {
  const outDir = useBundleOutDir('bench-cold-');

  it('times the named functions only, each import paired with one of the floor', async () => {
    const report = await measureColdStarts({
      outDir: outDir(),
      runs: 2,
      environment: { PATH: process.env.PATH, TABLE_NAME: 'bench-cold', AWS_REGION: 'us-east-1', TZ: ':UTC' },
      log: () => undefined,
      functions: new Set(['getOwner']),
    });

    expect(report.rows.map((row) => row.name)).toEqual(['getOwner']);
    const [row] = report.rows;
    // Two rounds, and four more when the first median landed near the target.
    expect([2, 6]).toContain(row?.pairs);
    expect(row?.initRatio).toBeGreaterThan(0);
    expect(row?.overFloorBytes).toBe((row?.bundleBytes ?? 0) - report.floor.bundleBytes);
    expect(row?.isBundleWithinTarget).toBe(true);
  });

  it('refuses a function the route table does not have', async () => {
    await expect(
      measureColdStarts({
        outDir: outDir(),
        runs: 1,
        environment: {},
        log: () => undefined,
        functions: new Set(['noSuchRoute']),
      }),
    ).rejects.toThrow('unknown functions in --functions');
  });
});
