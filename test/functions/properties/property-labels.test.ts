import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import { propertyKey } from '../../../shared/db/keys';
import { companyKeys } from '../../../shared/companies/company-keys';
import type { CrmClient } from '../../support/crm-client';
import { freshCrmAccount, uniqueUnderscored } from '../../support/fresh-crm-account';
import { useTestGateway } from '../../support/harness';

/**
 * A custom property's label is unique per object type, compared trimmed and case-insensitively:
 * held by a claim item written in the definition's own transaction, so concurrent creates, batch
 * creates and label updates cannot pass it; archiving a property frees its label, a label update
 * moves its claim.
 */
const gateway = useTestGateway();

const text = (name: string, label: string) => ({
  name,
  label,
  type: 'string',
  fieldType: 'text',
  groupName: 'companyinformation',
});

const labelTaken = (body: { category?: string; errors?: { code?: string }[]; context?: unknown }, label: string) =>
  body.category === 'VALIDATION_ERROR' &&
  body.errors?.[0]?.code === 'NON_UNIQUE_PROPERTY_LABEL' &&
  JSON.stringify(body.context) === JSON.stringify({ label: [label] });

async function customNames(api: CrmClient): Promise<string[]> {
  const listed = await api.get<{ results: { name: string; hubspotDefined?: boolean }[] }>(
    '/crm/v3/properties/companies',
  );
  return listed.body.results
    .filter((property) => property.hubspotDefined === false)
    .map((property) => property.name)
    .sort();
}

describe('concurrent creates of one label', () => {
  it('6 concurrent creates (labels differing in case and surrounding spaces) make exactly one; the others are 400 NON_UNIQUE_PROPERTY_LABEL', async () => {
    const { api } = await freshCrmAccount(gateway);
    const base = uniqueUnderscored('Shared label');
    const labels = [base, base.toUpperCase(), ` ${base} `, base.toLowerCase(), `${base}  `, `\t${base}`];
    const names = labels.map((_, index) => uniqueUnderscored(`same${index}`));

    const responses = await Promise.all(
      names.map((name, index) => api.post('/crm/v3/properties/companies', text(name, labels[index] as string))),
    );

    expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    const refused = responses.filter((response) => response.status === 400);
    expect(refused.every((response) => labelTaken(response.body, labels[responses.indexOf(response)] as string))).toBe(
      true,
    );
    const winner = names[responses.findIndex((response) => response.status === 201)];
    expect(await customNames(api)).toEqual([winner]);
  });

  it('3 concurrent batch creates each naming the label make exactly one property of it in all', async () => {
    const { api } = await freshCrmAccount(gateway);
    const label = uniqueUnderscored('Batch label');
    const batches = [0, 1, 2].map((batch) => [uniqueUnderscored(`own${batch}`), uniqueUnderscored(`shared${batch}`)]);

    const responses = await Promise.all(
      batches.map(([own, shared]) =>
        api.post<{ results?: { name: string }[]; errors?: { errors?: { code?: string }[] }[] }>(
          '/crm/v3/properties/companies/batch/create',
          { inputs: [text(own as string, `Own ${own}`), text(shared as string, label)] },
        ),
      ),
    );
    const created = responses.flatMap((response) => response.body.results?.map((property) => property.name) ?? []);
    const errors = responses.flatMap((response) => response.body.errors ?? []);

    const shared = batches.map(([, name]) => name as string);
    expect(created.filter((name) => shared.includes(name))).toHaveLength(1);
    expect(errors.map((error) => error.errors?.[0]?.code)).toEqual(
      Array.from({ length: 2 }, () => 'NON_UNIQUE_PROPERTY_LABEL'),
    );
    expect(await customNames(api)).toEqual([...created].sort());
  });

  it('two inputs of one batch with one label refuse the whole batch with 400 naming the label, and nothing is written', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [own, first, second] = [uniqueUnderscored('own'), uniqueUnderscored('first'), uniqueUnderscored('second')];
    const label = uniqueUnderscored('Twice');

    const response = await api.post('/crm/v3/properties/companies/batch/create', {
      inputs: [text(own, `Own ${own}`), text(first, label), text(second, ` ${label.toUpperCase()}`)],
    });

    expect(response.status).toBe(400);
    expect(labelTaken(response.body as never, ` ${label.toUpperCase()}`)).toBe(true);
    expect(response.body.message).toMatch(/^inputs\[2\] /);
    expect(await customNames(api)).toEqual([]);
  });
});

