/**
 * The shape of a standard (HubSpot-defined) property catalog of one object type, and how its tables
 * become what each kind of function reads. Each type's tables live in its own module of catalogs/
 * (the five activities build theirs with activity-catalog.ts): the rows
 * (name, type, field type, options, flags), the labels and the descriptions, by name. A function's
 * bundle carries only the tables it reads: the record functions the rows (standardRules), the
 * properties API's writes the labels and groups (standardOutline), its reads everything
 * (standardCatalog). The labels and descriptions are most of a catalog's bytes,
 * and no record function's bundle carries them.
 */
import type {
  FieldType,
  PropertyDefinition,
  PropertyGroup,
  PropertyOption,
  PropertyRules,
  PropertyType,
} from './property-definition';

/** One standard property as a catalog writes it; its label and description are in the catalog's other tables. */
export interface CatalogRow {
  name: string;
  type: PropertyType;
  fieldType: FieldType;
  /** The catalog's default group when absent. */
  groupName?: string;
  options?: PropertyOption[];
  /** Maintained by the platform: never accepted as input. */
  readOnly?: boolean;
  calculated?: boolean;
  /** The kind of record the value names (`OWNER`): its ids are checked as ids, and its options are external. */
  referencedObjectType?: string;
  /**
   * The options are kept elsewhere (a pipeline's stages, a contact's further emails), so the
   * definition lists none; implied by referencedObjectType.
   */
  externalOptions?: boolean;
}

/** The type and field type pairs most rows have, spread into a row (`{ name: 'city', ...text }`). */
export const text = { type: 'string', fieldType: 'text' } as const;
export const textarea = { type: 'string', fieldType: 'textarea' } as const;
/** Rich text (an activity's body): a string HubSpot keeps as HTML. */
export const html = { type: 'string', fieldType: 'html' } as const;
export const phoneNumber = { type: 'string', fieldType: 'phonenumber' } as const;
export const number = { type: 'number', fieldType: 'number' } as const;
export const numberEquation = { type: 'number', fieldType: 'calculation_equation' } as const;
export const datetime = { type: 'datetime', fieldType: 'date' } as const;
/** A value HubSpot computes: read-only and calculated (spread into a row; each spelled-out pair would be about 25 bytes of every bundle with the catalogs). */
export const calculated = { readOnly: true, calculated: true } as const;
/** A value clients cannot set (spread into a row, like `calculated`). */
export const readOnly = { readOnly: true } as const;
export const select = { type: 'enumeration', fieldType: 'select' } as const;
export const radio = { type: 'enumeration', fieldType: 'radio' } as const;
export const checkbox = { type: 'enumeration', fieldType: 'checkbox' } as const;
export const boolEquation = { type: 'bool', fieldType: 'calculation_equation' } as const;

/** One text of each row (a label, a description), by the row's name. */
export type CatalogTexts = Readonly<Record<string, string>>;

/** A type's catalog: its rows, their texts, its groups. */
export interface CatalogTables {
  rows: readonly CatalogRow[];
  labels: CatalogTexts;
  descriptions: CatalogTexts;
  /** The group of a row that names none (e.g. `companyinformation`). */
  defaultGroup: string;
  /** The type's standard groups: they have no item in the table and cannot change. */
  groups: readonly PropertyGroup[];
}

/** The standard properties as the record functions read them. */
export interface StandardRules {
  find(name: string): PropertyRules | undefined;
}

/** The names, labels and groups of the standard properties: what the properties API's writes check against. */
export interface StandardOutline {
  /** Label by name, in the catalog's order. */
  labels: ReadonlyMap<string, string>;
  groups: readonly PropertyGroup[];
  isStandardGroup(name: string): boolean;
}

/** The standard properties as the properties API returns them. */
export interface StandardCatalog {
  properties: readonly PropertyDefinition[];
  /** The type's standard groups: they have no item in the table and cannot change. */
  groups: readonly PropertyGroup[];
  /** The group of a row that names none (e.g. `companyinformation`). */
  defaultGroup: string;
  find(name: string): PropertyDefinition | undefined;
  isStandardGroup(name: string): boolean;
}

