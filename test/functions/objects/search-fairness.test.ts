import type { RunningGateway } from '../../../local/local-gateway';
import { crmClient, type CrmClient, type Json } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

/**
 * A reproduced attack: 40 companies whose name is 65,534 characters, then one search
 * whose NOT_CONTAINS_TOKEN pattern is `*`, 2,880 `a` and `b`. The glob match cost value length x
 * pattern length (about 1.5 s of CPU per name), each page was matched in one synchronous stretch,
 * the deadline was checked only between pages, and the other shard chains ran on after the 503:
 * another account's GET on the same process waited 23 s and got a 503 too.
 *
 * Here the gateway serves both accounts from this process, as the local gateway and sam local do.
 * The other account reads its company again and again for as long as the search runs: every read
 * must answer 200 (middy answers 503 to a request that waited out the 10 s function timeout), and
 * the search must answer its exact total.
 */
const searchPath = '/crm/v3/objects/companies/search';
const longName = 'a'.repeat(65_534);
const issueSearch = {
  filterGroups: [
    { filters: [{ propertyName: 'name', operator: 'NOT_CONTAINS_TOKEN', value: `*${'a'.repeat(2880)}b` }] },
  ],
  limit: 1,
};

let gateway: RunningGateway;
let searcher: CrmClient;
let reader: CrmClient;
let readerCompanyId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  searcher = crmClient(gateway, (await install(gateway)).accessToken);
  reader = crmClient(gateway, (await install(gateway)).accessToken);
  for (let batch = 0; batch < 8; batch += 1) {
    const created = await searcher.post<Json>('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: 5 }, () => ({ properties: { name: longName } })),
    });
    expect(created.status).toBe(201);
  }
  const own = await reader.post<Json>('/crm/v3/objects/companies', { properties: { name: 'Reader Co' } });
  expect(own.status).toBe(201);
  readerCompanyId = String(own.body.id);
}, 120_000);

afterAll(async () => {
  await gateway.close();
});

describe("one account's costliest search and another account's reads on the same process", () => {
  it("answers every read of the other account while the issue's search runs, and the search its exact total", async () => {
    let isSearching = true;
    const searching = searcher.post<Json & { total?: number }>(searchPath, issueSearch).finally(() => {
      isSearching = false;
    });
    const readStatuses: number[] = [];
    do {
      const read = await reader.get<Json>(`/crm/v3/objects/companies/${readerCompanyId}`);
      readStatuses.push(read.status);
    } while (isSearching);
    const searched = await searching;

    expect(readStatuses.filter((status) => status !== 200)).toEqual([]);
    expect(searched.status).toBe(200);
    expect(searched.body.total).toBe(40);
    expect(searched.body.results).toHaveLength(1);
  }, 180_000);
});
