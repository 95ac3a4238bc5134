import { ObjectTypePropertyCreateTypeEnum } from '@hubspot/api-client/lib/codegen/crm/schemas/models/ObjectTypePropertyCreate';
import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/models/Filter';
import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/models/AssociationSpec';
import { Client } from '@hubspot/api-client';
import { findCustomAssociationType } from '../../../shared/db/association-labels';
import { crmClient, createRecord } from '../../support/crm-client';
import { install, signTestAccessToken, unique } from '../../support/harness';
import { sdkError, useSdkClient } from '../../support/sdk-client';

/** Custom objects: the schemas API and the object engine on an account's own types, through the official SDK. */
const sdk = useSdkClient();

const stringProperty = (name: string, label: string) => ({
  name,
  label,
  type: ObjectTypePropertyCreateTypeEnum.String,
  fieldType: 'text',
});

/** A fresh schema name (schema names are unique per account). */
const freshName = (prefix: string) =>
  unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_');

async function createCars(name = freshName('cars')) {
  return sdk.client.crm.schemas.coreApi.createWithHttpInfo({
    name,
    labels: { singular: 'Car', plural: 'Cars' },
    properties: [
      stringProperty('vin', 'VIN'),
      stringProperty('model', 'Model'),
      {
        name: 'condition',
        label: 'Condition',
        type: ObjectTypePropertyCreateTypeEnum.Enumeration,
        fieldType: 'select',
        options: [
          { label: 'New', value: 'new', displayOrder: 0, hidden: false },
          { label: 'Used', value: 'used', displayOrder: 1, hidden: false },
        ],
      },
    ],
    requiredProperties: ['vin'],
    searchableProperties: ['vin', 'model'],
    primaryDisplayProperty: 'model',
    associatedObjects: ['CONTACT', '0-3'],
  });
}

