import { ValidationError } from '../base/errors';
import type { AssociationType } from '../db/association-labels';
import type { KeyedType } from '../db/keys';
import type { Scope } from '../oauth/scopes';
import { customTypeIdPattern, customTypeOfId } from './custom-object-types';
import { requestObjectType } from './request-object-types';
import {
  type activityTypeNames,
  objectTypePropertyScopes,
  objectTypeScopes,
  scopesByName,
  storedObjectTypeNames,
} from './object-type-scopes';

/**
 * The registry of CRM object types: what the engine knows of a type is its entry here, never a
 * check of its name. Ids and names are HubSpot's (https://developers.hubspot.com/docs/guides/crm/using-object-apis);
 * scopes, default properties and modified-date names as reference/HUBSPOT-WIRE-FACTS-3.md states them.
 * Plain data; the scopes and which types are stored come from object-type-scopes.ts, which the route table reads.
 */
export interface ObjectType extends KeyedType {
  /** The object type id (`0-2`). */
  id: string;
  /** The plural name, the path token (`companies`). */
  name: string;
  singular: string;
  /** Activities can be pinned on a record. */
  isActivity: boolean;
  /** Who may read and change the type's records: any one scope of a list suffices. */
  scopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** Who may read and change the type's property definitions. */
  propertyScopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** The property holding the last modification time (`updatedAt`): contacts `lastmodifieddate`, every other type `hs_lastmodifieddate`. */
  modifiedProperty: 'lastmodifieddate' | 'hs_lastmodifieddate';
  /** What a read returns when the client names no properties. */
  defaultProperties: readonly string[];
  /** Where a search's `query` looks (HubSpot's default searchable properties of the type). */
  queryProperties: readonly string[];
  /** Standard properties whose values identify one record of an account (an `idProperty`). */
  uniqueProperties: readonly string[];
  /** A `;`-separated list property whose values share the unique property's namespace (`hs_additional_domains`, `hs_additional_emails`). */
  additionalUniqueProperty?: string;
  /** Properties a create must set; clearing one later is refused too (400 VALIDATION_ERROR naming it). */
  requiredProperties: readonly string[];
  /** Where a record of a type with pipelines stands: its pipeline and stage properties, and the pipeline used when a create names none. */
  pipeline?: { property: string; stageProperty: string; defaultPipelineId: string };
  /** Whether two records of the type can be merged (`/merge`): HubSpot has no merge for activities, products and line items. */
  isMergeable: boolean;
  /** Whether this service stores records of the type yet (`/crm/v3/objects/{objectType}`); the others are association ends only. */
  isStored: boolean;
  /** The standard catalog the type reads (shared/properties/standard-catalogs.ts), when it is not the one named like the type: custom types share one. */
  catalogName?: string;
  /** A type of the account's own, defined through the schemas API (custom-object-types.ts). */
  isCustom?: boolean;
  /** A custom type's association definitions, both directions (account-object-types.ts): a pair's default type where no standard one exists. */
  associationTypes?: readonly AssociationType[];
}

const isStored = (name: string): boolean => (storedObjectTypeNames as readonly string[]).includes(name);
const activityDefaults = ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'] as const;

/**
 * An activity type (reference/HUBSPOT-WIRE-FACTS-3.md 2.1, 2.2, 2.7): `hs_timestamp` required (emails
 * also `hs_email_direction`), default properties `hs_createdate`, `hs_lastmodifieddate`,
 * `hs_object_id`; HubSpot guards activities (and, inferred, their properties) with the contact scopes.
 * Where `query` looks is not documented for activities: inferred, the type's title and body.
 */
const activity = (
  id: string,
  name: (typeof activityTypeNames)[number],
  singular: string,
  queryProperties: readonly string[],
  requiredProperties: readonly string[] = ['hs_timestamp'],
) =>
  ({
    id,
    name,
    singular,
    keyPrefix: singular.toUpperCase(),
    searchTag: `${id}#`,
    isActivity: true,
    scopes: scopesByName(name).records,
    propertyScopes: scopesByName(name).properties,
    modifiedProperty: 'hs_lastmodifieddate',
    defaultProperties: activityDefaults,
    queryProperties,
    uniqueProperties: [],
    requiredProperties,
    isMergeable: false,
    isStored: isStored(name),
  }) as const satisfies ObjectType;

