import { advanceClock, nowMs, resetClock } from '../../../shared/base/clock';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, postForm, unique, useTestGateway, type InstalledTokens } from '../../support/harness';

/**
 * Scheduled conversions that fall due: a DYNAMIC list answers as MANUAL from the moment its
 * conversion is due, record writes leave it alone from then on, and the first write that names it
 * converts it for real, its members and size kept. The gateway runs in this process, so the test
 * moves the service's clock (and takes a new access token after each move, as a client would).
 */
const gateway = useTestGateway();
const dayMs = 24 * 3600 * 1000;
let installed: InstalledTokens;
let api: CrmClient;

interface ListJson {
  listId: string;
  processingType: string;
  processingStatus: string;
  size: number;
}

const lists = '/crm/v3/lists';
const contacts = '/crm/v3/objects/contacts';

const firstnameIs = (value: string) => ({
  filterBranchType: 'OR',
  filters: [],
  filterBranches: [
    {
      filterBranchType: 'AND',
      filterBranches: [],
      filters: [
        {
          filterType: 'PROPERTY',
          property: 'firstname',
          operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value },
        },
      ],
    },
  ],
});

/** Moves the service's clock on and refreshes the access token (the old one has expired by then). */
async function afterDays(days: number): Promise<void> {
  advanceClock(days * dayMs);
  const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'refresh_token',
    client_id: installed.clientId,
    client_secret: installed.clientSecret,
    refresh_token: installed.refreshToken,
  });
  expect(response.status).toBe(200);
  api = crmClient(gateway, ((await response.json()) as { access_token: string }).access_token);
}

async function newContact(firstname: string): Promise<string> {
  const created = await api.post<{ id: string }>(contacts, {
    properties: { email: `${unique('v').toLowerCase()}@conversion.example`, firstname },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function dynamicList(tag: string): Promise<string> {
  const created = await api.post<{ list: ListJson }>(lists, {
    name: unique('Converts'),
    objectTypeId: '0-1',
    processingType: 'DYNAMIC',
    filterBranch: firstnameIs(tag),
  });
  expect(created.status).toBe(200);
  for (let poll = 0; poll < 600; poll += 1) {
    const read = await api.get<{ list: ListJson }>(`${lists}/${created.body.list.listId}`);
    if (read.body.list.processingStatus === 'COMPLETE') return created.body.list.listId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the list never completed');
}

async function members(listId: string): Promise<string[]> {
  const page = await api.get<{ results: { recordId: string }[] }>(`${lists}/${listId}/memberships?limit=250`);
  expect(page.status).toBe(200);
  return page.body.results.map((member) => member.recordId).sort();
}

beforeEach(async () => {
  resetClock();
  installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
});

afterAll(() => resetClock());

describe('a conversion by date', () => {
  it('makes the list MANUAL at 00:00 UTC of its day: writes leave it alone, the first change converts it for real', async () => {
    const tag = unique('date');
    const first = await newContact(tag);
    const listId = await dynamicList(tag);
    const due = new Date(nowMs() + 2 * dayMs);
    const scheduled = await api.put(`${lists}/${listId}/schedule-conversion`, {
      conversionType: 'CONVERSION_DATE',
      day: due.getUTCDate(),
      month: due.getUTCMonth() + 1,
      year: due.getUTCFullYear(),
    });
    expect(scheduled.status).toBe(200);
    // Before the day: still DYNAMIC.
    const second = await newContact(tag);
    expect(await members(listId)).toEqual([first, second].sort());

    await afterDays(3);
    const dueAt = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate())).toISOString();
    const read = await api.get<{ list: ListJson }>(`${lists}/${listId}`);
    expect(read.body.list).toMatchObject({ processingType: 'MANUAL', size: 2 });
    const conversion = await api.get<{ convertedAt?: string }>(`${lists}/${listId}/schedule-conversion`);
    expect(conversion.body.convertedAt).toBe(dueAt);
    // Static now: a new match stays out, a member that no longer matches stays in.
    const third = await newContact(tag);
    expect((await api.patch(`${contacts}/${first}`, { properties: { firstname: 'Changed' } })).status).toBe(200);
    expect(await members(listId)).toEqual([first, second].sort());

    const added = await api.put<{ recordsIdsAdded: string[] }>(`${lists}/${listId}/memberships/add`, [third]);
    expect(added.status).toBe(200);
    expect(added.body.recordsIdsAdded).toEqual([third]);
    const after = await api.get<{ list: ListJson }>(`${lists}/${listId}`);
    expect(after.body.list).toMatchObject({ processingType: 'MANUAL', size: 3 });
    expect((await api.get<{ convertedAt?: string }>(`${lists}/${listId}/schedule-conversion`)).body.convertedAt).toBe(
      dueAt,
    );
    // Converted for real: stored MANUAL even with the clock back, its filters no longer updatable.
    resetClock();
    await afterDays(0);
    expect((await api.get<{ list: ListJson }>(`${lists}/${listId}`)).body.list.processingType).toBe('MANUAL');
    const refilter = await api.put(`${lists}/${listId}/update-list-filters`, { filterBranch: firstnameIs(tag) });
    expect(refilter.status).toBe(400);
    const again = await api.put(`${lists}/${listId}/schedule-conversion`, {
      conversionType: 'INACTIVITY',
      offset: 1,
      timeUnit: 'DAY',
    });
    expect(again.status).toBe(400);
  });
});

describe('a conversion by inactivity', () => {
  it('makes the list MANUAL once its members have not changed for the period, and not before', async () => {
    const tag = unique('quiet');
    const member = await newContact(tag);
    const daily = await dynamicList(tag);
    const weekly = await dynamicList(tag);
    for (const [listId, timeUnit] of [
      [daily, 'DAY'],
      [weekly, 'WEEK'],
    ] as const)
      expect(
        (await api.put(`${lists}/${listId}/schedule-conversion`, { conversionType: 'INACTIVITY', offset: 1, timeUnit }))
          .status,
      ).toBe(200);

    await afterDays(2);
    const later = await newContact(tag);
    expect(await members(daily)).toEqual([member]);
    expect(await members(weekly)).toEqual([member, later].sort());
    const both = await api.get<{ lists: ListJson[] }>(`${lists}?listIds=${daily}&listIds=${weekly}`);
    expect(
      Object.fromEntries(
        both.body.lists.map((list) => [list.listId === daily ? 'daily' : 'weekly', list.processingType]),
      ),
    ).toEqual({ daily: 'MANUAL', weekly: 'DYNAMIC' });
    const removed = await api.put<{ recordIdsRemoved: string[] }>(`${lists}/${daily}/memberships/remove`, [member]);
    expect(removed.body.recordIdsRemoved).toEqual([member]);
    expect(await members(daily)).toEqual([]);
  });
});