describe('crm.schemas.coreApi', () => {
  it('creates a schema (201) with its type id, fully qualified name, properties and association definitions', async () => {
    const name = freshName('cars');
    const created = await createCars(name);
    expect(created.httpStatusCode).toBe(201);
    const schema = created.data;
    expect(schema.objectTypeId).toBe(`2-${schema.id}`);
    expect(schema.fullyQualifiedName).toMatch(new RegExp(`^p\\d+_${name}$`));
    expect(schema).toMatchObject({
      name,
      labels: { singular: 'Car', plural: 'Cars' },
      requiredProperties: ['vin'],
      searchableProperties: ['vin', 'model'],
      primaryDisplayProperty: 'model',
      archived: false,
    });
    expect(schema.createdAt).toBeInstanceOf(Date);
    const vin = schema.properties.find((property) => property.name === 'vin');
    expect(vin).toMatchObject({ groupName: `${name}_information`, description: '', options: [], type: 'string' });
    expect(schema.properties.find((property) => property.name === 'condition')?.options.map((o) => o.value)).toEqual([
      'new',
      'used',
    ]);
    expect(
      schema.associations.map(({ fromObjectTypeId, toObjectTypeId, name: n }) => [fromObjectTypeId, toObjectTypeId, n]),
    ).toEqual([
      [schema.objectTypeId, '0-1', `${name}_to_contact`],
      [schema.objectTypeId, '0-3', `${name}_to_deal`],
    ]);

    // Read back by type id and by fully qualified name, and listed.
    const byId = await sdk.client.crm.schemas.coreApi.getById(String(schema.objectTypeId));
    const byName = await sdk.client.crm.schemas.coreApi.getById(String(schema.fullyQualifiedName));
    expect([byId.id, byName.id]).toEqual([schema.id, schema.id]);
    const all = await sdk.client.crm.schemas.coreApi.getAll();
    expect(all.results.map((entry) => entry.id)).toContain(schema.id);

    // The same name again: 409; the alias path serves the same schemas.
    expect((await sdkError(createCars(name))).code).toBe(409);
    const alias = await sdk.api.get<{ results: { id: string }[] }>('/crm/v3/schemas');
    expect(alias.body.results.map((entry) => entry.id)).toContain(schema.id);
  });

  it('refuses a schema whose requiredProperties names no property it defines (400 naming the field)', async () => {
    const refused = await sdkError(
      sdk.client.crm.schemas.coreApi.create({
        name: freshName('bad'),
        labels: { singular: 'Bad', plural: 'Bads' },
        properties: [stringProperty('title', 'Title')],
        requiredProperties: ['missing_one'],
        associatedObjects: [],
      }),
    );
    expect(refused.code).toBe(400);
    expect(refused.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { requiredProperties: ['missing_one'] },
    });
  });

  it('updates labels and required properties (200 ObjectTypeDefinition)', async () => {
    const schema = (await createCars()).data;
    const updated = await sdk.client.crm.schemas.coreApi.updateWithHttpInfo(String(schema.objectTypeId), {
      labels: { singular: 'Vehicle', plural: 'Vehicles' },
      requiredProperties: ['vin', 'model'],
    });
    expect(updated.httpStatusCode).toBe(200);
    expect(updated.data).toMatchObject({
      id: schema.id,
      objectTypeId: schema.objectTypeId,
      labels: { singular: 'Vehicle', plural: 'Vehicles' },
      requiredProperties: ['vin', 'model'],
    });
    // The new required property holds for records.
    const refused = await sdkError(
      sdk.client.crm.objects.basicApi.create(String(schema.objectTypeId), {
        properties: { vin: 'V1' },
        associations: [],
      }),
    );
    expect(refused.code).toBe(400);
    expect(refused.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { properties: ['model'] } });
  });

  it('archives only a schema without active records (400, then 204), lists it archived, and deletes it for good', async () => {
    const schema = (await createCars()).data;
    const typeId = String(schema.objectTypeId);
    const record = await sdk.client.crm.objects.basicApi.create(typeId, {
      properties: { vin: 'V-1' },
      associations: [],
    });
    const blocked = await sdkError(sdk.client.crm.schemas.coreApi.archive(typeId));
    expect(blocked.code).toBe(400);
    expect(blocked.body.category).toBe('VALIDATION_ERROR');
    // Not deleted for good while live.
    expect((await sdkError(sdk.client.crm.schemas.coreApi.archive(typeId, true))).code).toBe(400);

    await sdk.client.crm.objects.basicApi.archive(typeId, record.id);
    const archived = await sdk.client.crm.schemas.coreApi.archiveWithHttpInfo(typeId);
    expect(archived.httpStatusCode).toBe(204);
    expect((await sdkError(sdk.client.crm.schemas.coreApi.getById(typeId))).code).toBe(404);
    expect((await sdk.client.crm.schemas.coreApi.getAll()).results.map((entry) => entry.id)).not.toContain(schema.id);
    const listedArchived = await sdk.client.crm.schemas.coreApi.getAll(true);
    expect(listedArchived.results.find((entry) => entry.id === schema.id)?.archived).toBe(true);
    // Its records are no longer addressable.
    expect((await sdkError(sdk.client.crm.objects.basicApi.getPage(typeId))).code).toBe(400);

    const purged = await sdk.client.crm.schemas.coreApi.archiveWithHttpInfo(typeId, true);
    expect(purged.httpStatusCode).toBe(204);
    expect((await sdk.client.crm.schemas.coreApi.getAll(true)).results.map((entry) => entry.id)).not.toContain(
      schema.id,
    );
    // The name can be taken again, by a new type.
    const again = await createCars(schema.name);
    expect(again.data.objectTypeId).not.toBe(typeId);
    expect(again.data.properties.map((property) => property.name).sort()).toEqual(['condition', 'model', 'vin']);
  });

  it('creates and archives association definitions (201, 204)', async () => {
    const schema = (await createCars()).data;
    const typeId = String(schema.objectTypeId);
    const created = await sdk.client.crm.schemas.coreApi.createAssociationWithHttpInfo(typeId, {
      fromObjectTypeId: typeId,
      toObjectTypeId: '0-2',
      name: 'car_maker',
    });
    expect(created.httpStatusCode).toBe(201);
    expect(created.data).toMatchObject({ fromObjectTypeId: typeId, toObjectTypeId: '0-2', name: 'car_maker' });
    const labels = await sdk.api.get<{ results: { typeId: number; category: string; label: string | null }[] }>(
      `/crm/v4/associations/${typeId}/companies/labels`,
    );
    expect(labels.body.results).toEqual([{ typeId: Number(created.data.id), category: 'USER_DEFINED', label: null }]);

    const gone = await sdk.client.crm.schemas.coreApi.archiveAssociationWithHttpInfo(typeId, created.data.id);
    expect(gone.httpStatusCode).toBe(204);
    expect(
      (await sdk.api.get<{ results: unknown[] }>(`/crm/v4/associations/${typeId}/companies/labels`)).body.results,
    ).toEqual([]);
    expect(
      (await sdk.client.crm.schemas.coreApi.getById(typeId)).associations.map((entry) => entry.toObjectTypeId),
    ).toEqual(['0-1', '0-3']);
    // Deleted for good, the schema takes every association type it defined with it, the archived definition's too.
    const hubId = Number(/^p(\d+)_/.exec(String(schema.fullyQualifiedName))?.[1]);
    const definitionIds = [created.data.id, ...schema.associations.map((entry) => entry.id)].map(Number);
    expect(await Promise.all(definitionIds.map((id) => findCustomAssociationType(hubId, id)))).not.toContain(undefined);
    await sdk.client.crm.schemas.coreApi.archive(typeId);
    await sdk.client.crm.schemas.coreApi.archive(typeId, true);
    expect(
      await Promise.all(definitionIds.flatMap((id) => [id, id + 1]).map((id) => findCustomAssociationType(hubId, id))),
    ).toEqual(definitionIds.flatMap(() => [undefined, undefined]));
  });

  it("refuses an association definition from another type than the schema's (400 naming the field)", async () => {
    const schema = (await createCars()).data;
    const typeId = String(schema.objectTypeId);
    // From another type than the schema's: 400 naming the field.
    const refused = await sdkError(
      sdk.client.crm.schemas.coreApi.createAssociation(typeId, { fromObjectTypeId: '0-1', toObjectTypeId: '0-2' }),
    );
    expect(refused.code).toBe(400);
    expect(Object.keys(refused.body.context ?? {})).toEqual(['fromObjectTypeId']);
  });

  it('holds at most 10 custom object types per account (400 on the 11th)', async () => {
    const other = await install(sdk.gateway);
    const client = new Client({
      accessToken: other.accessToken,
      basePath: sdk.gateway.baseUrl,
      numberOfApiCallRetries: 0,
    });
    const egg = (name: string) => ({
      name,
      labels: { singular: name, plural: `${name}s` },
      properties: [stringProperty('title', 'Title')],
      requiredProperties: [],
      associatedObjects: [],
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => client.crm.schemas.coreApi.create(egg(`kind${index}`))));
    const refused = await sdkError(client.crm.schemas.coreApi.create(egg('kind10')));
    expect(refused.code).toBe(400);
    expect(refused.body.category).toBe('VALIDATION_ERROR');
    expect((await client.crm.schemas.coreApi.getAll()).results).toHaveLength(10);
  });
});

