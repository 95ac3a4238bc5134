import { advanceClock, nowMs } from '../../../shared/base/clock';
import { getItem, queryAll } from '../../../shared/db/core';
import { hubPartition, propertyLabelPrefix, recordCountKey } from '../../../shared/db/keys';
import { insertPropertyDefinition } from '../../../shared/db/property-definitions';
import { closeSchemaRecords, findObjectSchema, reopenSchemaRecords } from '../../../shared/db/object-schemas';
import {
  backfillOrderIndex,
  closedUntilAttribute,
  closingMs,
  orderIndexShards,
  readOrderState,
} from '../../../shared/db/order-index';
import { typeOfSchema } from '../../../shared/objects/account-object-types';
import { prepareNewProperty } from '../../../shared/properties/type-properties';
import { searchFormsOf } from '../../../shared/records/search-forms';
import { maxSchemaProperties } from '../../../shared/schemas/object-schemas';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';

/** The archive of a custom object schema against creates of its records (shared/schemas/object-schemas.ts archiveObjectSchema). */
const gateway = useTestGateway();
let api: CrmClient;
let hubId: number;
beforeAll(async () => {
  const installed = await install(gateway);
  hubId = installed.hubId;
  api = crmClient(gateway, installed.accessToken);
});

const freshName = (prefix: string) =>
  unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_');

async function createSchema(): Promise<string> {
  const created = await api.post<{ objectTypeId: string }>('/crm/v3/schemas', {
    name: freshName('racers'),
    labels: { singular: 'Racer', plural: 'Racers' },
    properties: [{ name: 'model', label: 'Model', type: 'string', fieldType: 'text' }],
    requiredProperties: [],
    primaryDisplayProperty: 'model',
  });
  expect(created.status).toBe(201);
  return created.body.objectTypeId;
}

/** Removes a round's schema so the next round has room under the account's cap: its records, then the schema for good. */
async function removeSchema(typeId: string, recordIds: readonly string[], isArchived: boolean): Promise<void> {
  if (!isArchived) {
    for (const id of recordIds) expect((await api.delete(`/crm/v3/objects/${typeId}/${id}`)).status).toBe(204);
    expect((await api.delete(`/crm/v3/schemas/${typeId}`)).status).toBe(204);
  }
  expect((await api.delete(`/crm/v3/schemas/${typeId}?archived=true`)).status).toBe(204);
}

describe('archiving a schema while records of its type are created', () => {
  const rounds = 8;
  const creates = 8;

  it('either refuses the archive, or no create of the type was confirmed (every confirmed record stays readable)', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const typeId = await createSchema();
      // Single creates and batch creates (the path the test-account fixtures load through) side by side.
      const [archive, ...created] = await Promise.all([
        api.delete(`/crm/v3/schemas/${typeId}`),
        ...Array.from({ length: creates }, (_, index) =>
          index % 2 === 0
            ? api.post<{ id: string }>(`/crm/v3/objects/${typeId}`, { properties: { model: `m${round}-${index}` } })
            : api.post<{ results?: { id: string }[] }>(`/crm/v3/objects/${typeId}/batch/create`, {
                inputs: [
                  { properties: { model: `b${round}-${index}` } },
                  { properties: { model: `c${round}-${index}` } },
                ],
              }),
        ),
      ]);
      const confirmed = created.flatMap((response) => {
        if (response.status !== 201 && response.status !== 207) return [];
        const body = response.body as { id?: string; results?: { id: string }[] };
        return body.results ? body.results.map((result) => result.id) : body.id ? [body.id] : [];
      });
      // Every create either committed or was refused as a client error (the type gone); never a 5xx.
      for (const response of created) expect([201, 207, 400]).toContain(response.status);
      expect([204, 400]).toContain(archive.status);
      outcomes.push(`${archive.status}:${confirmed.length}`);
      if (archive.status === 204) {
        expect({ round, confirmedAfterArchive: confirmed }).toEqual({ round, confirmedAfterArchive: [] });
      } else {
        expect(archive.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { objectType: [typeId] } });
        for (const id of confirmed) expect((await api.get(`/crm/v3/objects/${typeId}/${id}`)).status).toBe(200);
      }
      await removeSchema(typeId, confirmed, archive.status === 204);
    }
    // Both outcomes are legal; the rounds only show which ones this run met.
    expect(outcomes).toHaveLength(rounds);
  }, 120_000);
});

describe('a closing whose archive never finished', () => {
  it('lapses after closingMs: creates commit again, and a later archive closes over it', async () => {
    const typeId = await createSchema();
    const schema = await findObjectSchema(hubId, typeId.slice(2));
    if (!schema) throw new Error('the schema was not stored');
    const now = nowMs();
    expect(await closeSchemaRecords(hubId, schema, typeOfSchema(hubId, schema), now + closingMs, now)).toBe('done');
    advanceClock(closingMs + 1);
    const created = await api.post<{ id: string }>(`/crm/v3/objects/${typeId}`, { properties: { model: 'late' } });
    expect(created.status).toBe(201);
    expect((await api.get(`/crm/v3/objects/${typeId}/${created.body.id}`)).status).toBe(200);
    // The record archived, the schema's archive closes the counters over the lapsed closing.
    await removeSchema(typeId, [created.body.id], false);
  });
});

