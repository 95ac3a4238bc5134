import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';
import {
  branchOf,
  completed as completedOf,
  createList as createListOf,
  listsPath,
  members as membersOf,
  newContact as newContactOf,
  stringFilter,
  type ListJson,
} from '../../support/list-api';

/**
 * DYNAMIC and SNAPSHOT lists over HTTP: the first evaluation (a job, PROCESSING until done), then
 * memberships right at once on every record write (create, update, batch, archive, merge), refilters,
 * deletes and restores, and the 400s a list's filters and processing type get.
 */
const gateway = useTestGateway();
let api: CrmClient;

beforeAll(async () => {
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

const lists = listsPath;
const contacts = '/crm/v3/objects/contacts';

const stringIs = (property: string, value: string) => branchOf(stringFilter(property, value));
const newContact = (properties: Record<string, string>) => newContactOf(api, properties);
const createList = (processingType: string, filterBranch: unknown, objectTypeId = '0-1') =>
  createListOf(api, processingType, filterBranch, objectTypeId);
const completed = (listId: string) => completedOf(api, listId);
const members = (listId: string) => membersOf(api, listId);

describe('DYNAMIC lists', () => {
  it('evaluates the existing records once (PROCESSING, then COMPLETE) and echoes the filters', async () => {
    const tag = unique('ada');
    const matching = [await newContact({ firstname: tag }), await newContact({ firstname: tag.toUpperCase() })];
    await newContact({ firstname: `${tag}x` });
    const list = await createList('DYNAMIC', stringIs('firstname', tag));
    expect(list.processingType).toBe('DYNAMIC');
    expect(list.processingStatus).toBe('PROCESSING');
    expect(list.filterBranch).toMatchObject({
      filterBranchType: 'OR',
      filterBranchOperator: 'OR',
      filterBranches: [
        {
          filterBranchType: 'AND',
          filters: [{ operation: { operator: 'IS_EQUAL_TO', includeObjectsWithNoValueSet: false } }],
        },
      ],
    });
    const done = await completed(list.listId);
    expect(done.size).toBe(2);
    expect(await members(list.listId)).toEqual([...matching].sort());
    const withFilters = await api.get<{ list: ListJson }>(`${lists}/${list.listId}?includeFilters=true`);
    expect(withFilters.body.list.filterBranch).toEqual(list.filterBranch);
    const without = await api.get<{ list: ListJson }>(`${lists}/${list.listId}`);
    expect(without.body.list.filterBranch).toBeUndefined();
  });

  it('changes memberships in the write itself: create, update, batch create, archive; no polling', async () => {
    const tag = unique('grace');
    const list = await createList('DYNAMIC', stringIs('firstname', tag));
    await completed(list.listId);

    const joined = await newContact({ firstname: tag });
    expect(await members(list.listId)).toEqual([joined]);
    const other = await newContact({ firstname: 'Someone' });
    expect((await api.patch(`${contacts}/${other}`, { properties: { firstname: tag } })).status).toBe(200);
    expect(await members(list.listId)).toEqual([joined, other].sort());
    expect((await api.patch(`${contacts}/${joined}`, { properties: { firstname: 'Changed' } })).status).toBe(200);
    expect(await members(list.listId)).toEqual([other]);

    const batch = await api.post<{ results: { id: string }[] }>(`${contacts}/batch/create`, {
      inputs: Array.from({ length: 12 }, (_, index) => ({
        properties: { email: `${unique('b').toLowerCase()}@lists.example`, firstname: index % 2 === 0 ? tag : 'No' },
      })),
    });
    expect(batch.status).toBe(201);
    expect((await members(list.listId)).length).toBe(7);

    expect((await api.delete(`${contacts}/${other}`)).status).toBe(204);
    const after = await members(list.listId);
    expect(after).not.toContain(other);
    expect(after.length).toBe(6);
    const read = await api.get<{ list: ListJson }>(`${lists}/${list.listId}`);
    expect(read.body.list.size).toBe(6);
    const view = await api.get<{ results: { listId: string }[] }>(`${lists}/records/0-1/${after[0]}/memberships`);
    expect(view.body.results.map((entry) => entry.listId)).toContain(list.listId);
  });

  it('refilters (PROCESSING until the new filters are evaluated), refuses membership changes, deletes and restores', async () => {
    const first = unique('first');
    const second = unique('second');
    const a = await newContact({ firstname: first });
    const b = await newContact({ firstname: second });
    const list = await createList('DYNAMIC', stringIs('firstname', first));
    await completed(list.listId);
    expect(await members(list.listId)).toEqual([a]);

    const refiltered = await api.put<{ updatedList: ListJson }>(`${lists}/${list.listId}/update-list-filters`, {
      filterBranch: stringIs('firstname', second),
    });
    expect(refiltered.status).toBe(200);
    expect(refiltered.body.updatedList.processingStatus).toBe('PROCESSING');
    await completed(list.listId);
    expect(await members(list.listId)).toEqual([b]);

    const add = await api.put<{ category: string; context: Record<string, string[]> }>(
      `${lists}/${list.listId}/memberships/add`,
      [a],
    );
    expect(add.status).toBe(400);
    expect(add.body.context).toEqual({ processingType: ['DYNAMIC'] });

    expect((await api.delete(`${lists}/${list.listId}`)).status).toBe(204);
    // Deleted: record writes leave it alone.
    const c = await newContact({ firstname: second });
    expect((await api.put(`${lists}/${list.listId}/restore`)).status).toBe(204);
    await completed(list.listId);
    expect(await members(list.listId)).toEqual([b, c].sort());
  });

  it('keeps a merged record in the lists its values match, and the records merged away leave them', async () => {
    const tag = unique('merge');
    const primary = await newContact({ firstname: tag });
    const secondary = await newContact({ firstname: 'Other' });
    const list = await createList('DYNAMIC', stringIs('firstname', tag));
    await completed(list.listId);
    const merged = await api.post<{ id: string }>(`${contacts}/merge`, {
      primaryObjectId: primary,
      objectIdToMerge: secondary,
    });
    expect(merged.status).toBe(200);
    const now = await members(list.listId);
    expect(now).not.toContain(secondary);
    expect(now).toEqual([merged.body.id]);
  });

  it('answers 400 for filters it does not evaluate or that break the structure, and past the cap on DYNAMIC lists', async () => {
    const notOr = await api.post<{ category: string; context: Record<string, string[]> }>(lists, {
      name: unique('Bad'),
      objectTypeId: '0-1',
      processingType: 'DYNAMIC',
      filterBranch: { filterBranchType: 'AND', filterBranches: [], filters: [] },
    });
    expect(notOr.status).toBe(400);
    expect(notOr.body.category).toBe('VALIDATION_ERROR');
    expect(Object.keys(notOr.body.context)).toEqual(['filterBranch']);
    const missing = await api.post<{ context: Record<string, string[]> }>(lists, {
      name: unique('Bad'),
      objectTypeId: '0-1',
      processingType: 'SNAPSHOT',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.context).toEqual({ filterBranch: ['missing'] });

    // Deals: a type no other test here gives DYNAMIC lists.
    const made: string[] = [];
    for (let index = 0; index < 10; index += 1)
      made.push((await createList('DYNAMIC', stringIs('dealname', unique('d')), '0-3')).listId);
    const over = await api.post<{ context: Record<string, string[]> }>(lists, {
      name: unique('Over'),
      objectTypeId: '0-3',
      processingType: 'DYNAMIC',
      filterBranch: stringIs('dealname', 'x'),
    });
    expect(over.status).toBe(400);
    expect(over.body.context).toEqual({ processingType: ['DYNAMIC'] });
    // A SNAPSHOT list is not capped with them; deleting one DYNAMIC list makes room.
    expect((await createList('SNAPSHOT', stringIs('dealname', 'x'), '0-3')).processingType).toBe('SNAPSHOT');
    expect((await api.delete(`${lists}/${made[0]}`)).status).toBe(204);
    expect((await createList('DYNAMIC', stringIs('dealname', 'y'), '0-3')).processingType).toBe('DYNAMIC');
  });
});

describe('DYNAMIC lists at the cap', () => {
  it('keeps 10 lists of a type right through batch creates and updates of 100 records', async () => {
    const own = crmClient(gateway, (await install(gateway, { limits: { tenSecondlyLimit: 0 } })).accessToken);
    const tag = unique('cap');
    const made: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      const created = await own.post<{ list: ListJson }>(lists, {
        name: unique('Cap'),
        objectTypeId: '0-1',
        processingType: 'DYNAMIC',
        // Every list holds the tagged contacts; the odd ones only while their last name is also the tag.
        filterBranch:
          index % 2 === 0
            ? stringIs('firstname', tag)
            : {
                filterBranchType: 'OR',
                filters: [],
                filterBranches: [
                  {
                    filterBranchType: 'AND',
                    filterBranches: [],
                    filters: ['firstname', 'lastname'].map((property) => ({
                      filterType: 'PROPERTY',
                      property,
                      operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: tag },
                    })),
                  },
                ],
              },
      });
      expect(created.status).toBe(200);
      made.push(created.body.list.listId);
    }
    const sizes = async () =>
      Promise.all(made.map(async (listId) => (await own.get<{ list: ListJson }>(`${lists}/${listId}`)).body.list.size));

    // A batch answers SERVICE_UNAVAILABLE for the inputs its time did not reach (each membership is 3 items
    // of its record's transaction, so these records go one a transaction): sent again, as a client does.
    const untilWritten = async (path: string, inputs: unknown[]): Promise<string[]> => {
      const written: string[] = [];
      let left = inputs;
      for (let attempt = 0; attempt < 10 && left.length > 0; attempt += 1) {
        const answer = await own.post<{
          results: { id: string }[];
          errors?: { category: string; context: { input: string[] } }[];
        }>(path, { inputs: left });
        expect([200, 201, 207]).toContain(answer.status);
        written.push(...answer.body.results.map((record) => record.id));
        const again = (answer.body.errors ?? []).map((error) => {
          expect(error.category).toBe('SERVICE_UNAVAILABLE');
          return Number(error.context.input[0]);
        });
        left = again.map((index) => left[index]);
      }
      expect(left).toEqual([]);
      return written;
    };
    const ids = await untilWritten(
      `${contacts}/batch/create`,
      Array.from({ length: 100 }, () => ({
        properties: { email: `${unique('cap').toLowerCase()}@lists.example`, firstname: tag, lastname: tag },
      })),
    );
    expect(ids).toHaveLength(100);
    expect(await sizes()).toEqual(Array.from({ length: 10 }, () => 100));

    await untilWritten(
      `${contacts}/batch/update`,
      ids.map((id, index) => ({ id, properties: { lastname: index < 40 ? 'Other' : tag } })),
    );
    expect(await sizes()).toEqual(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? 100 : 60)));
    const page = await own.get<{ results: unknown[]; total: number }>(`${lists}/${made[1]}/memberships?limit=250`);
    expect(page.body.results).toHaveLength(60);
  });
});

describe('SNAPSHOT lists', () => {
  it('are evaluated once; later writes change nothing, the API adds and removes', async () => {
    const tag = unique('snap');
    const first = await newContact({ firstname: tag });
    const list = await createList('SNAPSHOT', stringIs('firstname', tag));
    expect(list.processingStatus).toBe('PROCESSING');
    await completed(list.listId);
    expect(await members(list.listId)).toEqual([first]);
    const later = await newContact({ firstname: tag });
    expect(await members(list.listId)).toEqual([first]);
    const added = await api.put<{ recordsIdsAdded: string[] }>(`${lists}/${list.listId}/memberships/add`, [later]);
    expect(added.status).toBe(200);
    expect(added.body.recordsIdsAdded).toEqual([later]);
    const read = await api.get<{ list: ListJson }>(`${lists}/${list.listId}`);
    expect(read.body.list.size).toBe(2);
  });
});
