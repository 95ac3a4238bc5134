/**
 * The shape of a standard (HubSpot-defined) property catalog of one object type, and how its table
 * of rows becomes the definitions the properties API returns. Each type's rows live in its own
 * module (company-property-catalog.ts, contact-property-catalog.ts, deal-property-catalog.ts,
 * ticket-property-catalog.ts).
 */
import type { FieldType, PropertyDefinition, PropertyGroup, PropertyOption, PropertyType } from './property-definition';

/** One standard property as a catalog writes it; definitionOf fills in the fields every standard property shares. */
export interface CatalogRow {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  /** The catalog's default group when absent. */
  groupName?: string;
  description: string;
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

function definitionOf(row: CatalogRow, defaultGroup: string): PropertyDefinition {
  const readOnly = row.readOnly ?? false;
  return {
    name: row.name,
    label: row.label,
    type: row.type,
    fieldType: row.fieldType,
    description: row.description,
    groupName: row.groupName ?? defaultGroup,
    options: row.options ?? [],
    displayOrder: -1,
    calculated: row.calculated ?? false,
    externalOptions: row.externalOptions ?? row.referencedObjectType !== undefined,
    hasUniqueValue: false,
    hidden: false,
    hubspotDefined: true,
    formField: !readOnly,
    dataSensitivity: 'non_sensitive',
    modificationMetadata: { archivable: false, readOnlyDefinition: true, readOnlyValue: readOnly },
    ...(row.referencedObjectType ? { referencedObjectType: row.referencedObjectType } : {}),
    archived: false,
    createdAt: catalogDate,
    updatedAt: catalogDate,
  };
}

export function standardCatalog(
  rows: readonly CatalogRow[],
  defaultGroup: string,
  groups: readonly PropertyGroup[],
): StandardCatalog {
  const properties: readonly PropertyDefinition[] = rows.map((row) => definitionOf(row, defaultGroup));
  const byName = new Map(properties.map((definition) => [definition.name, definition]));
  const groupNames = new Set(groups.map((group) => group.name));
  return {
    properties,
    groups,
    defaultGroup,
    find: (name) => byName.get(name),
    isStandardGroup: (name) => groupNames.has(name),
  };
}