describe('a label update', () => {
  it('to a label another property has is 400 NON_UNIQUE_PROPERTY_LABEL, and the property keeps its label', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [holder, mover] = [uniqueUnderscored('holder'), uniqueUnderscored('mover')];
    const taken = uniqueUnderscored('Taken');
    await api.post('/crm/v3/properties/companies', text(holder, taken));
    await api.post('/crm/v3/properties/companies', text(mover, 'Mover label'));

    const response = await api.patch(`/crm/v3/properties/companies/${mover}`, { label: ` ${taken.toLowerCase()}` });
    const read = await api.get<{ label: string }>(`/crm/v3/properties/companies/${mover}`);

    expect(response.status).toBe(400);
    expect(labelTaken(response.body as never, ` ${taken.toLowerCase()}`)).toBe(true);
    expect(read.body.label).toBe('Mover label');
  });

  it('6 concurrent updates of different properties to one new label: exactly one takes it', async () => {
    const { api } = await freshCrmAccount(gateway);
    const names = Array.from({ length: 6 }, (_, index) => uniqueUnderscored(`upd${index}`));
    for (const name of names) await api.post('/crm/v3/properties/companies', text(name, `Before ${name}`));
    const label = uniqueUnderscored('Wanted');

    const responses = await Promise.all(
      names.map((name) => api.patch(`/crm/v3/properties/companies/${name}`, { label })),
    );
    const reads = await Promise.all(
      names.map((name) => api.get<{ label: string }>(`/crm/v3/properties/companies/${name}`)),
    );

    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(reads.filter((read) => read.body.label === label)).toHaveLength(1);
  });

  it('moves the claim: the old label is free again, the new one taken', async () => {
    const { api } = await freshCrmAccount(gateway);
    const name = uniqueUnderscored('renamed');
    const [before, after] = [uniqueUnderscored('Before'), uniqueUnderscored('After')];
    await api.post('/crm/v3/properties/companies', text(name, before));

    const renamed = await api.patch(`/crm/v3/properties/companies/${name}`, { label: after });
    const reuseOld = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('reuse'), before));
    const takeNew = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('take'), after));
    const caseOnly = await api.patch(`/crm/v3/properties/companies/${name}`, { label: after.toUpperCase() });

    expect(renamed.status).toBe(200);
    expect(reuseOld.status).toBe(201);
    expect(takeNew.status).toBe(400);
    expect(labelTaken(takeNew.body as never, after)).toBe(true);
    expect(caseOnly.status).toBe(200);
  });
});

describe('archiving a property', () => {
  it('frees its label for a new property, and the archived one keeps its label', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [gone, next] = [uniqueUnderscored('gone'), uniqueUnderscored('next')];
    const label = uniqueUnderscored('Recycled');
    await api.post('/crm/v3/properties/companies', text(gone, label));

    const archived = await api.delete(`/crm/v3/properties/companies/${gone}`);
    const created = await api.post('/crm/v3/properties/companies', text(next, label));
    const again = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('again'), label));
    const archivedRead = await api.get<{ label: string }>(`/crm/v3/properties/companies/${gone}?archived=true`);

    expect(archived.status).toBe(204);
    expect(created.status).toBe(201);
    expect(again.status).toBe(400);
    expect(archivedRead.body.label).toBe(label);
  });

  it('in a batch archive frees the labels too', async () => {
    const { api } = await freshCrmAccount(gateway);
    const name = uniqueUnderscored('batchgone');
    const label = uniqueUnderscored('Batch recycled');
    await api.post('/crm/v3/properties/companies', text(name, label));

    await api.post('/crm/v3/properties/companies/batch/archive', { inputs: [{ name }] });
    const created = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('after'), label));

    expect(created.status).toBe(201);
  });
});

describe('definitions stored without a label claim (written before claims existed)', () => {
  async function putUnclaimed(hubId: number, name: string, label: string): Promise<void> {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...propertyKey(companyKeys, hubId, name),
          ...text(name, label),
          description: '',
          options: [],
          displayOrder: -1,
          calculated: false,
          externalOptions: false,
          hasUniqueValue: false,
          hidden: false,
          hubspotDefined: false,
          formField: false,
          dataSensitivity: 'non_sensitive',
          modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
          archived: false,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
  }

  it('keep their label: concurrent creates and an update naming it are refused', async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    const [legacy, other] = [uniqueUnderscored('legacy'), uniqueUnderscored('other')];
    const label = uniqueUnderscored('Legacy label');
    await putUnclaimed(hubId, legacy, label);
    await api.post('/crm/v3/properties/companies', text(other, 'Other label'));

    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        api.post('/crm/v3/properties/companies', text(uniqueUnderscored(`late${index}`), label.toUpperCase())),
      ),
    );
    const update = await api.patch(`/crm/v3/properties/companies/${other}`, { label });

    expect(creates.map((response) => response.status)).toEqual(Array.from({ length: 6 }, () => 400));
    expect(update.status).toBe(400);
    expect(await customNames(api)).toEqual([legacy, other].sort());
  });

  it("relabelled away from a label another property's claim holds: the change is made and the claim stays that property's", async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    const [holder, legacy] = [uniqueUnderscored('holder'), uniqueUnderscored('legacy')];
    const [label, next] = [uniqueUnderscored('Held'), uniqueUnderscored('Next')];
    await api.post('/crm/v3/properties/companies', text(holder, label));
    await putUnclaimed(hubId, legacy, label);

    const relabel = await api.patch<{ label: string }>(`/crm/v3/properties/companies/${legacy}`, { label: next });
    await api.delete(`/crm/v3/properties/companies/${holder}`);
    const takeHeld = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('a'), label));
    const takeNext = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('b'), next));

    expect(relabel.status).toBe(200);
    expect(relabel.body.label).toBe(next);
    expect([takeHeld.status, takeNext.status]).toEqual([201, 400]);
  });

  it('free their label when archived or relabelled, and a relabel claims the new one', async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    const [relabelled, archived] = [uniqueUnderscored('relabelled'), uniqueUnderscored('archived')];
    const [first, second, third] = [
      uniqueUnderscored('First'),
      uniqueUnderscored('Second'),
      uniqueUnderscored('Third'),
    ];
    await putUnclaimed(hubId, relabelled, first);
    await putUnclaimed(hubId, archived, second);

    const relabel = await api.patch(`/crm/v3/properties/companies/${relabelled}`, { label: third });
    await api.delete(`/crm/v3/properties/companies/${archived}`);
    const takeFirst = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('a'), first));
    const takeSecond = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('b'), second));
    const takeThird = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('c'), third));

    expect(relabel.status).toBe(200);
    expect([takeFirst.status, takeSecond.status, takeThird.status]).toEqual([201, 201, 400]);
  });
});