describe('a search backfill while a schema archive has closed the type', () => {
  it('sets the counts and keeps every counter closed', async () => {
    const typeId = await createSchema();
    const schema = await findObjectSchema(hubId, typeId.slice(2));
    if (!schema) throw new Error('the schema was not stored');
    const type = typeOfSchema(hubId, schema);
    const created = await api.post<{ id: string }>(`/crm/v3/objects/${typeId}`, { properties: { model: 'before' } });
    expect(created.status).toBe(201);
    const now = nowMs();
    const held = now + closingMs;
    expect(await closeSchemaRecords(hubId, schema, type, held, now)).toBe('done');

    const outcome = await backfillOrderIndex(type, hubId, (record) => searchFormsOf(type, record));
    const counters = await Promise.all(
      Array.from({ length: orderIndexShards }, (_, shard) => getItem(recordCountKey(type, hubId, shard))),
    );

    expect(outcome.records).toBe(1);
    expect((await readOrderState(type, hubId)).count).toBe(1);
    expect(counters.map((counter) => counter?.[closedUntilAttribute])).toEqual(
      Array.from({ length: orderIndexShards }, () => held),
    );
    expect(await reopenSchemaRecords(hubId, type, held)).toBe('done');
    await removeSchema(typeId, [created.body.id], false);
  });
});

describe("a schema's properties' labels", () => {
  const text = (name: string, label: string) => ({ name, label, type: 'string' as const, fieldType: 'text' as const });

  it('are claimed in its create: a definition of one written without reading the catalog is refused by the claim', async () => {
    const typeId = await createSchema();
    const schema = await findObjectSchema(hubId, typeId.slice(2));
    if (!schema) throw new Error('the schema was not stored');
    const type = typeOfSchema(hubId, schema);
    const definition = prepareNewProperty(type, hubId, 0, {
      ...text('second_model', ' MODEL'),
      groupName: 'object_information',
    });

    const outcome = await insertPropertyDefinition(
      type,
      hubId,
      definition,
      { definitions: 1000, uniqueDefinitions: 10 },
      { catalog: [] },
    );

    expect(outcome).toBe('label-taken');
    await removeSchema(typeId, [], false);
  });

  it('are taken: a property created later with one of them is 400 NON_UNIQUE_PROPERTY_LABEL', async () => {
    const typeId = await createSchema();

    const response = await api.post(`/crm/v3/properties/${typeId}`, {
      ...text('second_model', ' MODEL'),
      groupName: 'object_information',
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { label: [' MODEL'] } });
    await removeSchema(typeId, [], false);
  });

  it('may not repeat one another: 400 naming the label, and no schema is written', async () => {
    const name = freshName('twins');

    const response = await api.post('/crm/v3/schemas', {
      name,
      labels: { singular: 'Twin', plural: 'Twins' },
      properties: [text('first', 'Same'), text('second', ' same')],
      requiredProperties: [],
    });
    const listed = await api.get<{ results: { name: string }[] }>('/crm/v3/schemas');

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { label: [' same'] } });
    expect(listed.body.results.map((schema) => schema.name)).not.toContain(name);
  });

  it('are freed when the schema is deleted for good: no claim of its type is left', async () => {
    const typeId = await createSchema();
    const schema = await findObjectSchema(hubId, typeId.slice(2));
    if (!schema) throw new Error('the schema was not stored');
    const claimsBefore = await queryAll(hubPartition(hubId), propertyLabelPrefix(typeOfSchema(hubId, schema)));

    await removeSchema(typeId, [], false);
    const claimsAfter = await queryAll(hubPartition(hubId), propertyLabelPrefix(typeOfSchema(hubId, schema)));

    expect(claimsBefore).toHaveLength(1);
    expect(claimsAfter).toEqual([]);
  });
});

describe('a schema create that one transaction cannot hold', () => {
  const properties = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      name: `p${index}`,
      label: `Property ${index}`,
      type: 'string',
      fieldType: 'text',
    }));

  it('is 400 naming properties before anything is written', async () => {
    const name = freshName('wide');

    const response = await api.post('/crm/v3/schemas', {
      name,
      labels: { singular: 'Wide', plural: 'Wides' },
      properties: properties(maxSchemaProperties),
      requiredProperties: [],
      associatedObjects: ['CONTACT', 'COMPANY'],
    });
    const listed = await api.get<{ results: { name: string }[] }>('/crm/v3/schemas');

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { properties: [String(maxSchemaProperties)] },
    });
    expect(listed.body.results.map((schema) => schema.name)).not.toContain(name);
  });

  it('holds maxSchemaProperties properties without associations, each label claimed', async () => {
    const response = await api.post<{ objectTypeId: string; properties: unknown[] }>('/crm/v3/schemas', {
      name: freshName('full'),
      labels: { singular: 'Full', plural: 'Fulls' },
      properties: properties(maxSchemaProperties),
      requiredProperties: [],
    });
    const schema = await findObjectSchema(hubId, response.body.objectTypeId.slice(2));
    if (!schema) throw new Error('the schema was not stored');

    const claims = await queryAll(hubPartition(hubId), propertyLabelPrefix(typeOfSchema(hubId, schema)));

    expect(response.status).toBe(201);
    expect(response.body.properties).toHaveLength(maxSchemaProperties);
    expect(claims).toHaveLength(maxSchemaProperties);
    await removeSchema(response.body.objectTypeId, [], false);
  });
});
