import { measureWarmLatency } from '../../bench/api-latency';
import { copyIntoFloorKeys } from '../../bench/bulk-load';
import { floorKeyPrefix, installRecorder, loaderClient } from '../../bench/dynamo-recorder';
import { createCompanies, createContacts, createTimelineEvent, installApp } from '../../bench/fixtures';
import { ApiClient } from '../../bench/http-client';
import { operations, seededRandom, type BenchState } from '../../bench/operations';
import { targets } from '../../bench/run-bench';
import { config } from '../../shared/base/config';
import { tableName } from '../../shared/db/client';
import { startTestGateway } from '../support/harness';

/**
 * The warm section's floor against the API it bounds, as `npm run bench -- --quick` measures them
 * (API and floor alternating request by request, in one process): the API sends the same DynamoDB
 * calls and does its own work besides, so its median can only be above the floor's. The rows: a
 * read (one GetItem) and a create (one transaction writing five items and a counter).
 */
describe('the warm floor', () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>> | undefined;
  let api: ApiClient | undefined;
  const loader = loaderClient(config.dynamodbEndpoint ?? '', config.region);
  beforeAll(async () => {
    installRecorder();
    gateway = await startTestGateway();
    api = new ApiClient(gateway.baseUrl);
  });
  afterAll(async () => {
    api?.close();
    loader.destroy();
    await gateway?.close();
  });

  const benchState = async (client: ApiClient): Promise<BenchState> => {
    const install = await installApp(client);
    return {
      install,
      limitedInstall: install,
      limitedIds: [],
      poolIds: await createCompanies(client, install.accessToken, 20),
      createdIds: [],
      contactPool: await createContacts(client, install.accessToken, 5),
      createdContacts: [],
      createdProducts: [],
      customTypeId: '',
      installToEnd: install,
      timeline: await createTimelineEvent(client, install),
      random: seededRandom(3),
    };
  };

  it.each(['readCompany', 'createRecord'])("keeps %s's API median above its floor's", async (name) => {
    const client = api;
    if (!client) throw new Error('the client is made in beforeAll');
    const operation = operations.find((candidate) => candidate.name === name);
    if (!operation) throw new Error(`no operation ${name}`);
    const state = await benchState(client);
    await copyIntoFloorKeys(loader, tableName, floorKeyPrefix);

    const row = await measureWarmLatency({
      api: client,
      state,
      operation,
      iterations: 60,
      chunk: 1,
      warmup: 20,
      floorKeyPrefix,
      targetRatio: targets.warmP50Ratio,
    });
    console.log(`${name}: API p50 ${row.api.p50Ms} ms, floor p50 ${row.floor.p50Ms} ms (${row.p50Ratio}x)`);

    expect({ name, isBelowFloor: row.isBelowFloor, apiCount: row.api.count, floorCount: row.floor.count }).toEqual({
      name,
      isBelowFloor: false,
      apiCount: 60,
      floorCount: 60,
    });
  });
});
