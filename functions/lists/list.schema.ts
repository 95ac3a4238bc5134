import { listLimits } from '../../shared/lists/list-limits';

const listId = { type: 'string', minLength: 1, maxLength: 100 } as const;
/** A type id: a standard one (`0-1`) or a custom one (`2-<n>`). */
const objectTypeId = { type: 'string', pattern: '^[0-9]{1,2}-[0-9]{1,15}$' } as const;
const recordIds = {
  type: 'array',
  items: { type: 'string', maxLength: 100 },
  maxItems: listLimits.maxRecordIdsPerCall,
} as const;

export const listIdPath = { type: 'object', required: ['listId'], properties: { listId } } as const;
export const sourceListPath = {
  type: 'object',
  required: ['listId', 'sourceListId'],
  properties: { listId, sourceListId: listId },
} as const;
export const listNamePath = {
  type: 'object',
  required: ['objectTypeId', 'listName'],
  properties: { objectTypeId, listName: { type: 'string', minLength: 1, maxLength: 1000 } },
} as const;
export const recordPath = {
  type: 'object',
  required: ['objectTypeId', 'recordId'],
  properties: { objectTypeId, recordId: { type: 'string', pattern: '^[0-9]{1,30}$' } },
} as const;

export const includeFiltersQuery = {
  type: 'object',
  properties: { includeFilters: { type: 'boolean' } },
} as const;
export const listIdsQuery = {
  type: 'object',
  properties: { includeFilters: { type: 'boolean' }, listIds: { type: 'string', maxLength: 20_000 } },
} as const;
export const renameQuery = {
  type: 'object',
  properties: { listName: { type: 'string' }, includeFilters: { type: 'boolean' } },
} as const;
export const filtersQuery = {
  type: 'object',
  properties: { enrollObjectsInWorkflows: { type: 'boolean' } },
} as const;
export const pageQuery = {
  type: 'object',
  properties: {
    after: { type: 'string', maxLength: 100 },
    before: { type: 'string', maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: listLimits.maxPageSize },
  },
} as const;

export const createListBody = {
  type: 'object',
  required: ['name', 'objectTypeId', 'processingType'],
  properties: {
    name: { type: 'string', maxLength: 1000 },
    objectTypeId: { type: 'string', maxLength: 100 },
    processingType: { type: 'string', maxLength: 100 },
    filterBranch: { type: 'object' },
    listFolderId: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
    membershipSettings: {
      type: 'object',
      additionalProperties: false,
      properties: { includeUnassigned: { type: 'boolean' }, membershipTeamId: { type: 'integer' } },
    },
    listPermissions: {
      type: 'object',
      additionalProperties: false,
      required: ['teamsWithEditAccess', 'usersWithEditAccess'],
      properties: {
        teamsWithEditAccess: { type: 'array', maxItems: 100, items: { type: 'integer' } },
        usersWithEditAccess: { type: 'array', maxItems: 100, items: { type: 'integer' } },
      },
    },
    customProperties: {
      type: 'object',
      maxProperties: 50,
      additionalProperties: { type: 'string', maxLength: 1000 },
    },
  },
} as const;

export const searchListsBody = {
  type: 'object',
  properties: {
    query: { type: 'string', maxLength: 1000 },
    listIds: { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 100 } },
    processingTypes: { type: 'array', maxItems: 3, items: { type: 'string', enum: ['MANUAL', 'DYNAMIC', 'SNAPSHOT'] } },
    objectTypeId: { type: 'string', maxLength: 100 },
    additionalProperties: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 200 } },
    offset: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    count: { type: 'integer', minimum: 1, maximum: listLimits.maxSearchCount },
    sort: { type: 'string', maxLength: 100 },
  },
} as const;

export const updateFiltersBody = {
  type: 'object',
  required: ['filterBranch'],
  properties: { filterBranch: { type: 'object' } },
} as const;

export const recordIdsBody = recordIds;

export const addAndRemoveBody = {
  type: 'object',
  required: ['recordIdsToAdd', 'recordIdsToRemove'],
  properties: { recordIdsToAdd: recordIds, recordIdsToRemove: recordIds },
} as const;

export const batchReadBody = {
  type: 'object',
  required: ['inputs'],
  properties: {
    inputs: {
      type: 'array',
      maxItems: listLimits.maxRecordsPerBatchRead,
      items: {
        type: 'object',
        required: ['objectTypeId', 'recordId'],
        properties: { objectTypeId, recordId: { type: 'string', pattern: '^[0-9]{1,30}$' } },
      },
    },
  },
} as const;

export const legacyListIdQuery = {
  type: 'object',
  properties: { legacyListId: { type: 'string', maxLength: 100 } },
} as const;

export const legacyListIdsBody = {
  type: 'array',
  items: { type: 'string', maxLength: 100 },
  maxItems: listLimits.maxLegacyIdsPerTranslation,
} as const;

/** PublicListConversionTime: types only; shared/lists/list-conversion.ts names the field that makes one impossible. */
export const conversionTimeBody = {
  type: 'object',
  properties: {
    conversionType: { type: 'string', maxLength: 100 },
    day: { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 },
    month: { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 },
    year: { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 },
    offset: { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 },
    timeUnit: { type: 'string', maxLength: 100 },
  },
} as const;

export const listAllListsBody = {
  type: 'object',
  properties: {
    processingTypes: searchListsBody.properties.processingTypes,
    objectTypeId: searchListsBody.properties.objectTypeId,
    additionalProperties: searchListsBody.properties.additionalProperties,
    after: { type: 'string', maxLength: 100 },
    count: searchListsBody.properties.count,
  },
} as const;
