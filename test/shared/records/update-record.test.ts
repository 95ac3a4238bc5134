import { companyObjectType } from '../../../shared/objects/object-types';
import { applyValues } from '../../../shared/records/update-record';
import type { CrmRecord } from '../../../shared/db/records';
import { standardLookupOf } from '../../../shared/records/record-view';
import { loadPropertySchema } from '../../../shared/properties/type-properties';
import type { PropertyDefinition } from '../../../shared/properties/property-definition';

const actor = { hubId: 1, appId: 7, userId: 3 };

function record(properties: Record<string, string>): CrmRecord {
  return {
    id: '1000000000000001',
    properties,
    history: {},
    associations: {},
    uniqueValues: properties.domain ? [{ propertyName: 'domain', value: properties.domain }] : [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    archived: false,
    version: 3,
  };
}

describe('applyValues', () => {
  it('swaps the unique item when the domain changes', async () => {
    const schema = await loadPropertySchema(companyObjectType, 1, ['domain']);

    const change = applyValues(
      actor,
      companyObjectType,
      record({ domain: 'old.example' }),
      { domain: 'new.example' },
      schema,
    );

    expect(change?.addUnique).toEqual([{ propertyName: 'domain', value: 'new.example' }]);
    expect(change?.removeUnique).toEqual([{ propertyName: 'domain', value: 'old.example' }]);
    expect(change?.record.version).toBe(4);
  });

  it('starts the history of a property named like an Object.prototype member empty (a property stored before such names were refused)', async () => {
    const builder = {
      ...standardLookupOf(companyObjectType).find('city'),
      name: 'constructor',
      hubspotDefined: false,
    } as PropertyDefinition;
    const schema = {
      find: (name: string) => (name === 'constructor' ? builder : standardLookupOf(companyObjectType).find(name)),
      uniqueProperties: () => [],
    };

    const change = applyValues(actor, companyObjectType, record({ name: 'x' }), { constructor: 'y' }, schema);

    expect(change?.record.history.constructor).toEqual([expect.objectContaining({ value: 'y' })]);
  });

  it('changes nothing when only an earlier lifecycle stage is sent', async () => {
    const schema = await loadPropertySchema(companyObjectType, 1, ['lifecyclestage']);

    const change = applyValues(
      actor,
      companyObjectType,
      record({ name: 'x', lifecyclestage: 'customer' }),
      { lifecyclestage: 'lead' },
      schema,
    );

    expect(change).toBeUndefined();
  });

  it('records the cleared value in the history', async () => {
    const schema = await loadPropertySchema(companyObjectType, 1, ['city']);

    const change = applyValues(actor, companyObjectType, record({ name: 'x', city: 'Rome' }), { city: '' }, schema);

    expect(change?.record.properties).toEqual({ name: 'x' });
    expect(change?.record.history.city?.[0]).toMatchObject({ value: '', sourceType: 'INTEGRATION', sourceId: '7' });
  });
});