export const companyObjectType = {
  id: '0-2',
  name: 'companies',
  singular: 'company',
  // As shared/companies/company-keys.ts states them (test/shared/companies/company-keys.test.ts compares).
  keyPrefix: 'COMPANY',
  searchTag: '',
  isActivity: false,
  scopes: objectTypeScopes.companies,
  propertyScopes: objectTypePropertyScopes.companies,
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  queryProperties: ['name', 'domain', 'website', 'phone'],
  uniqueProperties: ['domain'],
  additionalUniqueProperty: 'hs_additional_domains',
  requiredProperties: [],
  isMergeable: true,
  isStored: isStored('companies'),
} as const satisfies ObjectType;

export const objectTypes: readonly ObjectType[] = [
  {
    id: '0-1',
    name: 'contacts',
    singular: 'contact',
    keyPrefix: 'CONTACT',
    searchTag: '0-1#',
    isActivity: false,
    scopes: objectTypeScopes.contacts,
    propertyScopes: objectTypePropertyScopes.contacts,
    modifiedProperty: 'lastmodifieddate',
    defaultProperties: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
    queryProperties: [
      'firstname',
      'lastname',
      'email',
      'phone',
      'hs_additional_emails',
      'fax',
      'mobilephone',
      'company',
    ],
    uniqueProperties: ['email'],
    additionalUniqueProperty: 'hs_additional_emails',
    requiredProperties: [],
    isMergeable: true,
    isStored: isStored('contacts'),
  },
  companyObjectType,
  {
    id: '0-3',
    name: 'deals',
    singular: 'deal',
    keyPrefix: 'DEAL',
    searchTag: '0-3#',
    isActivity: false,
    scopes: objectTypeScopes.deals,
    propertyScopes: objectTypePropertyScopes.deals,
    modifiedProperty: 'hs_lastmodifieddate',
    defaultProperties: [
      'amount',
      'closedate',
      'createdate',
      'dealname',
      'dealstage',
      'hs_lastmodifieddate',
      'hs_object_id',
      'pipeline',
    ],
    queryProperties: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype'],
    uniqueProperties: [],
    requiredProperties: ['dealname', 'dealstage'],
    pipeline: { property: 'pipeline', stageProperty: 'dealstage', defaultPipelineId: 'default' },
    isMergeable: true,
    isStored: isStored('deals'),
  },
  {
    id: '0-5',
    name: 'tickets',
    singular: 'ticket',
    keyPrefix: 'TICKET',
    searchTag: '0-5#',
    isActivity: false,
    scopes: objectTypeScopes.tickets,
    propertyScopes: objectTypePropertyScopes.tickets,
    modifiedProperty: 'hs_lastmodifieddate',
    defaultProperties: [
      'content',
      'createdate',
      'hs_lastmodifieddate',
      'hs_object_id',
      'hs_pipeline',
      'hs_pipeline_stage',
      'hs_ticket_category',
      'hs_ticket_priority',
      'subject',
    ],
    queryProperties: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_id'],
    uniqueProperties: [],
    requiredProperties: ['subject', 'hs_pipeline_stage'],
    pipeline: { property: 'hs_pipeline', stageProperty: 'hs_pipeline_stage', defaultPipelineId: '0' },
    isMergeable: true,
    isStored: isStored('tickets'),
  },
  activity('0-46', 'notes', 'note', ['hs_note_body']),
  activity('0-48', 'calls', 'call', ['hs_call_title', 'hs_call_body']),
  // HubSpot also takes `sales-email-read` for emails: a scope the catalogue does not know yet.
  activity('0-49', 'emails', 'email', ['hs_email_subject', 'hs_email_text'], ['hs_timestamp', 'hs_email_direction']),
  activity('0-47', 'meetings', 'meeting', ['hs_meeting_title', 'hs_meeting_body']),
  activity('0-27', 'tasks', 'task', ['hs_task_subject', 'hs_task_body']),
  {
    id: '0-7',
    name: 'products',
    singular: 'product',
    keyPrefix: 'PRODUCT',
    searchTag: '0-7#',
    isActivity: false,
    scopes: objectTypeScopes.products,
    propertyScopes: objectTypePropertyScopes.products,
    modifiedProperty: 'hs_lastmodifieddate',
    // The spec's table (name, description, price) and the system keys (inferred).
    defaultProperties: ['createdate', 'description', 'hs_lastmodifieddate', 'hs_object_id', 'name', 'price'],
    // Inferred: HubSpot does not document where `query` looks for products.
    queryProperties: ['name', 'description', 'hs_sku'],
    uniqueProperties: [],
    // The object-API guide lists hs_sku, hs_folder, price, name and description as required; the
    // products guide creates products with name and price alone, as integrations do: none is enforced.
    requiredProperties: [],
    isMergeable: false,
    isStored: isStored('products'),
  },
  {
    id: '0-8',
    name: 'line_items',
    singular: 'line_item',
    // No underscore: key prefixes are letters only (recordAddressedBy), and _MERGED, _UNIQUE follow them.
    keyPrefix: 'LINEITEM',
    searchTag: '0-8#',
    isActivity: false,
    scopes: objectTypeScopes.line_items,
    propertyScopes: objectTypePropertyScopes.line_items,
    modifiedProperty: 'hs_lastmodifieddate',
    // Unverified beyond the system keys: the line-item guide's examples read these.
    defaultProperties: [
      'createdate',
      'hs_lastmodifieddate',
      'hs_object_id',
      'hs_product_id',
      'name',
      'price',
      'quantity',
    ],
    queryProperties: ['name', 'description', 'hs_sku'],
    uniqueProperties: [],
    requiredProperties: [],
    isMergeable: false,
    isStored: isStored('line_items'),
  },
];

