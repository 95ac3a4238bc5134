import { advanceClock } from '../../../shared/base/clock';
import { config } from '../../../shared/base/config';
import { findList } from '../../../shared/db/lists';
import type { ListEvaluationJob } from '../../../shared/jobs/job-queue';
import { evaluateListChunk } from '../../../shared/lists/list-evaluation';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';
import { branchOf, completed, createList, listsPath, members, newContact, stringFilter } from '../../support/list-api';

/**
 * The evaluation again of a DYNAMIC list whose filters compare with the current time: its
 * evaluation ends with the message of the next one, config.listRefreshMs later; that one, run once
 * time has moved, takes out a contact that left the rolling range by the passing of time alone and
 * keeps the list COMPLETE; a refilter ends the chain of the filters before it, and a list whose
 * filters do not read the clock has none. The chunks run here, in the test, with the clock moved
 * (the in-process queue would run them a quarter of an hour apart).
 */
const gateway = useTestGateway();
let api: CrmClient;
let hubId: number;
const day = 86_400_000;

beforeAll(async () => {
  const installed = await install(gateway);
  hubId = installed.hubId;
  api = crmClient(gateway, installed.accessToken);
});

const createdWithinADay = {
  filterType: 'PROPERTY',
  property: 'createdate',
  operation: { operationType: 'ROLLING_DATE_RANGE', operator: 'IS_LESS_THAN_X_DAYS_AGO', numberOfDays: 1 },
};

async function firstChunk(listId: string): Promise<ListEvaluationJob> {
  const list = await findList(hubId, listId);
  return { kind: 'list-evaluation', hubId, listId, filtersChangedAtMs: list?.filtersChangedAtMs ?? -1, shard: 0 };
}

/** Runs an evaluation's chunks to its end: answers what its last chunk answered (the next evaluation's message, or none). */
async function runToEnd(message: ListEvaluationJob): Promise<ListEvaluationJob | undefined> {
  let next: ListEvaluationJob | undefined = message;
  for (let chunk = 0; chunk < 100; chunk += 1) {
    next = await evaluateListChunk(next);
    if (!next || next.delayMs === config.listRefreshMs) return next;
  }
  throw new Error('the evaluation did not end in 100 chunks');
}

describe('a DYNAMIC list whose filters compare with the current time', () => {
  it('is evaluated again every listRefreshMs, and loses the records time took out of its range', async () => {
    const tag = unique('refresh');
    const contact = await newContact(api, { firstname: tag });
    const list = await createList(api, 'DYNAMIC', branchOf(stringFilter('firstname', tag), createdWithinADay));
    await completed(api, list.listId);
    expect(await members(api, list.listId)).toEqual([contact]);

    const refresh = await runToEnd(await firstChunk(list.listId));
    expect(refresh).toEqual({
      kind: 'list-evaluation',
      hubId,
      listId: list.listId,
      filtersChangedAtMs: (await firstChunk(list.listId)).filtersChangedAtMs,
      shard: 0,
      delayMs: config.listRefreshMs,
    });
    // Nothing has changed yet: the refresh keeps the member.
    const again = await runToEnd(refresh as ListEvaluationJob);
    expect(again).toEqual(refresh);
    expect(await members(api, list.listId)).toEqual([contact]);

    // Two days on for the evaluation, then back (the app's access token would have expired meanwhile).
    advanceClock(2 * day);
    const later = await runToEnd(again as ListEvaluationJob);
    advanceClock(-2 * day);
    expect(later).toEqual(refresh);
    expect(await members(api, list.listId)).toEqual([]);
    const read = await api.get<{ list: { processingStatus: string; size: number } }>(`${listsPath}/${list.listId}`);
    expect(read.body.list).toMatchObject({ processingStatus: 'COMPLETE', size: 0 });

    // New filters: the chain of the old ones ends at its next message.
    const refiltered = await api.put(`${listsPath}/${list.listId}/update-list-filters`, {
      filterBranch: branchOf(stringFilter('firstname', tag)),
    });
    expect(refiltered.status).toBe(200);
    expect(await evaluateListChunk(later as ListEvaluationJob)).toBeUndefined();
  });

  it('is not evaluated again when no filter reads the clock', async () => {
    const tag = unique('still');
    await newContact(api, { firstname: tag });
    const list = await createList(api, 'DYNAMIC', branchOf(stringFilter('firstname', tag)));
    await completed(api, list.listId);
    expect(await runToEnd(await firstChunk(list.listId))).toBeUndefined();
  });
});
