import type { CrmClient } from './crm-client';
import { unique } from './harness';

/** Lists over HTTP for tests: make a list, wait for its evaluation, read every member. */
export interface ListJson {
  listId: string;
  name: string;
  processingType: string;
  processingStatus: string;
  size: number;
  filterBranch?: Record<string, unknown>;
}

export const listsPath = '/crm/v3/lists';

/** One AND branch of `filters` under the root OR. */
export const branchOf = (...filters: unknown[]) => ({
  filterBranchType: 'OR',
  filterBranches: [{ filterBranchType: 'AND', filterBranches: [], filters }],
  filters: [],
});

export const stringFilter = (property: string, value: string) => ({
  filterType: 'PROPERTY',
  property,
  operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value },
});

export const inListFilter = (listId: string, operator: 'IN_LIST' | 'NOT_IN_LIST' = 'IN_LIST') => ({
  filterType: 'IN_LIST',
  listId,
  operator,
});

export async function newContact(api: CrmClient, properties: Record<string, string>): Promise<string> {
  const created = await api.post<{ id: string }>('/crm/v3/objects/contacts', {
    properties: { email: `${unique('c').toLowerCase()}@lists.example`, ...properties },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

export async function createList(
  api: CrmClient,
  processingType: string,
  filterBranch?: unknown,
  objectTypeId = '0-1',
): Promise<ListJson> {
  const created = await api.post<{ list: ListJson }>(listsPath, {
    name: unique('List'),
    objectTypeId,
    processingType,
    ...(filterBranch === undefined ? {} : { filterBranch }),
  });
  expect(created.status).toBe(200);
  return created.body.list;
}

/** Polls the list until its evaluation is done: bounded by count, not by time. */
export async function completed(api: CrmClient, listId: string): Promise<ListJson> {
  for (let poll = 0; poll < 600; poll += 1) {
    const read = await api.get<{ list: ListJson }>(`${listsPath}/${listId}`);
    expect(read.status).toBe(200);
    if (read.body.list.processingStatus === 'COMPLETE') return read.body.list;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`list ${listId} never completed`);
}

/** Every member's record id, sorted, paging to the end. */
export async function members(api: CrmClient, listId: string): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const answer = await api.get<{ results: { recordId: string }[]; paging?: { next?: { after: string } } }>(
      `${listsPath}/${listId}/memberships?limit=250${after ? `&after=${after}` : ''}`,
    );
    expect(answer.status).toBe(200);
    seen.push(...answer.body.results.map((member) => member.recordId));
    after = answer.body.paging?.next?.after;
    if (!after) return seen.sort();
  }
  throw new Error('no end of members');
}
