import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import { hubCounterKey } from '../../../shared/db/keys';
import { putLegacyUniqueProperty } from '../../support/company-record-fixture';
import { freshCrmAccount, uniqueUnderscored } from '../../support/fresh-crm-account';
import { useTestGateway } from '../../support/harness';

/**
 * Sizes and caps of custom company properties. A definition DynamoDB cannot store is a
 * 400 naming `options` before anything is written; the caps (1,000 definitions, 10 with unique
 * values) hold under concurrent creates; a property's group must exist and be live.
 */
const gateway = useTestGateway();

/** 1,000 options of 400-character labels and values: about 830 KB, over DynamoDB's 400 KB item. */
const longOptions = Array.from({ length: 1000 }, (_, index) => ({
  label: `${index} ${'L'.repeat(395)}`,
  value: `${index}-${'v'.repeat(394)}`,
}));

/** The hub's catalog count item, which the creates move in the transaction that writes each definition. */
async function catalogCount(hubId: number): Promise<Record<string, unknown> | undefined> {
  return (await db.send(new GetCommand({ TableName: tableName, Key: hubCounterKey(hubId, 'companyProperties') }))).Item;
}

const enumeration = (
  name: string,
  options: unknown = [{ label: 'One', value: 'one' }],
  groupName = 'companyinformation',
) => ({ name, label: `Label ${name}`, type: 'enumeration', fieldType: 'select', groupName, options });
const text = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  label: `Label ${name}`,
  type: 'string',
  fieldType: 'text',
  groupName: 'companyinformation',
  ...extra,
});

describe('a definition DynamoDB cannot store in one item', () => {
  it('is refused on create with 400 naming options, and nothing is written', async () => {
    const { api } = await freshCrmAccount(gateway);
    const name = uniqueUnderscored('huge');

    const response = await api.post('/crm/v3/properties/companies', enumeration(name, longOptions));
    const read = await api.get(`/crm/v3/properties/companies/${name}`);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { options: ['1000'] } });
    expect(response.body.errors?.[0]).toMatchObject({ code: 'TOO_LARGE', in: 'options' });
    expect(read.status).toBe(404);
  });

  it('is refused on PATCH with 400 naming options, and the stored definition stays as it was', async () => {
    const { api } = await freshCrmAccount(gateway);
    const name = uniqueUnderscored('grown');
    await api.post('/crm/v3/properties/companies', enumeration(name));

    const response = await api.patch(`/crm/v3/properties/companies/${name}`, { options: longOptions });
    const read = await api.get(`/crm/v3/properties/companies/${name}`);

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ options: ['1000'] });
    expect(read.body.options).toEqual([{ label: 'One', value: 'one', displayOrder: 0, hidden: false }]);
  });

  it('refuses the whole batch create with 400 naming options: nothing of the batch is written', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [before, huge, after] = [uniqueUnderscored('before'), uniqueUnderscored('huge'), uniqueUnderscored('after')];

    const response = await api.post('/crm/v3/properties/companies/batch/create', {
      inputs: [text(before), enumeration(huge, longOptions), text(after)],
    });
    const listed = await api.get('/crm/v3/properties/companies');

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      context: { options: ['1000'] },
    });
    expect(typeof response.body.correlationId).toBe('string');
    expect(response.body.message).toContain(huge);
    expect(response.body.errors?.[0]).toMatchObject({ code: 'TOO_LARGE', in: 'options' });
    expect(listed.body.results?.filter((property) => property.hubspotDefined === false)).toEqual([]);
  });

  it('refuses the whole batch create with 400 for an input the create would refuse (fieldType), before any write', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [good, bad] = [uniqueUnderscored('good'), uniqueUnderscored('bad')];

    const response = await api.post('/crm/v3/properties/companies/batch/create', {
      inputs: [text(good), text(bad, { fieldType: 'select' })],
    });
    const listed = await api.get('/crm/v3/properties/companies');

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { fieldType: ['select'] } });
    expect(listed.body.results?.filter((property) => property.hubspotDefined === false)).toEqual([]);
  });

  it('still takes 1,000 short options', async () => {
    const { api } = await freshCrmAccount(gateway);
    const options = Array.from({ length: 1000 }, (_, index) => ({
      label: `Option ${index}`,
      value: `option_${index}`,
    }));

    const response = await api.post('/crm/v3/properties/companies', enumeration(uniqueUnderscored('wide'), options));

    expect(response.status).toBe(201);
    expect(response.body.options).toHaveLength(1000);
  });
});

