import { Client } from '@hubspot/api-client';
import {
  PropertyCreateFieldTypeEnum,
  PropertyCreateTypeEnum,
} from '@hubspot/api-client/lib/codegen/crm/properties/models/PropertyCreate';
import type { RunningGateway } from '../../../local/local-gateway';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

/** Property update/archive, groups and batch calls through crm.properties.* of the official SDK, plus the errors over HTTP. */
let gateway: RunningGateway;
let client: Client;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  const installed = await install(gateway);
  client = new Client({ accessToken: installed.accessToken, basePath: gateway.baseUrl, numberOfApiCallRetries: 0 });
  api = crmClient(gateway, installed.accessToken);
});

afterAll(async () => {
  await gateway.close();
});

let counter = 0;
const uniqueName = (prefix: string) => {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
};

async function textProperty(name = uniqueName('prop')): Promise<string> {
  await client.crm.properties.coreApi.create('companies', {
    name,
    label: `Label ${name}`,
    type: PropertyCreateTypeEnum.String,
    fieldType: PropertyCreateFieldTypeEnum.Text,
    groupName: 'companyinformation',
  });
  return name;
}

describe('crm.properties.coreApi update and archive', () => {
  it('update (200) overwrites the given fields and keeps the others', async () => {
    const name = await textProperty();

    const updated = await client.crm.properties.coreApi.update('companies', name, {
      label: `Renamed ${name}`,
      description: 'Now described',
    });

    expect(updated).toMatchObject({
      name,
      label: `Renamed ${name}`,
      description: 'Now described',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });
    expect(updated.updatedAt).toBeInstanceOf(Date);
    expect((await client.crm.properties.coreApi.getByName('companies', name)).label).toBe(`Renamed ${name}`);
  });

  it('update turns a text property into an enumeration with options', async () => {
    const name = await textProperty();

    const response = await api.patch(`/crm/v3/properties/companies/${name}`, {
      type: 'enumeration',
      fieldType: 'select',
      options: [{ label: 'Gold', value: 'gold' }],
    });

    expect(response.status).toBe(200);
    expect(response.body.options).toEqual([{ label: 'Gold', value: 'gold', displayOrder: 0, hidden: false }]);
  });

  it('refuses to change name, hasUniqueValue or a HubSpot-defined property', async () => {
    const name = await textProperty();

    const unique = await api.patch(`/crm/v3/properties/companies/${name}`, { hasUniqueValue: true });
    const renamed = await api.patch(`/crm/v3/properties/companies/${name}`, { name: 'other_name' });
    const standard = await api.patch('/crm/v3/properties/companies/industry', { label: 'Sector' });
    const missing = await api.patch('/crm/v3/properties/companies/no_such_property', { label: 'x' });

    expect(unique.status).toBe(400);
    expect(unique.body.context).toEqual({ hasUniqueValue: ['true'] });
    expect(renamed.status).toBe(400);
    expect(standard.status).toBe(400);
    expect(standard.body.errors?.[0]?.code).toBe('READ_ONLY_DEFINITION');
    expect(missing.status).toBe(404);
  });

  it('archive (204) moves the property to archived=true; its values stay stored but are not returned', async () => {
    const name = await textProperty();
    const company = await client.crm.companies.basicApi.create({
      properties: { name: 'Holder', [name]: 'kept value' },
      associations: [],
    });

    await client.crm.properties.coreApi.archive('companies', name);
    const live = await client.crm.properties.coreApi.getAll('companies');
    const archived = await client.crm.properties.coreApi.getAll('companies', true);
    const one = await client.crm.properties.coreApi.getByName('companies', name, true);
    const read = await api.get(`/crm/v3/objects/companies/${company.id}?properties=name,${name}`);
    const write = await api.patch(`/crm/v3/objects/companies/${company.id}`, { properties: { [name]: 'new' } });

    expect(live.results.map((property) => property.name)).not.toContain(name);
    expect(archived.results.map((property) => property.name)).toEqual([name]);
    expect(one.archived).toBe(true);
    expect(one.archivedAt).toBeInstanceOf(Date);
    expect(read.body.properties).toEqual({ name: 'Holder' });
    expect(write.status).toBe(400);
    expect(write.body.errors?.[0]?.code).toBe('PROPERTY_DOESNT_EXIST');
  });

  it('refuses to archive a HubSpot-defined property; a missing one is 404', async () => {
    const standard = await api.delete('/crm/v3/properties/companies/industry');
    const missing = await api.delete('/crm/v3/properties/companies/no_such_property');

    expect(standard.status).toBe(400);
    expect(missing.status).toBe(404);
  });
});

