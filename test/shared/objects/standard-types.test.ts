import path from 'node:path';
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
import {
  standardPipelineTypes,
  standardScopeBits,
  standardScopeDescriptions,
  standardStageMetadata,
  standardTypeAssociations,
  standardTypeEvents,
  standardTypeRules,
  standardTypes,
  standardTypesDir,
  typeModulesIn,
} from '../../../shared/objects/standard-types';
import { typeParts } from '../../../shared/objects/standard-type';
import { platformScopeBits, scopeCatalog, scopeCatalogOf } from '../../../shared/oauth/scopes';
import { standardTypeModules } from '../../../bin/build-validators';
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

/** The worked example of docs/crm-objects.md "Adding a type": a module written as those of shared/objects/types/ are. */
const widgetsDir = path.join(__dirname, 'widget-types');
const [widgetModule] = typeModulesIn(widgetsDir).map(({ module }) => module);
if (widgetModule === undefined) throw new Error('the worked example is missing');
const {
  objectType: widgets,
  rules: widgetRules,
  events: widgetEvents,
  associations: widgetAssociations,
} = widgetModule;

describe('the standard types: one module each, every table derived', () => {
  it('a type added as a module appears in every derived table', () => {
    if (!widgetRules || !widgetEvents || !widgetAssociations) throw new Error('the worked example has every part');
    const types = [...standardTypes, widgets];

    const unions = scopeUnionsOf(types);
    expect(unions.objectRead).toContain('crm.objects.widgets.read');
    expect(unions.propertyWrite).toContain('crm.objects.widgets.write');
    expect(scopeUnionsOf([widgets]).objectRead).toEqual(['crm.objects.widgets.read', 'crm.objects.custom.read']);

    const events = eventTablesOf([...standardTypeEvents, widgetEvents]);
    expect(events.eventTypes.slice(-2)).toEqual(['widget.creation', 'widget.deletion']);
    expect(events.objectTypeIds.widget).toBe('0-990');
    expect(events.readScopes.widget).toEqual(['crm.objects.widgets.read']);

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
      scopeDescriptionsOf([...standardScopeDescriptions, widgetModule.scopeDescriptions ?? {}])[
        'crm.objects.widgets.read'
      ],
    ).toBe('See your widgets.');

    const catalog = scopeCatalogOf([platformScopeBits, ...standardScopeBits, widgetModule.scopeBits ?? {}]);
    expect(catalog.slice(0, -2)).toEqual(scopeCatalog());
    expect(catalog.slice(-2)).toEqual(['crm.objects.widgets.read', 'crm.objects.widgets.write']);

    // What a function's bundle reads instead: the build's modules list the new type's parts too.
    const generated = standardTypeModules(path.join(__dirname, 'generated'), widgetsDir);
    expect(generated['standard-types.mjs']).toContain(
      "import { objectType as objectType0, rules as rules0, associations as associations0, events as events0 } from '../widget-types/widgets';",
    );
    expect(generated['standard-types.mjs']).toContain('export const standardTypeRules = [[objectType0, rules0]];');
    expect(generated['standard-scope-bits.mjs']).toContain(JSON.stringify([widgetModule.scopeBits]));
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

  it("each module exports its registry entry and parts under the names a module's parts have, and the lists hold them all", () => {
    const modules = typeModulesIn(standardTypesDir);
    expect(modules.map(({ module }) => module.objectType)).toEqual(standardTypes);
    const known = new Set<string>(['objectType', ...typeParts]);
    // Exports beside the parts are what other modules of the folder import (activities use the contacts' scopes).
    const helpers = new Set(['contactScopes', 'contactPropertyScopes', 'requireNonNegativePrice', 'lineItemAmount']);
    for (const { file, module } of modules) {
      expect([file, Object.keys(module).filter((name) => !known.has(name) && !helpers.has(name))]).toEqual([file, []]);
    }
    const listed = new Set<unknown>([
      ...standardTypes,
      ...standardTypeRules.flatMap(([, rules]) => rules),
      ...standardPipelineTypes,
      ...standardTypeAssociations,
      ...standardTypeEvents,
      ...standardScopeDescriptions,
      ...standardScopeBits,
      ...standardStageMetadata.map(([, rule]) => rule),
    ]);
    for (const { module } of modules) {
      for (const part of typeParts) if (module[part] !== undefined) expect(listed.has(module[part])).toBe(true);
    }
    for (const { type } of [...standardTypeAssociations, ...standardTypeEvents]) expect(standardTypes).toContain(type);
    for (const [type] of standardTypeRules) expect(standardTypes).toContain(type);
    for (const pipelines of standardPipelineTypes) expect(findObjectType(pipelines.id)?.name).toBe(pipelines.name);
  });

  it("a bundle's generated lists name the same parts of the same modules, in the same order", () => {
    const generated = standardTypeModules(
      path.join(standardTypesDir, '..', '..', 'http', 'generated'),
      standardTypesDir,
    );
    const files = typeModulesIn(standardTypesDir).map(({ file }) => path.basename(file, '.ts'));
    const imported = [
      ...(generated['standard-types.mjs'] ?? '').matchAll(/from '\.\.\/\.\.\/objects\/types\/([a-z-]+)'/g),
    ].map((match) => match[1]);
    expect(imported).toEqual(files);
    expect(generated['standard-types.mjs']).toContain(
      `export const standardTypes = [${files.map((_, index) => `objectType${index}`).join(', ')}];`,
    );
    expect(generated['standard-pipelines.mjs']).toContain(
      `export const standardPipelineTypes = [${standardPipelineTypes.map((type) => `pipelines${files.indexOf(type.name)}`).join(', ')}];`,
    );
    expect(generated['standard-scope-descriptions.mjs']).toContain(JSON.stringify(standardScopeDescriptions));
    expect(generated['standard-scope-bits.mjs']).toContain(JSON.stringify(standardScopeBits));
  });

  it('every standard type has its catalog tables in the source', () => {
    for (const type of standardTypes) expect(sourceCatalogTables[type.name]?.rows.length).toBeGreaterThan(0);
  });
});
