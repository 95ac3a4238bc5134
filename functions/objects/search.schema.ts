import { searchOperators } from '../../shared/search/search-request';

/** Filter values are strings; loose clients send numbers and booleans, which compare as their text. */
const filterValue = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } as const;
const propertyName = { type: 'string', minLength: 1, maxLength: 255 } as const;

/**
 * PublicObjectSearchRequest. The spec marks most fields required, but clients send `{}` or only
 * some of them. Group and filter counts are checked by the domain, whose message names the limit.
 */
export const searchBody = {
  type: 'object',
  properties: {
    filterGroups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['filters'],
        properties: {
          filters: {
            type: 'array',
            items: {
              type: 'object',
              required: ['propertyName', 'operator'],
              properties: {
                propertyName,
                operator: { enum: searchOperators },
                value: filterValue,
                highValue: filterValue,
                values: { type: 'array', items: filterValue },
              },
            },
          },
        },
      },
    },
    // The spec types sorts as strings ("name", "-name"); the guide sends {propertyName, direction}.
    sorts: {
      type: 'array',
      items: {
        anyOf: [
          propertyName,
          {
            type: 'object',
            required: ['propertyName'],
            properties: { propertyName, direction: { enum: ['ASCENDING', 'DESCENDING'] } },
          },
        ],
      },
    },
    query: { type: 'string' },
    properties: { type: 'array', items: propertyName },
    limit: { type: 'integer' },
    // The SDK's README sends after: 0 (a number); answers carry it as a string.
    after: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'integer' }] },
  },
} as const;
