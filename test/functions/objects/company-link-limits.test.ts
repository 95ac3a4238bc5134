import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningGateway } from '../../../local/local-gateway';
import { db, tableName } from '../../../shared/db/client';
import { recordKey } from '../../../shared/db/keys';
import { companyKeys } from '../../../shared/companies/company-keys';
import { putLegacyUniqueProperty } from '../../support/company-record-fixture';
import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

/**
 * The 50-associated-companies limit holds on both sides of every company-to-company
 * association, atomically; a company already over it (written before) can still lose associations,
 * change and be merged; a company write that would pass DynamoDB's 100-item transaction is a 400.
 */
let gateway: RunningGateway;
let api: CrmClient;
let hubId: number;

beforeAll(async () => {
  gateway = await startTestGateway();
  const installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
  hubId = installed.hubId;
});

afterAll(async () => {
  await gateway.close();
});

interface BatchJson {
  status: string;
  results: { id: string }[];
  errors?: { category: string; context: Record<string, string[]> }[];
  numErrors?: number;
}

const toCompany = (id: string, associationTypeId = 450) => ({
  to: { id },
  types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }],
});

async function company(name: string): Promise<string> {
  return String((await api.post('/crm/v3/objects/companies', { properties: { name } })).body.id);
}

async function companies(count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const inputs = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({
      properties: { name: `${name} ${start + index}` },
    }));
    ids.push(
      ...(await api.post<BatchJson>('/crm/v3/objects/companies/batch/create', { inputs })).body.results.map(
        (result) => result.id,
      ),
    );
  }
  return ids;
}

async function linkedCompanyIds(id: string): Promise<string[]> {
  const page = await api.get<{ results: { toObjectId: number }[] }>(
    `/crm/v4/objects/companies/${id}/associations/companies`,
  );
  return page.body.results.map((result) => String(result.toObjectId));
}

describe('the 50 associated companies of a company, on the target side', () => {
  it('a batch create of 60 companies associated with one company makes 50 (207); the 10 others are refused and not written', async () => {
    const target = await company('Hub of many');

    const response = await api.post<BatchJson>('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: 60 }, (_, index) => ({
        properties: { name: `Spoke ${index}` },
        associations: [toCompany(target)],
      })),
    });

    expect(response.status).toBe(207);
    expect(response.body.results).toHaveLength(50);
    expect(response.body.errors).toHaveLength(10);
    expect(
      response.body.errors?.every(
        (error) => error.category === 'VALIDATION_ERROR' && error.context.associations?.[0] === target,
      ),
    ).toBe(true);
    expect((await linkedCompanyIds(target)).sort()).toEqual(response.body.results.map((result) => result.id).sort());
  });

  it('60 parallel association PUTs from 60 companies to one company make 50 (200); the 10 others are 400, and neither side of them is written', async () => {
    const target = await company('Hub of a race');
    const spokes = await companies(60, 'Racing spoke');

    const responses = await Promise.all(
      spokes.map((id) => api.put(`/crm/v3/objects/companies/${id}/associations/companies/${target}/450`)),
    );
    const linked = spokes.filter((_, index) => responses[index]?.status === 200);
    const refused = spokes.filter((_, index) => responses[index]?.status !== 200);
    const targetLinks = await linkedCompanyIds(target);
    const spokeLinks = await Promise.all(spokes.map((id) => linkedCompanyIds(id)));
    const targetItem = (
      await db.send(new GetCommand({ TableName: tableName, Key: recordKey(companyKeys, hubId, target) }))
    ).Item;

    expect(linked).toHaveLength(50);
    expect(refused.map((id) => responses[spokes.indexOf(id)]?.status)).toEqual(Array(10).fill(400));
    expect(refused.every((id) => responses[spokes.indexOf(id)]?.body.context?.associations?.[0] === target)).toBe(true);
    expect([...targetLinks].sort()).toEqual([...linked].sort());
    expect(
      spokes.filter((id, index) => (linked.includes(id) ? [target] : []).join() !== (spokeLinks[index] ?? []).join()),
    ).toEqual([]);
    expect(targetItem?.companyLinkCount).toBe(50);
  });

  it('a full company still loses associations; then it has room again', async () => {
    const target = await company('Full');
    const spokes = await companies(50, 'Full spoke');
    await api.post('/crm/v4/associations/companies/companies/batch/create', {
      inputs: spokes.map((id) => ({
        from: { id },
        to: { id: target },
        types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 450 }],
      })),
    });
    const extra = await company('One too many');

    const refused = await api.put(`/crm/v3/objects/companies/${extra}/associations/companies/${target}/450`);
    const removed = await api.delete(`/crm/v4/objects/companies/${target}/associations/companies/${spokes[0]}`);
    const added = await api.put(`/crm/v3/objects/companies/${extra}/associations/companies/${target}/450`);

    expect(refused.status).toBe(400);
    expect(refused.body.context).toEqual({ associations: [target] });
    expect(removed.status).toBe(204);
    expect(added.status).toBe(200);
    expect(await linkedCompanyIds(target)).toHaveLength(50);
  });
});