describe('the caps hold under concurrent creates', () => {
  it('90 concurrent creates of unique-value properties make exactly 10; the others are 400 naming hasUniqueValue', async () => {
    const { api } = await freshCrmAccount(gateway);

    const responses = await Promise.all(
      Array.from({ length: 90 }, (_, index) =>
        api.post('/crm/v3/properties/companies', text(uniqueUnderscored(`u${index}`), { hasUniqueValue: true })),
      ),
    );
    const listed = await api.get('/crm/v3/properties/companies');

    expect(responses.filter((response) => response.status === 201)).toHaveLength(10);
    const refused = responses.filter((response) => response.status !== 201);
    expect(refused.map((response) => response.status)).toEqual(Array.from({ length: 80 }, () => 400));
    expect(refused.every((response) => response.body.context?.hasUniqueValue?.[0] === 'true')).toBe(true);
    expect(listed.body.results?.filter((property) => property.hasUniqueValue)).toHaveLength(10);
  });

  it('3 concurrent batch creates of 10 unique-value properties each make exactly 10 in all; the 20 others are errors, and nothing of them is written', async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    const names = [0, 1, 2].map((batch) =>
      Array.from({ length: 10 }, (_, index) => uniqueUnderscored(`b${batch}u${index}`)),
    );

    const responses = await Promise.all(
      names.map((batch) =>
        api.post('/crm/v3/properties/companies/batch/create', {
          inputs: batch.map((name) => text(name, { hasUniqueValue: true })),
        }),
      ),
    );
    const listed = await api.get('/crm/v3/properties/companies');
    const created = responses.flatMap((response) => response.body.results?.map((property) => property.name) ?? []);
    const errors = responses.flatMap((response) => response.body.errors ?? []);
    const refused = names.flat().filter((name) => !created.includes(name));
    const refusedReads = await Promise.all(refused.map((name) => api.get(`/crm/v3/properties/companies/${name}`)));

    expect(responses.every((response) => response.status === 201 || response.status === 207)).toBe(true);
    expect(created).toHaveLength(10);
    expect(errors).toHaveLength(20);
    expect(
      errors.every((error) => error.category === 'VALIDATION_ERROR' && error.context?.hasUniqueValue?.[0] === 'true'),
    ).toBe(true);
    expect(
      listed.body.results
        ?.filter((property) => property.hasUniqueValue)
        .map((property) => property.name)
        .sort(),
    ).toEqual([...created].sort());
    expect(refusedReads.map((read) => read.status)).toEqual(refused.map(() => 404));
    expect(await catalogCount(hubId)).toMatchObject({ definitions: 10, uniqueDefinitions: 10 });
  });

  it('a hub 5 short of 1,000 definitions gets exactly 5 more from 10 concurrent creates and 2 concurrent batch creates of 10; the 25 others are 400, not written', async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    // The count item as 995 creates leave it. Not the 995 definitions themselves: every create reads
    // the catalog, and 12 concurrent 995-item Queries time out on DynamoDB Local on a busy machine.
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...hubCounterKey(hubId, 'companyProperties'), definitions: 995, uniqueDefinitions: 0 },
      }),
    );
    const singles = Array.from({ length: 10 }, (_, index) => uniqueUnderscored(`one${index}`));
    const batches = [0, 1].map((batch) =>
      Array.from({ length: 10 }, (_, index) => uniqueUnderscored(`many${batch}_${index}`)),
    );

    const [singleResponses, batchResponses] = await Promise.all([
      Promise.all(singles.map((name) => api.post('/crm/v3/properties/companies', text(name)))),
      Promise.all(
        batches.map((batch) =>
          api.post('/crm/v3/properties/companies/batch/create', { inputs: batch.map((name) => text(name)) }),
        ),
      ),
    ]);
    const created = [
      ...singleResponses.filter((response) => response.status === 201).map((response) => response.body.name),
      ...batchResponses.flatMap((response) => response.body.results?.map((property) => property.name) ?? []),
    ];
    const refused = [...singles, ...batches.flat()].filter((name) => !created.includes(name));
    const errors = [
      ...singleResponses.filter((response) => response.status !== 201).map((response) => response.body),
      ...batchResponses.flatMap((response) => response.body.errors ?? []),
    ];
    const refusedReads = await Promise.all(refused.map((name) => api.get(`/crm/v3/properties/companies/${name}`)));
    const listed = await api.get('/crm/v3/properties/companies');

    expect(created).toHaveLength(5);
    expect(errors).toHaveLength(25);
    expect(singleResponses.every((response) => response.status === 201 || response.status === 400)).toBe(true);
    expect(
      errors.every((error) => error.category === 'VALIDATION_ERROR' && error.message?.includes('at most 1000')),
    ).toBe(true);
    expect(refusedReads.map((read) => read.status)).toEqual(refused.map(() => 404));
    expect(
      listed.body.results
        ?.filter((property) => property.hubspotDefined === false)
        .map((property) => property.name)
        .sort(),
    ).toEqual([...created].sort());
    expect(await catalogCount(hubId)).toMatchObject({ definitions: 1000, uniqueDefinitions: 0 });
  });

  it('counts definitions written before the count item existed: a hub with 9 unique ones gets exactly one more', async () => {
    const { api, hubId } = await freshCrmAccount(gateway);
    // Definitions as an earlier version stored them: items only, no count item.
    for (let index = 0; index < 9; index += 1) {
      const name = uniqueUnderscored(`legacy${index}`);
      await putLegacyUniqueProperty(hubId, name);
    }

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        api.post('/crm/v3/properties/companies', text(uniqueUnderscored(`late${index}`), { hasUniqueValue: true })),
      ),
    );
    const plain = await api.post('/crm/v3/properties/companies', text(uniqueUnderscored('plain')));

    expect(responses.map((response) => response.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    expect(plain.status).toBe(201);
  });
});

