import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningGateway } from '../../../local/local-gateway';
import { db, tableName } from '../../../shared/db/client';
import { associationLabelNamesKey } from '../../../shared/db/keys';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

/**
 * At most 10 custom labels per object pair, and a label name once per pair, however
 * many creates race (the pair's names item is written with each label, under a condition).
 */
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

async function freshAccount(): Promise<{ api: CrmClient; hubId: number }> {
  const installed = await install(gateway);
  return { api: crmClient(gateway, installed.accessToken), hubId: installed.hubId };
}

interface LabelJson {
  category: string;
  typeId: number;
  label: string | null;
}

const labelsPath = '/crm/v4/associations/companies/contacts/labels';
const create = (api: CrmClient, name: string) =>
  api.post<{ results: LabelJson[] }>(labelsPath, { name, label: `Label ${name}` });

async function customLabels(api: CrmClient): Promise<LabelJson[]> {
  return (await api.get<{ results: LabelJson[] }>(labelsPath)).body.results.filter(
    (label) => label.category === 'USER_DEFINED',
  );
}

describe('custom association labels under concurrent creates', () => {
  it('16 concurrent creates of different names make exactly 10; the others are 400', async () => {
    const { api } = await freshAccount();

    const responses = await Promise.all(Array.from({ length: 16 }, (_, index) => create(api, `burst_${index}`)));

    expect(responses.map((response) => response.status).sort()).toEqual([
      ...Array(10).fill(200),
      ...Array(6).fill(400),
    ]);
    expect(await customLabels(api)).toHaveLength(10);
  });

  it('6 concurrent creates of one name make exactly one label; the others are 409 naming it', async () => {
    const { api } = await freshAccount();

    const responses = await Promise.all(Array.from({ length: 6 }, () => create(api, 'billing')));

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const refused = responses
      .filter((response) => response.status === 409)
      .map((response) => (response.body as unknown as { context: unknown }).context);
    expect(refused).toEqual(Array(5).fill({ name: ['billing'] }));
    expect(await customLabels(api)).toHaveLength(1);
  });

  it('counts labels written before the names item existed: a pair with 9 gets exactly one more', async () => {
    const { api, hubId } = await freshAccount();
    for (let index = 0; index < 9; index += 1) await create(api, `early_${index}`);
    // As an earlier version left the pair: label items only, no names item.
    await db.send(new DeleteCommand({ TableName: tableName, Key: associationLabelNamesKey(hubId, '0-2', '0-1') }));
    await db.send(new DeleteCommand({ TableName: tableName, Key: associationLabelNamesKey(hubId, '0-1', '0-2') }));

    const responses = await Promise.all([
      create(api, 'late_a'),
      create(api, 'late_b'),
      create(api, 'late_c'),
      create(api, 'early_0'),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 409].sort());
    expect(await customLabels(api)).toHaveLength(10);
  });

  it('deleting a label frees its place and its name', async () => {
    const { api } = await freshAccount();
    const created = await Promise.all(Array.from({ length: 10 }, (_, index) => create(api, `full_${index}`)));
    const typeId = created.find((response) => response.status === 200)?.body.results[0]?.typeId;
    const deletedName = `full_${created.findIndex((response) => response.body.results?.[0]?.typeId === typeId)}`;

    const over = await create(api, 'one_more');
    const deleted = await api.delete(`${labelsPath}/${typeId}`);
    const again = await create(api, deletedName);
    const overAgain = await create(api, 'one_more');

    expect(created.every((response) => response.status === 200)).toBe(true);
    expect(over.status).toBe(400);
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(200);
    expect(overAgain.status).toBe(400);
  });
});
