// First: the floor is a copy of the whole table (a Scan), so this file has a DynamoDB Local of its own.
import '../support/own-dynamodb';
import { measureWarmLatency } from '../../bench/api-latency';
import { copyIntoFloorKeys } from '../../bench/bulk-load';
import { floorKeyPrefix, loaderClient } from '../../bench/dynamo-recorder';
import { createCompanies, createContacts, createTimelineEvent, installApp } from '../../bench/bench-data';
import type { ApiClient } from '../../bench/http-client';
import { operations, seededRandom, type BenchState } from '../../bench/operations';
import { targets } from '../../bench/run-bench';
import { config } from '../../shared/base/config';
import { tableName } from '../../shared/db/client';
import { useBenchApi } from '../support/bench-api';

/**
 * The warm section's floor against the API it bounds, as `npm run bench -- --quick` measures them
 * (API and floor alternating request by request, in one process): the API sends the same DynamoDB
 * calls and does its own work besides, so its median can only be above the floor's. The rows: a
 * read (one GetItem) and a create (one transaction writing five items and a counter).
 */
describe('the warm floor', () => {
  const bench = useBenchApi();
  const loader = loaderClient(config.dynamodbEndpoint ?? '', config.region);
  afterAll(() => loader.destroy());

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
      // The journal rows are not measured here.
      journalOffsets: [],
      random: seededRandom(3),
    };
  };

  it.each(['readCompany', 'createRecord'])(
    "keeps %s's API median above its floor's",
    async (name) => {
      const client = bench.api;
      const operation = operations.find((candidate) => candidate.name === name);
      if (!operation) throw new Error(`no operation ${name}`);
      const state = await benchState(client);
      await copyIntoFloorKeys(loader, tableName, floorKeyPrefix);

      // The API sends the floor's calls and works besides, so its median is above the floor's; a burst of
      // the machine's other load can still land on the API's requests of one measurement: a row is below
      // its floor only if it is in each of up to three measurements (a true floor never is).
      const rows = [];
      for (let measurement = 0; measurement < 3; measurement += 1) {
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
        rows.push(row);
        expect([row.api.count, row.floor.count]).toEqual([60, 60]);
        if (!row.isBelowFloor) break;
      }
      const summary = rows.map((row) => `API p50 ${row.api.p50Ms} ms, floor p50 ${row.floor.p50Ms} ms`).join('; ');
      expect({ name, isBelowFloor: rows.every((row) => row.isBelowFloor), summary }).toEqual({
        name,
        isBelowFloor: false,
        summary,
      });
    },
    180_000,
  );
});