describe('crm.properties.groupsApi', () => {
  it('creates (201), reads (200), lists (200), updates (200) and archives (204) a group', async () => {
    const name = uniqueName('group');

    const created = await client.crm.properties.groupsApi.create('companies', {
      name,
      label: 'Finance',
      displayOrder: 3,
    });
    const one = await client.crm.properties.groupsApi.getByName('companies', name);
    const updated = await client.crm.properties.groupsApi.update('companies', name, { label: 'Finance & billing' });
    const listed = await client.crm.properties.groupsApi.getAll('companies');
    await client.crm.properties.groupsApi.archive('companies', name);
    const after = await client.crm.properties.groupsApi.getAll('companies');

    expect(created).toEqual({ name, label: 'Finance', displayOrder: 3, archived: false });
    expect(one).toEqual(created);
    expect(updated).toEqual({ name, label: 'Finance & billing', displayOrder: 3, archived: false });
    expect(listed.results).toContainEqual({
      name: 'companyinformation',
      label: 'Company information',
      displayOrder: 0,
      archived: false,
    });
    expect(listed.results).toContainEqual(updated);
    expect(after.results.map((group) => group.name)).not.toContain(name);
  });

  it('answers 409 for a taken group name, 400 for a group still holding properties, 404 for a missing one', async () => {
    const name = uniqueName('busy');
    await api.post('/crm/v3/properties/companies/groups', { name, label: 'Busy' });
    await api.post('/crm/v3/properties/companies', {
      name: uniqueName('member'),
      label: uniqueName('Member'),
      type: 'string',
      fieldType: 'text',
      groupName: name,
    });

    const taken = await api.post('/crm/v3/properties/companies/groups', { name, label: 'Again' });
    const busy = await api.delete(`/crm/v3/properties/companies/groups/${name}`);
    const missing = await api.get('/crm/v3/properties/companies/groups/no_such_group');

    expect(taken.status).toBe(409);
    expect(busy.status).toBe(400);
    expect(busy.body.context).toEqual({ groupName: [name] });
    expect(missing.status).toBe(404);
  });
});

describe('crm.properties.batchApi', () => {
  it('create answers 201 when every input is created and 207 with the refused ones', async () => {
    const [first, second] = [uniqueName('batch'), uniqueName('batch')];
    const input = (name: string) => ({
      name,
      label: `Label ${name}`,
      type: PropertyCreateTypeEnum.String,
      fieldType: PropertyCreateFieldTypeEnum.Text,
      groupName: 'companyinformation',
    });

    const allCreated = await api.post('/crm/v3/properties/companies/batch/create', { inputs: [input(first)] });
    const partly = await client.crm.properties.batchApi.create('companies', { inputs: [input(first), input(second)] });

    expect(allCreated.status).toBe(201);
    expect(allCreated.body.results?.map((property) => property.name)).toEqual([first]);
    expect(partly.results.map((property) => property.name)).toEqual([second]);
    expect('numErrors' in partly ? partly.numErrors : 0).toBe(1);
  });

  it('read answers 200 for known names and 207 naming a missing one', async () => {
    const name = await textProperty();

    const known = await api.post('/crm/v3/properties/companies/batch/read', {
      inputs: [{ name }, { name: 'domain' }],
      archived: false,
    });
    const partly = await client.crm.properties.batchApi.read('companies', {
      inputs: [{ name }, { name: 'no_such_property' }],
      archived: false,
    });

    expect(known.status).toBe(200);
    expect(known.body.results?.map((property) => property.name)).toEqual([name, 'domain']);
    expect(partly.results.map((property) => property.name)).toEqual([name]);
    expect('errors' in partly ? partly.errors?.[0]?.context : undefined).toEqual({
      propertyName: ['no_such_property'],
    });
  });

  it('archive answers 204 whatever the state of each name', async () => {
    const name = await textProperty();

    await client.crm.properties.batchApi.archive('companies', {
      inputs: [{ name }, { name: 'no_such_property' }, { name: 'industry' }],
    });
    const again = await api.post('/crm/v3/properties/companies/batch/archive', { inputs: [{ name }] });

    expect(again.status).toBe(204);
    expect((await client.crm.properties.coreApi.getByName('companies', name, true)).archived).toBe(true);
    expect((await client.crm.properties.coreApi.getByName('companies', 'industry')).archived).toBe(false);
  });
});
