import { associationTypesOf, standardAssociationTypes } from '../../../shared/association-types/association-types';
import { scopeDescriptions, scopeDescriptionsOf } from '../../../shared/oauth/scope-descriptions';
import {
  anyStoredLabelReadScopes,
  anyStoredLabelWriteScopes,
  anyStoredObjectReadScopes,
  anyStoredObjectWriteScopes,
  anyStoredPropertyReadScopes,
  anyStoredPropertyWriteScopes,
  scopeUnionsOf,
} from '../../../shared/objects/object-type-scopes';
import { findObjectType, objectTypes, storedObjectTypes, type ObjectType } from '../../../shared/objects/object-types';
import type { TypeRules } from '../../../shared/objects/type-rules';
import * as activities from '../../../shared/objects/types/activities';
import * as companies from '../../../shared/objects/types/companies';
import * as contacts from '../../../shared/objects/types/contacts';
import * as deals from '../../../shared/objects/types/deals';
import * as lineItems from '../../../shared/objects/types/line-items';
import * as products from '../../../shared/objects/types/products';
import type { ScopeDescriptions, TypeAssociations, TypeEvents } from '../../../shared/objects/types/standard-type';
import { standardPipelineTypes, standardScopeDescriptions } from '../../../shared/objects/types/standalone-parts';
import {
  standardTypeAssociations,
  standardTypeEvents,
  standardTypeRules,
  standardTypes,
} from '../../../shared/objects/types/standard-types';
import * as tickets from '../../../shared/objects/types/tickets';
import { pipelineObjectTypes } from '../../../shared/pipelines/pipeline-object-types';
import { anyPipelineReadScopes, anyPipelineWriteScopes } from '../../../shared/pipelines/pipeline-scopes';
import { sourceCatalogTables } from '../../../shared/properties/source-catalog-tables';
import { rulesOf, rulesTableOf } from '../../../shared/records/type-rules-lookup';
import {
  eventObjectReadScopes,
  eventObjectTypeIds,
  eventTablesOf,
  webhookEventTypes,
} from '../../../shared/webhooks/subscription-types';

/**
 * The worked example of docs/crm-objects.md "Adding a type": a standard type written the way a
 * module of shared/objects/types/ is, here beside the test. It borrows the custom-object
 * scopes; a real type appends its own to shared/oauth/scopes.ts and describes them.
 */
const widgets = {
  id: '0-990',
  name: 'widgets',
  singular: 'widget',
  keyPrefix: 'WIDGET',
  searchTag: '0-990#',
  isActivity: false,
  scopes: { read: ['crm.objects.custom.read'], write: ['crm.objects.custom.write'] },
  propertyScopes: { read: ['crm.schemas.custom.read'], write: ['crm.schemas.custom.write'] },
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id', 'widget_name'],
  queryProperties: ['widget_name'],
  uniqueProperties: [],
  requiredProperties: ['widget_name'],
  isMergeable: false,
  isStored: true,
} as const satisfies ObjectType;

const widgetRules: TypeRules = { valuesOnCreate: { widget_color: 'blue' } };

const widgetEvents = { type: widgets, kinds: ['creation', 'deletion'] } as const satisfies TypeEvents;

const widgetAssociations: TypeAssociations = { type: widgets, toSelf: 9901, pairs: [{ to: '0-1', ids: [9902, 9903] }] };

/** Its module's words for its scopes (a real type's own scopes; the example's borrowed ones get words of its own here). */
const widgetScopeDescriptions = {
  'crm.objects.custom.read': 'See your widgets.',
} as const satisfies ScopeDescriptions;

/** Each standard type's module, to check that the lists name every part a module exports. */
const modules: Record<string, Record<string, unknown>> = {
  activities,
  companies,
  contacts,
  deals,
  lineItems,
  products,
  tickets,
};

