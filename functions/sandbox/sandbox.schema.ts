import { associationSpecs, propertyValues } from '../objects/object.schema';
import {
  faultMethods,
  faultPolicies,
  faultStatuses,
  maxFaultCount,
  maxFaultDelayMs,
} from '../../shared/sandbox/faults';
import { maxConditionalRequirements, maxRequiredOnCreate, maxWhenValues } from '../../shared/db/write-validation';
import {
  maxFixtureAssociations,
  maxFixtureLists,
  maxFixtureMembers,
  maxFixtureRecords,
} from '../../shared/sandbox/fixture-limits';
import { createListBody } from '../lists/list.schema';

/** Hub ids are digits; anything else answers 404 like an id of no test account (the domain decides). */
const hubId = { type: 'string', minLength: 1, maxLength: 30 } as const;
/** A fixture's ref, an object type token, a fault id: short non-empty strings the domain checks further. */
const shortToken = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const testAccountPath = {
  type: 'object',
  required: ['hubId'],
  properties: { hubId },
} as const;

export const faultPath = {
  type: 'object',
  required: ['hubId', 'faultId'],
  properties: { hubId, faultId: shortToken },
} as const;

export const writeValidationPath = {
  type: 'object',
  required: ['hubId', 'objectType'],
  properties: { hubId, objectType: shortToken },
} as const;

/** A property name: the domain checks that the type has it. */
const propertyName = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** A test account's write validation of one type (shared/sandbox/write-validation.ts checks names and conditions). */
export const writeValidationBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requiredOnCreate: { type: 'array', maxItems: maxRequiredOnCreate, items: propertyName },
    conditionalRequirements: {
      type: 'array',
      maxItems: maxConditionalRequirements,
      items: {
        type: 'object',
        required: ['propertyName', 'whenProperty'],
        additionalProperties: false,
        properties: {
          propertyName,
          whenProperty: propertyName,
          whenValues: {
            type: 'array',
            minItems: 1,
            maxItems: maxWhenValues,
            items: { type: 'string', minLength: 1, maxLength: 200 },
          },
          whenClosedWon: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export const createTestAccountBody = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 200 } },
} as const;

export const installBody = {
  type: 'object',
  required: ['appId', 'scopes'],
  additionalProperties: false,
  properties: {
    appId: { type: 'integer', minimum: 1, maximum: 999999999999999 },
    scopes: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 200 } },
    expiresInSeconds: { type: 'integer', minimum: 1, maximum: 1800 },
  },
} as const;

export const faultBody = {
  type: 'object',
  required: ['path', 'status', 'count'],
  additionalProperties: false,
  properties: {
    method: { type: 'string', enum: faultMethods },
    path: { type: 'string', pattern: '^/[!-~]{0,299}$' },
    status: { type: 'integer', enum: faultStatuses },
    count: { type: 'integer', minimum: 1, maximum: maxFaultCount },
    policyName: { type: 'string', enum: faultPolicies },
    delayMs: { type: 'integer', minimum: 0, maximum: maxFaultDelayMs },
  },
} as const;

/** Records, associations and lists to load at once (shared/sandbox/fixtures.ts checks refs, types and counts). */
export const fixturesBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    records: {
      type: 'array',
      maxItems: maxFixtureRecords,
      items: {
        type: 'object',
        required: ['ref', 'objectType', 'properties'],
        additionalProperties: false,
        properties: {
          ref: shortToken,
          objectType: shortToken,
          properties: propertyValues,
        },
      },
    },
    associations: {
      type: 'array',
      maxItems: maxFixtureAssociations,
      items: {
        type: 'object',
        required: ['from', 'to', 'types'],
        additionalProperties: false,
        properties: {
          from: shortToken,
          to: shortToken,
          types: associationSpecs,
        },
      },
    },
    // A list as the lists API's create takes it (its name, processingType and filterBranch the same
    // schemas), its type also by a record's objectType, and its members by the call's record refs.
    lists: {
      type: 'array',
      maxItems: maxFixtureLists,
      items: {
        type: 'object',
        required: ['name', 'processingType'],
        additionalProperties: false,
        properties: {
          ref: shortToken,
          name: createListBody.properties.name,
          objectTypeId: createListBody.properties.objectTypeId,
          objectType: shortToken,
          processingType: createListBody.properties.processingType,
          filterBranch: createListBody.properties.filterBranch,
          members: { type: 'array', maxItems: maxFixtureMembers, items: shortToken },
        },
      },
    },
  },
} as const;

export const deliveriesQuery = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^[0-9]{1,4}$' },
    after: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;
