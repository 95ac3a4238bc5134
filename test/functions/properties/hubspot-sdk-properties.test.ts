import {
  PropertyCreateFieldTypeEnum,
  PropertyCreateTypeEnum,
} from '@hubspot/api-client/lib/codegen/crm/properties/models/PropertyCreate';
import { unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

/**
 * crm.properties through the official SDK, unchanged but for the base URL: each call checks the
 * exact status (the SDK throws on any other) and that the SDK's models parse the answer.
 */
const sdk = useSdkClient();

const propertyName = () =>
  unique('sdk_prop')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
const text = {
  type: PropertyCreateTypeEnum.String,
  fieldType: PropertyCreateFieldTypeEnum.Text,
  groupName: 'companyinformation',
};

describe('crm.properties.coreApi', () => {
  it('update (200) changes a custom property; archive (204) hides it; getAll(archived) (200) lists it', async () => {
    const name = propertyName();
    await sdk.client.crm.properties.coreApi.create('companies', { name, label: `Label ${name}`, ...text });

    const updated = await sdk.client.crm.properties.coreApi.updateWithHttpInfo('companies', name, {
      label: `Renamed ${name}`,
      description: 'changed',
    });
    const archived = await sdk.client.crm.properties.coreApi.archiveWithHttpInfo('companies', name);
    const live = await sdk.client.crm.properties.coreApi.getAll('companies');
    const recycled = await sdk.client.crm.properties.coreApi.getAllWithHttpInfo('companies', true);
    const single = await sdk.client.crm.properties.coreApi.getByName('companies', name, true);

    expect(updated.httpStatusCode).toBe(200);
    expect(updated.data).toMatchObject({
      name,
      label: `Renamed ${name}`,
      description: 'changed',
      type: 'string',
      fieldType: 'text',
    });
    expect(archived.httpStatusCode).toBe(204);
    expect(live.results.map((property) => property.name)).not.toContain(name);
    expect(recycled.httpStatusCode).toBe(200);
    expect(recycled.data.results.map((property) => property.name)).toContain(name);
    expect(single.archived).toBe(true);
    expect(single.archivedAt).toBeInstanceOf(Date);
  });
});

describe('crm.properties.groupsApi', () => {
  it('create (201), getByName (200), getAll (200), update (200), archive (204)', async () => {
    const name = propertyName();

    const created = await sdk.client.crm.properties.groupsApi.createWithHttpInfo('companies', {
      name,
      label: 'SDK group',
    });
    const read = await sdk.client.crm.properties.groupsApi.getByNameWithHttpInfo('companies', name);
    const all = await sdk.client.crm.properties.groupsApi.getAllWithHttpInfo('companies');
    const updated = await sdk.client.crm.properties.groupsApi.updateWithHttpInfo('companies', name, {
      label: 'SDK group renamed',
      displayOrder: 3,
    });
    const archived = await sdk.client.crm.properties.groupsApi.archiveWithHttpInfo('companies', name);
    const after = await sdk.client.crm.properties.groupsApi.getAll('companies');

    expect([
      created.httpStatusCode,
      read.httpStatusCode,
      all.httpStatusCode,
      updated.httpStatusCode,
      archived.httpStatusCode,
    ]).toEqual([201, 200, 200, 200, 204]);
    expect(created.data).toMatchObject({ name, label: 'SDK group', archived: false });
    expect(read.data.name).toBe(name);
    expect(all.data.results.map((group) => group.name)).toEqual(expect.arrayContaining(['companyinformation', name]));
    expect(updated.data).toMatchObject({ name, label: 'SDK group renamed', displayOrder: 3 });
    expect(after.results.map((group) => group.name)).not.toContain(name);
  });
});

describe('crm.properties.batchApi', () => {
  it('create (201), read (200, or 207 with a missing name), archive (204)', async () => {
    const [first, second] = [propertyName(), propertyName()];

    const created = await sdk.client.crm.properties.batchApi.createWithHttpInfo('companies', {
      inputs: [
        { name: first, label: `Label ${first}`, ...text },
        { name: second, label: `Label ${second}`, ...text },
      ],
    });
    const read = await sdk.client.crm.properties.batchApi.readWithHttpInfo('companies', {
      archived: false,
      inputs: [{ name: first }, { name: 'name' }],
    });
    const partial = await sdk.client.crm.properties.batchApi.readWithHttpInfo('companies', {
      archived: false,
      inputs: [{ name: second }, { name: 'no_such_property_sdk' }],
    });
    const archived = await sdk.client.crm.properties.batchApi.archiveWithHttpInfo('companies', {
      inputs: [{ name: first }, { name: second }],
    });
    const live = await sdk.client.crm.properties.coreApi.getAll('companies');

    expect(created.httpStatusCode).toBe(201);
    expect(created.data.results.map((property) => property.name).sort()).toEqual([first, second].sort());
    expect(created.data.startedAt).toBeInstanceOf(Date);
    expect(read.httpStatusCode).toBe(200);
    expect(read.data.results.map((property) => property.name).sort()).toEqual([first, 'name'].sort());
    expect(partial.httpStatusCode).toBe(207);
    expect('numErrors' in partial.data && partial.data.numErrors).toBe(1);
    expect(archived.httpStatusCode).toBe(204);
    expect(live.results.map((property) => property.name)).not.toContain(first);
  });
});