describe('the 1,000 associations of a company, on the target side', () => {
  it("a company with 1,000 associations refuses another company's association from either side", async () => {
    const target = await company('Crowded');
    // Associations are checked against real records: 1,000 stored contacts, each then holding its side.
    // Both sides are written now, so the 1,000 go in two batches of 500, each well inside the batch's time budget.
    const contacts = await createRecords(api, 'contacts', 1000);
    const filled: number[] = [];
    for (const half of [contacts.slice(0, 500), contacts.slice(500)]) {
      const response = await api.post('/crm/v4/associations/companies/contacts/batch/create', {
        inputs: half.map((id) => ({
          from: { id: target },
          to: { id },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }],
        })),
      });
      filled.push(response.status);
    }
    const other = await company('Neighbor');

    const fromOther = await api.put(`/crm/v3/objects/companies/${other}/associations/companies/${target}/450`);
    const fromTarget = await api.put(`/crm/v3/objects/companies/${target}/associations/companies/${other}/450`);
    const removed = await api.delete(`/crm/v4/objects/companies/${target}/associations/contacts/${contacts[0]}`);
    const afterRoom = await api.put(`/crm/v3/objects/companies/${other}/associations/companies/${target}/450`);

    expect(filled).toEqual([201, 201]);
    expect(fromOther.status).toBe(400);
    expect(fromOther.body.context).toEqual({ associations: [target] });
    expect(fromTarget.status).toBe(400);
    expect(removed.status).toBe(204);
    expect(afterRoom.status).toBe(200);
    const companiesOf = async (contact: string | undefined) =>
      (
        await api.get<{ results: { toObjectId: number }[] }>(
          `/crm/v4/objects/contacts/${contact}/associations/companies`,
        )
      ).body.results.map((result) => String(result.toObjectId));
    expect([await companiesOf(contacts[0]), await companiesOf(contacts[999])]).toEqual([[], [target]]);
  });
});

/** Rewrites a company item as an earlier version left it: these company associations, and no count of them. */
async function writeAsBefore(id: string, keys: Record<string, string>): Promise<void> {
  const item =
    (await db.send(new GetCommand({ TableName: tableName, Key: recordKey(companyKeys, hubId, id) }))).Item ?? {};
  const { companyLinkCount: _count, ...rest } = item;
  void _count;
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...rest, associations: { ...(item.associations as Record<string, string>), ...keys } },
    }),
  );
}

describe('a company over the limit, written before it held on both sides', () => {
  let target: string;
  let spokes: string[];

  beforeAll(async () => {
    target = await company('Overfull');
    spokes = await companies(60, 'Old spoke');
    for (const id of spokes) await writeAsBefore(id, { [`0-2/${target}/450`]: 'company_to_company' });
    await writeAsBefore(target, Object.fromEntries(spokes.map((id) => [`0-2/${id}/450`, 'company_to_company'])));
  });

  it('refuses another associated company, from either side', async () => {
    const extra = await company('Latecomer');

    const fromTarget = await api.put(`/crm/v3/objects/companies/${target}/associations/companies/${extra}/450`);
    const fromExtra = await api.put(`/crm/v3/objects/companies/${extra}/associations/companies/${target}/450`);
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'New spoke' },
      associations: [toCompany(target)],
    });

    expect(fromTarget.status).toBe(400);
    expect(fromExtra.status).toBe(400);
    expect(created.status).toBe(400);
    expect(await linkedCompanyIds(target)).toHaveLength(60);
  });

  it('still changes its properties and loses associations, from either side', async () => {
    const patched = await api.patch(`/crm/v3/objects/companies/${target}`, { properties: { city: 'Overfull City' } });
    const fromTarget = await api.delete(`/crm/v4/objects/companies/${target}/associations/companies/${spokes[1]}`);
    const fromSpoke = await api.delete(`/crm/v3/objects/companies/${spokes[2]}/associations/companies/${target}/450`);
    const batch = await api.post('/crm/v4/associations/companies/companies/batch/archive', {
      inputs: [{ from: { id: target }, to: [{ id: spokes[3] }, { id: spokes[4] }] }],
    });

    expect(patched.status).toBe(200);
    expect(fromTarget.status).toBe(204);
    expect(fromSpoke.status).toBe(204);
    expect(batch.status).toBe(204);
    expect(await linkedCompanyIds(target)).toHaveLength(56);
    expect(await linkedCompanyIds(spokes[2] as string)).toEqual([]);
  });

  it('can be merged with a company whose associated companies it already has', async () => {
    const other = await company('Merge partner');
    await api.put(`/crm/v3/objects/companies/${other}/associations/companies/${spokes[10]}/450`);

    const merged = await api.post('/crm/v3/objects/companies/merge', {
      primaryObjectId: target,
      objectIdToMerge: other,
    });
    const spokeLinks = await linkedCompanyIds(spokes[10] as string);

    expect(merged.status).toBe(200);
    expect(spokeLinks).toEqual([merged.body.id]);
    expect((await linkedCompanyIds(String(merged.body.id))).length).toBeGreaterThan(50);
  });
});