describe('crm.objects on a custom type', () => {
  it('serves records by type id, fully qualified name and p_<name>, with required properties enforced', async () => {
    const schema = (await createCars()).data;
    const tokens = [String(schema.objectTypeId), String(schema.fullyQualifiedName), `p_${schema.name}`];
    const objects = sdk.client.crm.objects;

    const created = await objects.basicApi.createWithHttpInfo(tokens[0] as string, {
      properties: { vin: 'VIN-1', model: 'Roadster', condition: 'new' },
      associations: [],
    });
    expect(created.httpStatusCode).toBe(201);
    const id = created.data.id;
    expect(created.data.properties).toMatchObject({ vin: 'VIN-1', model: 'Roadster', hs_object_id: id });

    for (const token of tokens) {
      const read = await objects.basicApi.getById(token, id);
      // Default properties: the generic keys and the primary display property.
      expect(Object.keys(read.properties).sort()).toEqual([
        'hs_createdate',
        'hs_lastmodifieddate',
        'hs_object_id',
        'model',
      ]);
    }

    const missingRequired = await sdkError(
      objects.basicApi.create(tokens[1] as string, { properties: { model: 'X' }, associations: [] }),
    );
    expect(missingRequired.code).toBe(400);
    expect(missingRequired.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { properties: ['vin'] } });
    const badOption = await sdkError(
      objects.basicApi.create(tokens[2] as string, {
        properties: { vin: 'V', condition: 'wrecked' },
        associations: [],
      }),
    );
    expect(badOption.code).toBe(400);

    const updated = await objects.basicApi.update(tokens[2] as string, id, { properties: { model: 'Coupe' } });
    expect(updated.properties.model).toBe('Coupe');

    const found = await objects.searchApi.doSearch(tokens[0] as string, {
      filterGroups: [{ filters: [{ propertyName: 'vin', operator: FilterOperatorEnum.Eq, value: 'VIN-1' }] }],
      properties: ['model'],
    });
    expect([found.total, found.results[0]?.properties.model]).toEqual([1, 'Coupe']);
    // `query` looks in the schema's searchable properties.
    const queried = await objects.searchApi.doSearch(tokens[0] as string, { query: 'coupe', properties: ['vin'] });
    expect(queried.results.map((record) => record.id)).toEqual([id]);

    const batch = await objects.batchApi.create(tokens[0] as string, {
      inputs: [
        { properties: { vin: 'VIN-2' }, associations: [] },
        { properties: { vin: 'VIN-3' }, associations: [] },
      ],
    });
    expect(batch.results).toHaveLength(2);
    const page = await objects.basicApi.getPage(tokens[1] as string, 100, undefined, ['vin']);
    expect(page.results.map((record) => record.properties.vin).sort()).toEqual(['VIN-1', 'VIN-2', 'VIN-3']);

    // Merge through the generic path.
    const [keep, drop] = batch.results.map((record) => record.id);
    const merged = await sdk.api.post(`/crm/v3/objects/${tokens[0]}/merge`, {
      primaryObjectId: keep,
      objectIdToMerge: drop,
    });
    expect(merged.status).toBe(200);
  });

  it('has a properties API of its own (crm.properties on the type)', async () => {
    const schema = (await createCars()).data;
    const typeId = String(schema.objectTypeId);
    const property = await sdk.client.crm.properties.coreApi.createWithHttpInfo(typeId, {
      name: 'mileage',
      label: 'Mileage',
      type: 'number' as never,
      fieldType: 'number' as never,
      groupName: `${schema.name}_information`,
    });
    expect(property.httpStatusCode).toBe(201);
    const all = await sdk.client.crm.properties.coreApi.getAll(typeId);
    expect(all.results.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['vin', 'model', 'condition', 'mileage', 'hs_object_id', 'hs_createdate']),
    );
    const record = await sdk.client.crm.objects.basicApi.create(typeId, {
      properties: { vin: 'V', mileage: '1200' },
      associations: [],
    });
    expect(record.properties.mileage).toBe('1200');
    // The schema lists the new property too.
    expect((await sdk.client.crm.schemas.coreApi.getById(typeId)).properties.map((entry) => entry.name)).toContain(
      'mileage',
    );
  });

  it('associates records with contacts through the schema definition, on both ends', async () => {
    const schema = (await createCars()).data;
    const typeId = String(schema.objectTypeId);
    const toContact = schema.associations.find((entry) => entry.toObjectTypeId === '0-1');
    const contactId = await createRecord(sdk.api, 'contacts');
    const car = await sdk.client.crm.objects.basicApi.create(typeId, {
      properties: { vin: 'ASSOC-1' },
      associations: [
        {
          to: { id: contactId },
          types: [
            {
              associationCategory: AssociationSpecAssociationCategoryEnum.UserDefined,
              associationTypeId: Number(toContact?.id),
            },
          ],
        },
      ],
    });
    const fromCar = await sdk.api.get<{
      results: { toObjectId: number; associationTypes: { typeId: number; category: string }[] }[];
    }>(`/crm/v4/objects/${typeId}/${car.id}/associations/contacts`);
    expect(fromCar.body.results).toEqual([
      {
        toObjectId: Number(contactId),
        associationTypes: [{ category: 'USER_DEFINED', typeId: Number(toContact?.id), label: null }],
      },
    ]);
    const fromContact = await sdk.api.get<{
      results: { toObjectId: string; associationTypes: { typeId: number }[] }[];
    }>(`/crm/v4/objects/contacts/${contactId}/associations/${schema.fullyQualifiedName}`);
    expect(fromContact.body.results.map((entry) => String(entry.toObjectId))).toEqual([car.id]);

    // The default association (v4) takes the schema's definition for the pair; a missing contact is refused.
    const other = await sdk.client.crm.objects.basicApi.create(typeId, {
      properties: { vin: 'ASSOC-2' },
      associations: [],
    });
    const defaulted = await sdk.api.put(
      `/crm/v4/objects/${typeId}/${other.id}/associations/default/contacts/${contactId}`,
    );
    expect(defaulted.status).toBe(200);
    const missingContact = await sdk.api.put(
      `/crm/v4/objects/${typeId}/${other.id}/associations/default/contacts/999999999`,
    );
    expect(missingContact.status).toBe(400);
  });

  it('answers 403 to a token without the custom object scopes, before any read, and 400 to an unknown custom type', async () => {
    const schema = (await createCars()).data;
    const scopeless = signTestAccessToken({
      appId: 1,
      hubId: Number(String(schema.fullyQualifiedName).slice(1).split('_')[0]),
      scopes: ['crm.objects.contacts.read'],
    });
    const refused = await crmClient(sdk.gateway, scopeless).get(`/crm/v3/objects/${schema.objectTypeId}`);
    expect(refused.status).toBe(403);
    const unknown = await sdk.api.get('/crm/v3/objects/2-999999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body.context).toEqual({ objectType: ['2-999999999'] });
  });
});