describe('the standard types: one module each, every table derived', () => {
  it('a type added as a module appears in every derived table', () => {
    const types = [...standardTypes, widgets];

    const unions = scopeUnionsOf(types);
    expect(unions.objectRead).toContain('crm.objects.custom.read');
    expect(unions.propertyWrite).toContain('crm.schemas.custom.write');
    expect(scopeUnionsOf([widgets]).objectRead).toEqual(['crm.objects.custom.read']);

    const events = eventTablesOf([...standardTypeEvents, widgetEvents]);
    expect(events.eventTypes.slice(-2)).toEqual(['widget.creation', 'widget.deletion']);
    expect(events.objectTypeIds.widget).toBe('0-990');
    expect(events.readScopes.widget).toEqual(['crm.objects.custom.read']);

    const associations = associationTypesOf(types, [...standardTypeAssociations, widgetAssociations]);
    expect(associations.filter((type) => type.fromObjectTypeId === '0-990' || type.toObjectTypeId === '0-990')).toEqual(
      [
        expect.objectContaining({
          typeId: 9901,
          name: 'widget_to_widget',
          fromObjectTypeId: '0-990',
          toObjectTypeId: '0-990',
        }),
        expect.objectContaining({
          typeId: 9902,
          name: 'widget_to_contact',
          inverseTypeId: 9903,
          toObjectTypeId: '0-1',
        }),
        expect.objectContaining({
          typeId: 9903,
          name: 'contact_to_widget',
          inverseTypeId: 9902,
          fromObjectTypeId: '0-1',
        }),
      ],
    );

    expect(rulesTableOf([...standardTypeRules, [widgets, widgetRules]]).get('widgets')).toBe(widgetRules);

    expect(
      scopeDescriptionsOf([...standardScopeDescriptions, widgetScopeDescriptions])['crm.objects.custom.read'],
    ).toBe('See your widgets.');
  });

  it("the service's tables are those derivations of the modules' lists, not tables of their own", () => {
    expect(objectTypes).toBe(standardTypes);
    expect(storedObjectTypes).toEqual(standardTypes.filter((type) => type.isStored));
    for (const type of standardTypes) {
      expect(findObjectType(type.id)).toBe(type);
      expect(findObjectType(type.name)).toBe(type);
    }

    // The activities have no scopes of their own: HubSpot guards them with the contacts'.
    for (const activity of standardTypes.filter((type) => type.isActivity)) {
      expect(activity.scopes).toBe(findObjectType('contacts')?.scopes);
      expect(activity.propertyScopes).toBe(findObjectType('contacts')?.propertyScopes);
    }
    const unions = scopeUnionsOf(standardTypes);
    expect([
      anyStoredObjectReadScopes,
      anyStoredObjectWriteScopes,
      anyStoredPropertyReadScopes,
      anyStoredPropertyWriteScopes,
      anyStoredLabelReadScopes,
      anyStoredLabelWriteScopes,
    ]).toEqual([
      unions.objectRead,
      unions.objectWrite,
      unions.propertyRead,
      unions.propertyWrite,
      unions.labelRead,
      unions.labelWrite,
    ]);

    const events = eventTablesOf(standardTypeEvents);
    expect(webhookEventTypes()).toEqual(events.eventTypes);
    expect(eventObjectTypeIds()).toEqual(events.objectTypeIds);
    expect(eventObjectReadScopes()).toEqual(events.readScopes);

    expect(standardAssociationTypes).toEqual(associationTypesOf(standardTypes, standardTypeAssociations));

    for (const [type, rules] of standardTypeRules) expect(rulesOf(type)).toBe(rules);
    expect(rulesOf(standardTypes.find((type) => type.name === 'deals') as ObjectType)).toEqual({});

    expect(pipelineObjectTypes).toBe(standardPipelineTypes);
    expect(anyPipelineReadScopes).toEqual([...new Set(standardPipelineTypes.flatMap((type) => type.scopes.read))]);
    expect(anyPipelineWriteScopes).toEqual([...new Set(standardPipelineTypes.flatMap((type) => type.scopes.write))]);

    expect(scopeDescriptions()).toEqual(scopeDescriptionsOf(standardScopeDescriptions));
  });

  it("the lists name every part each type's module exports, and only standard types", () => {
    const listed = new Set<unknown>([
      ...standardTypes,
      ...standardTypeRules.flatMap(([, rules]) => rules),
      ...standardPipelineTypes,
      ...standardTypeAssociations,
      ...standardTypeEvents,
      ...standardScopeDescriptions,
    ]);
    const parts = Object.entries(modules).flatMap(([module, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => typeof value === 'object' && value !== null)
        .filter(([name]) => !/^contact(Property)?Scopes$/.test(name))
        .map(([name, value]) => ({ part: `${module}.${name}`, value })),
    );
    expect(parts.filter(({ value }) => !listed.has(value)).map(({ part }) => part)).toEqual([]);
    for (const { type } of [...standardTypeAssociations, ...standardTypeEvents]) expect(standardTypes).toContain(type);
    for (const [type] of standardTypeRules) expect(standardTypes).toContain(type);
    for (const pipelines of standardPipelineTypes) expect(findObjectType(pipelines.id)?.name).toBe(pipelines.name);
  });

  it('every standard type has its catalog tables in the source', () => {
    for (const type of standardTypes) expect(sourceCatalogTables[type.name]?.rows.length).toBeGreaterThan(0);
  });
});