describe('archiving a company whose associated companies were written before their counts', () => {
  it('removes it from every one of them (each gets its count from its own associations first)', async () => {
    const hub = await company('Old hub');
    const spokes = await companies(30, 'Archived spoke');
    for (const id of spokes) await writeAsBefore(id, { [`0-2/${hub}/450`]: 'company_to_company' });
    await writeAsBefore(hub, Object.fromEntries(spokes.map((id) => [`0-2/${id}/450`, 'company_to_company'])));

    const archived = await api.delete(`/crm/v3/objects/companies/${hub}`);
    const counts = await Promise.all(
      spokes.map(
        async (id) =>
          (await db.send(new GetCommand({ TableName: tableName, Key: recordKey(companyKeys, hubId, id) }))).Item
            ?.companyLinkCount,
      ),
    );

    expect(archived.status).toBe(204);
    expect(await linkedCompanyIds(spokes[0] as string)).toEqual([]);
    expect(await linkedCompanyIds(spokes[29] as string)).toEqual([]);
    expect(counts).toEqual(Array(30).fill(0));
  });
});

describe('a company write that would pass 100 items in one transaction', () => {
  /** Unique-value definitions as an earlier version let a race make them: more than the cap of 10, no count item. */
  async function legacyUniqueProperties(count: number): Promise<string[]> {
    const names = Array.from({ length: count }, (_, index) => `legacy_unique_${Date.now().toString(36)}_${index}`);
    for (const name of names) {
      await putLegacyUniqueProperty(hubId, name);
    }
    return names;
  }

  it('35 unique values, 21 domains and 45 associated companies: 400 naming properties and associations, nothing written', async () => {
    const names = await legacyUniqueProperties(35);
    const linked = await companies(45, 'Link');
    const tag = Date.now().toString(36);
    const properties = {
      name: 'Too wide',
      domain: `wide-${tag}.example`,
      hs_additional_domains: Array.from({ length: 20 }, (_, index) => `wide-${tag}-${index}.example`).join(';'),
      ...Object.fromEntries(names.map((name) => [name, `${name}-value`])),
    };

    const response = await api.post('/crm/v3/objects/companies', {
      properties,
      associations: linked.map((id) => toCompany(id)),
    });
    const byDomain = await api.get(`/crm/v3/objects/companies/wide-${tag}.example?idProperty=domain`);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR' });
    expect(Object.keys(response.body.context ?? {}).sort()).toEqual(['associations', 'properties']);
    expect(byDomain.status).toBe(404);
    expect(await linkedCompanyIds(linked[0] as string)).toEqual([]);
  });

  it('10 unique values, 21 domains and 50 associated companies fit (83 items): 201', async () => {
    const names = await legacyUniqueProperties(10);
    const linked = await companies(50, 'Fits');
    const tag = Date.now().toString(36);
    const properties = {
      name: 'Wide but fits',
      domain: `fits-${tag}.example`,
      hs_additional_domains: Array.from({ length: 20 }, (_, index) => `fits-${tag}-${index}.example`).join(';'),
      ...Object.fromEntries(names.map((name) => [name, `${name}-value`])),
    };

    const response = await api.post('/crm/v3/objects/companies', {
      properties,
      associations: linked.map((id) => toCompany(id)),
    });

    expect(response.status).toBe(201);
    expect(await linkedCompanyIds(linked[49] as string)).toEqual([response.body.id]);
  });
});