describe('the group of a property', () => {
  it('must exist on create: 400 naming groupName, nothing written', async () => {
    const { api } = await freshCrmAccount(gateway);
    const name = uniqueUnderscored('orphan');

    const response = await api.post('/crm/v3/properties/companies', { ...text(name), groupName: 'no_such_group' });
    const read = await api.get(`/crm/v3/properties/companies/${name}`);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { groupName: ['no_such_group'] } });
    expect(read.status).toBe(404);
  });

  it('must be live on PATCH: a move into an archived group is 400 and the property stays where it was', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [group, name] = [uniqueUnderscored('gone'), uniqueUnderscored('mover')];
    await api.post('/crm/v3/properties/companies/groups', { name: group, label: 'Gone soon' });
    await api.delete(`/crm/v3/properties/companies/groups/${group}`);
    await api.post('/crm/v3/properties/companies', text(name));

    const response = await api.patch(`/crm/v3/properties/companies/${name}`, { groupName: group });
    const read = await api.get(`/crm/v3/properties/companies/${name}`);

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ groupName: [group] });
    expect(read.body).toMatchObject({ groupName: 'companyinformation' });
  });

  it('may be a live custom group, on create and on PATCH', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [first, second, name] = [
      uniqueUnderscored('first'),
      uniqueUnderscored('second'),
      uniqueUnderscored('member'),
    ];
    await api.post('/crm/v3/properties/companies/groups', { name: first, label: 'First' });
    await api.post('/crm/v3/properties/companies/groups', { name: second, label: 'Second' });

    const created = await api.post('/crm/v3/properties/companies', { ...text(name), groupName: first });
    const moved = await api.patch(`/crm/v3/properties/companies/${name}`, { groupName: second });
    const archiveUsed = await api.delete(`/crm/v3/properties/companies/groups/${second}`);
    const archiveEmpty = await api.delete(`/crm/v3/properties/companies/groups/${first}`);

    expect(created.status).toBe(201);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ groupName: second });
    expect(archiveUsed.status).toBe(400);
    expect(archiveEmpty.status).toBe(204);
  });

  it('is refused per input in a batch create (207), the other inputs created', async () => {
    const { api } = await freshCrmAccount(gateway);
    const [good, orphan] = [uniqueUnderscored('good'), uniqueUnderscored('orphan')];

    const response = await api.post('/crm/v3/properties/companies/batch/create', {
      inputs: [text(good), { ...text(orphan), groupName: 'missing_group' }],
    });

    expect(response.status).toBe(207);
    expect(response.body.results?.map((property) => property.name)).toEqual([good]);
    expect(response.body.errors).toEqual([expect.objectContaining({ context: { groupName: ['missing_group'] } })]);
  });
});
