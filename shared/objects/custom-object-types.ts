import type { ObjectType } from './object-type';

/**
 * Custom object types: registry entries stored per account (the schemas API,
 * shared/schemas/object-schemas.ts). A custom type's id is `2-<n>`, `n` unique across the service
 * (HubSpot's are too), so everything a key or a stream record needs follows from the id alone,
 * without a read: the key prefix spells the digits in letters (key prefixes are letters only,
 * shared/db/keys.ts recordAddressedBy), the search tag is the id's. What a request needs of the
 * schema itself (names, required, searchable and display properties, association definitions) is
 * read once, when its path names the type (account-object-types.ts).
 */

/**
 * Custom objects' scopes: records with `crm.objects.custom.*`, property definitions read with either
 * custom scope and written with `crm.schemas.custom.write` (reference/HUBSPOT-WIRE-FACTS-3.md §9).
 */
export const customObjectScopes = {
  records: { read: ['crm.objects.custom.read'], write: ['crm.objects.custom.write'] },
  properties: { read: ['crm.schemas.custom.read', 'crm.objects.custom.read'], write: ['crm.schemas.custom.write'] },
} as const;

/** `2-<digits>`: a custom type's id. */
export const customTypeIdPattern = /^2-([0-9]{1,15})$/;
/** `p<hubId>_<name>` (the fully qualified name) and `p_<name>` (the account's own, without its id). */
export const customTypeNamePattern = /^p([0-9]{0,15})_([A-Za-z][A-Za-z0-9_]{0,99})$/;

/** The catalog (system properties) every custom type shares: shared/properties/catalogs/custom-objects.ts. */
export const customObjectCatalogName = 'custom_objects';

/** What every custom type's record key prefix starts with (its active items' sort keys too). */
export const customRecordKeyPrefixStart = 'CUSTOM';
const digitLetters = 'ABCDEFGHIJ';

/** `2-105` -> `CUSTOMBAF`: the letters of the digits after `CUSTOM`. */
export function customKeyPrefix(numericId: string): string {
  let letters = '';
  for (const digit of numericId) letters += digitLetters[Number(digit)];
  return `${customRecordKeyPrefixStart}${letters}`;
}

/** The id a custom key prefix spells, or undefined when the prefix is not one. */
export function customTypeIdOfKeyPrefix(keyPrefix: string): string | undefined {
  if (!keyPrefix.startsWith(customRecordKeyPrefixStart)) return undefined;
  const letters = keyPrefix.slice(customRecordKeyPrefixStart.length);
  if (letters.length === 0 || letters.length > 15) return undefined;
  let digits = '';
  for (const letter of letters) {
    const digit = digitLetters.indexOf(letter);
    if (digit < 0) return undefined;
    digits += String(digit);
  }
  return `2-${digits}`;
}

/** What a custom type's schema states (the stored part that the engine reads). */
export interface CustomTypeDefinition {
  /** The schema id: the digits of the type id. */
  id: string;
  hubId: number;
  /** The schema's name (`cars`): the fully qualified name is `p<hubId>_<name>`. */
  name: string;
  requiredProperties: readonly string[];
  searchableProperties: readonly string[];
  primaryDisplayProperty?: string;
}

const systemDefaults = ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'] as const;

/** The parts of a custom type that follow from its id. */
function customTypeBase(numericId: string) {
  const id = `2-${numericId}`;
  return {
    id,
    keyPrefix: customKeyPrefix(numericId),
    searchTag: `${id}#`,
    catalogName: customObjectCatalogName,
    isActivity: false,
    isCustom: true,
    scopes: customObjectScopes.records,
    propertyScopes: customObjectScopes.properties,
    modifiedProperty: 'hs_lastmodifieddate',
    uniqueProperties: [],
    isMergeable: true,
    isStored: true,
  } as const;
}

/**
 * A custom type known only by its id: the far end of an association key or a stream record. Its
 * name is the id (no schema was read); it is never the type a request's path names.
 */
export function customTypeOfId(typeId: string): ObjectType | undefined {
  const numericId = customTypeIdPattern.exec(typeId)?.[1];
  if (numericId === undefined) return undefined;
  return {
    ...customTypeBase(numericId),
    name: typeId,
    singular: typeId,
    defaultProperties: systemDefaults,
    queryProperties: [],
    requiredProperties: [],
  };
}

/** The fully qualified name of a custom type (`p<hubId>_<name>`). */
export const fullyQualifiedNameOf = (definition: Pick<CustomTypeDefinition, 'hubId' | 'name'>): string =>
  `p${definition.hubId}_${definition.name}`;

/** The registry entry of a custom type, from its schema. */
export function customObjectType(definition: CustomTypeDefinition): ObjectType {
  const primary = definition.primaryDisplayProperty;
  return {
    ...customTypeBase(definition.id),
    name: fullyQualifiedNameOf(definition),
    singular: definition.name,
    defaultProperties:
      primary && !systemDefaults.some((name) => name === primary) ? [...systemDefaults, primary] : systemDefaults,
    queryProperties: definition.searchableProperties,
    requiredProperties: definition.requiredProperties,
  };
}

/** Whether a token could name a custom type of an account (its id, fully qualified name or `p_<name>`). */
export function isCustomTypeToken(token: string): boolean {
  return customTypeIdPattern.test(token) || customTypeNamePattern.test(token);
}

/** Whether the token names this schema of the account `hubId` (the name in any case, as type names are matched). */
export function tokenNamesCustomType(
  token: string,
  definition: Pick<CustomTypeDefinition, 'id' | 'hubId' | 'name'>,
): boolean {
  const byId = customTypeIdPattern.exec(token);
  if (byId) return byId[1] === definition.id;
  const byName = customTypeNamePattern.exec(token);
  if (!byName) return false;
  const [, hub, name] = byName;
  return (hub === '' || hub === String(definition.hubId)) && name?.toLowerCase() === definition.name.toLowerCase();
}