function labelOf(value: string): string {
  return value
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** Options in the order given; a bare value gets a label made of its words (`OPEN_DEAL` → `Open Deal`). */
export function optionsOf(values: readonly (string | { value: string; label: string })[]): PropertyOption[] {
  return values.map((entry, index) => {
    const { value, label } = typeof entry === 'string' ? { value: entry, label: labelOf(entry) } : entry;
    return { label, value, displayOrder: index, hidden: false };
  });
}

/** The options of a bool property (HubSpot lists `true` and `false` as Yes and No). */
export function booleanOptions(): PropertyOption[] {
  return optionsOf([
    { value: 'true', label: 'Yes' },
    { value: 'false', label: 'No' },
  ]);
}

/** A stable date for the standard definitions, so a catalog reads the same on every call. */
const catalogDate = '2019-08-06T02:41:08.029Z';

const modificationMetadataOf = (row: CatalogRow): PropertyDefinition['modificationMetadata'] => ({
  archivable: false,
  readOnlyDefinition: true,
  readOnlyValue: row.readOnly ?? false,
});

const externalOptionsOf = (row: CatalogRow): boolean => row.externalOptions ?? row.referencedObjectType !== undefined;

function rulesOf(row: CatalogRow): PropertyRules {
  return {
    name: row.name,
    type: row.type,
    fieldType: row.fieldType,
    options: row.options ?? [],
    externalOptions: externalOptionsOf(row),
    hasUniqueValue: false,
    modificationMetadata: modificationMetadataOf(row),
    ...(row.referencedObjectType ? { referencedObjectType: row.referencedObjectType } : {}),
  };
}

function textOf(texts: CatalogTexts, name: string, kind: string): string {
  const text = Object.hasOwn(texts, name) ? texts[name] : undefined;
  if (text === undefined) throw new Error(`the standard property ${name} has no ${kind}`);
  return text;
}

function definitionOf(row: CatalogRow, tables: CatalogTables): PropertyDefinition {
  const readOnly = row.readOnly ?? false;
  return {
    name: row.name,
    label: textOf(tables.labels, row.name, 'label'),
    type: row.type,
    fieldType: row.fieldType,
    description: textOf(tables.descriptions, row.name, 'description'),
    groupName: row.groupName ?? tables.defaultGroup,
    options: row.options ?? [],
    displayOrder: -1,
    calculated: row.calculated ?? false,
    externalOptions: externalOptionsOf(row),
    hasUniqueValue: false,
    hidden: false,
    hubspotDefined: true,
    formField: !readOnly,
    dataSensitivity: 'non_sensitive',
    modificationMetadata: modificationMetadataOf(row),
    ...(row.referencedObjectType ? { referencedObjectType: row.referencedObjectType } : {}),
    archived: false,
    createdAt: catalogDate,
    updatedAt: catalogDate,
  };
}

const groupNamesOf = (groups: readonly PropertyGroup[]): ReadonlySet<string> =>
  new Set(groups.map((group) => group.name));

export function standardRules(rows: readonly CatalogRow[]): StandardRules {
  const byName = new Map(rows.map((row) => [row.name, rulesOf(row)]));
  return { find: (name) => byName.get(name) };
}

export function standardOutline(tables: Pick<CatalogTables, 'rows' | 'labels' | 'groups'>): StandardOutline {
  const groupNames = groupNamesOf(tables.groups);
  return {
    labels: new Map(tables.rows.map((row) => [row.name, textOf(tables.labels, row.name, 'label')])),
    groups: tables.groups,
    isStandardGroup: (name) => groupNames.has(name),
  };
}

export function standardCatalog(tables: CatalogTables): StandardCatalog {
  const properties: readonly PropertyDefinition[] = tables.rows.map((row) => definitionOf(row, tables));
  const byName = new Map(properties.map((definition) => [definition.name, definition]));
  const groupNames = groupNamesOf(tables.groups);
  return {
    properties,
    groups: tables.groups,
    defaultGroup: tables.defaultGroup,
    find: (name) => byName.get(name),
    isStandardGroup: (name) => groupNames.has(name),
  };
}