/** The types whose records this service stores: the `/crm/v3/objects/{objectType}` rows serve these. */
export const storedObjectTypes: readonly ObjectType[] = objectTypes.filter((type) => type.isStored);

const byToken = new Map<string, ObjectType>();
for (const type of objectTypes) {
  byToken.set(type.id, type);
  byToken.set(type.name, type);
  byToken.set(type.singular, type);
}

/** The type's singular name as words (`line item`), and with a capital (`Line item`), for messages. */
export const singularWords = (type: Pick<ObjectType, 'singular'>): string => type.singular.replaceAll('_', ' ');
export const singularTitle = (type: Pick<ObjectType, 'singular'>): string => {
  const words = singularWords(type);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

/**
 * Plural name, singular name or object type id, in any case; or a custom type of the account the
 * request's path named (request-object-types.ts), by any of its tokens.
 */
export function findObjectType(token: string): ObjectType | undefined {
  return byToken.get(token.trim().toLowerCase()) ?? requestObjectType(token);
}

/**
 * A standard type by id, or a custom type: the request's, as its schema states it, when its path
 * named it; else known by its id alone (custom-object-types.ts customTypeOfId).
 */
export function objectTypeById(id: string): ObjectType | undefined {
  return byToken.get(id) ?? (customTypeIdPattern.test(id) ? (requestObjectType(id) ?? customTypeOfId(id)) : undefined);
}

/** The stored type with this id (the first part of an association key), or undefined for any other id. */
export function storedTypeById(id: string): ObjectType | undefined {
  const type = objectTypeById(id);
  return type?.isStored && type.id === id ? type : undefined;
}

/** The type a token names (plural name, singular name or type id, in any case); else 400 VALIDATION_ERROR naming the token under `field`. */
export function requireObjectType(token: string, field = 'objectType'): ObjectType {
  const type = findObjectType(token);
  if (!type) throw unknownObjectType(token, field);
  return type;
}

/** What a token that names no type answers: 400 VALIDATION_ERROR naming it under `field`. */
export const unknownObjectType = (token: string, field = 'objectType'): ValidationError =>
  new ValidationError(`Unable to infer object type from: ${token}`, { context: { [field]: [token] } });

/** A stored type whose records can be merged; any other answers 400 VALIDATION_ERROR naming the token. */
export function requireMergeableObjectType(token: string): ObjectType {
  return requireMergeable(requireStoredObjectType(token), token);
}

/** The type, when its records can be merged; else 400 VALIDATION_ERROR naming the token that named it. */
export function requireMergeable(type: ObjectType, token: string): ObjectType {
  if (!type.isMergeable) {
    throw new ValidationError(`Records of ${type.name} (${type.id}) cannot be merged: ${token} has no merge`, {
      context: { objectType: [token] },
    });
  }
  return type;
}

/**
 * A type whose records this service stores; a known type it does not store yet, like an unknown
 * token, answers 400 VALIDATION_ERROR naming the token.
 */
export function requireStoredObjectType(token: string): ObjectType {
  return requireStored(requireObjectType(token), token);
}

/** The type, when this service stores its records; else 400 VALIDATION_ERROR naming the token that named it. */
export function requireStored(type: ObjectType, token: string): ObjectType {
  if (!type.isStored) {
    throw new ValidationError(
      `Records of ${type.name} (${type.id}) are not stored by this service yet: ${token} cannot be used here. Stored types: ${storedObjectTypes.map((stored) => `${stored.name} (${stored.id})`).join(', ')}, and the account's custom objects.`,
      { context: { objectType: [token] } },
    );
  }
  return type;
}
