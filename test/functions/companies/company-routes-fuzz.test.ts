import fc from 'fast-check';
import type { RunningGateway } from '../../../bin/local-gateway';
import { routes } from '../../../shared/routes';
import type { Route } from '../../../shared/route-types';
import { bearer, install, startTestGateway } from '../../support/harness';

/**
 * Random ids, query strings and bodies at every company route: whatever a client sends, the
 * answer is never a 5xx, and every error is the documented error object with a correlation id.
 */
let gateway: RunningGateway;
let token: string;
let knownId: string;

/** Every CRM route, from the table: a route taking a crm.* scope is a company-data route. */
const companyRoutes: Route[] = routes.filter((route) => Array.isArray(route.scopes) && route.scopes.some((scope: string) => scope.startsWith('crm.')));

beforeAll(async () => {
  gateway = await startTestGateway();
  token = (await install(gateway)).accessToken;
  const response = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, {
    method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ properties: { name: 'Fuzz target' } }),
  });
  knownId = ((await response.json()) as { id: string }).id;
});

afterAll(async () => {
  await gateway.close();
});

function encodable(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

const segment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.stringMatching(/^\d{1,25}$/),
  fc.constantFrom('contacts', 'companies', 'company', 'contact', '0-2', '0-1', '0-46', 'notes', 'deals', '13', '279', '280', '450', '1000', 'name', 'domain', '-1', '1e3', '%', '..'),
  fc.string({ minLength: 300, maxLength: 3000 }),
  fc.constant(''),
).filter(encodable);

const propertyName = fc.oneof(fc.constantFrom('name', 'domain', 'lifecyclestage', 'industry', 'hs_object_id', 'hs_pinned_engagement_id', 'numberofemployees', 'closedate', 'is_public', 'hs_additional_domains', 'createdate'), fc.string({ maxLength: 30 }));
const propertyValue = fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue(), fc.constantFrom('lead', 'customer', 'ACCOUNTING', 'https://www.x.example/a', '1714658591512', ''));
const properties = fc.dictionary(propertyName, propertyValue, { maxKeys: 8 });
const association = fc.record({
  to: fc.oneof(fc.record({ id: fc.oneof(fc.stringMatching(/^\d{1,20}$/), fc.string()) }), fc.jsonValue()),
  types: fc.array(fc.record({ associationCategory: fc.constantFrom('HUBSPOT_DEFINED', 'USER_DEFINED', 'nope'), associationTypeId: fc.oneof(fc.constantFrom(1, 2, 13, 14, 189, 280, 450, 1000, 1001), fc.integer()) }, { requiredKeys: [] }), { maxLength: 3 }),
}, { requiredKeys: [] });
const input = fc.record({ id: fc.oneof(fc.stringMatching(/^\d{1,20}$/), fc.string({ maxLength: 1200 }), fc.integer()), idProperty: fc.oneof(propertyName, fc.constant('hs_object_id')), properties, associations: fc.array(association, { maxLength: 3 }) }, { requiredKeys: [] });
const plausibleProperties = fc.dictionary(
  fc.constantFrom('name', 'domain', 'city', 'lifecyclestage', 'industry', 'hs_additional_domains', 'hs_pinned_engagement_id', 'numberofemployees'),
  fc.constantFrom('Acme', 'acme.example', 'www.other.example', 'lead', 'customer', 'subscriber', '', 'ACCOUNTING', '42', '3001', 'a.example;b.example'),
  { minKeys: 1, maxKeys: 5 },
);
const plausibleInput = fc.record({ id: fc.constantFrom('{known}', 'acme.example', '1000000000000001'), idProperty: fc.constantFrom('domain', 'hs_object_id'), properties: plausibleProperties });
const fuzzObjectId = fc.oneof(fc.record({ id: fc.oneof(fc.constant('{known}'), fc.stringMatching(/^\d{1,20}$/), fc.string({ maxLength: 30 }), fc.integer()) }), fc.jsonValue());
const associationSpecs = fc.array(fc.record({ associationCategory: fc.constantFrom('HUBSPOT_DEFINED', 'USER_DEFINED', 'nope'), associationTypeId: fc.oneof(fc.constantFrom(1, 2, 13, 14, 189, 279, 280, 450, 1000, 1001), fc.integer()) }, { requiredKeys: [] }), { maxLength: 3 });
/** v4 association batch inputs: {from:{id}, to:{id} or [{id}], types}, or {id, after}. */
const pairInput = fc.record({ from: fuzzObjectId, to: fc.oneof(fuzzObjectId, fc.array(fuzzObjectId, { maxLength: 3 })), types: associationSpecs, id: fc.oneof(fc.constant('{known}'), fc.string({ maxLength: 30 })), after: fc.oneof(fc.stringMatching(/^\d{1,20}$/), fc.string({ maxLength: 10 })) }, { requiredKeys: [] });
const body = fc.oneof(
  fc.jsonValue(),
  fc.record({ inputs: fc.array(pairInput, { maxLength: 4 }) }),
  fc.record({ primaryObjectId: fc.oneof(fc.constant('{known}'), fc.stringMatching(/^\d{1,20}$/), fc.string({ maxLength: 30 }), fc.integer()), objectIdToMerge: fc.oneof(fc.constant('{known}'), fc.stringMatching(/^\d{1,20}$/), fc.string({ maxLength: 30 })) }, { requiredKeys: [] }),
  fc.record({ properties: plausibleProperties, associations: fc.array(association, { maxLength: 2 }) }, { requiredKeys: ['properties'] }),
  fc.record({ inputs: fc.array(plausibleInput, { maxLength: 4 }), properties: fc.constant(['name']), propertiesWithHistory: fc.constant([]) }),
  fc.record({ properties, associations: fc.array(association, { maxLength: 3 }) }, { requiredKeys: [] }),
  fc.record({ inputs: fc.array(input, { maxLength: 5 }), properties: fc.array(propertyName, { maxLength: 4 }), propertiesWithHistory: fc.array(propertyName, { maxLength: 4 }), idProperty: propertyName }, { requiredKeys: [] }),
  fc.array(fc.record({ associationCategory: fc.constantFrom('HUBSPOT_DEFINED', 'USER_DEFINED', 'nope'), associationTypeId: fc.oneof(fc.constantFrom(1, 2, 13, 14, 189, 279, 280, 450, 1000, 1001), fc.integer()) }, { requiredKeys: [] }), { maxLength: 4 }),
  fc.record({ associationTypeId: fc.oneof(fc.constantFrom(2, 1000, 1001), fc.integer()), label: fc.string({ maxLength: 30 }), inverseLabel: fc.string({ maxLength: 30 }) }, { requiredKeys: [] }),
  fc.record({ name: fc.string({ maxLength: 30 }), label: fc.string({ maxLength: 30 }), type: fc.constantFrom('string', 'number', 'enumeration', 'bool', 'date', 'x'), fieldType: fc.constantFrom('text', 'select', 'number', 'booleancheckbox', 'x'), groupName: fc.string({ maxLength: 10 }), options: fc.array(fc.record({ label: fc.string(), value: fc.string() }), { maxLength: 3 }), hasUniqueValue: fc.boolean(), inverseLabel: fc.string() }, { requiredKeys: [] }),
).map((value) => JSON.stringify(value).replaceAll('{known}', '__KNOWN__'));
const rawBody = fc.oneof(body, fc.string({ maxLength: 100 }), fc.constant(''), fc.constant('{"properties":'));
const queryKey = fc.oneof(fc.constantFrom('properties', 'propertiesWithHistory', 'associations', 'archived', 'limit', 'after', 'idProperty'), fc.string({ maxLength: 10 }));
const queryValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('true', 'false', '0', '1', '100', '101', '-5', 'name,domain', 'contacts,companies', '9999999999999999999999', knownIdPlaceholder()));
const query = fc.array(fc.tuple(queryKey, queryValue).filter(([key, value]) => encodable(key) && encodable(value)), { maxLength: 5 });

function knownIdPlaceholder(): string {
  return '{known}';
}

function fill(route: Route, params: string[]): string {
  let index = 0;
  return route.path.replace(/\{[A-Za-z]+\}/g, () => {
    const value = params[index] ?? 'x';
    index += 1;
    return encodeURIComponent(value === '{known}' ? knownId : value);
  });
}

interface ErrorBody {
  status?: string;
  message?: string;
  correlationId?: string;
  category?: string;
}

describe.each(companyRoutes.map((route) => [route.name, route] as const))('%s under random input', (_name, route) => {
  it('never answers 5xx and always answers errors with the error object', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(segment, fc.constant('{known}'), fc.constant('{known}')), { minLength: 4, maxLength: 4 }), query, rawBody, fc.oneof(fc.constant(true), fc.constant(true), fc.constant(true), fc.constant(false)),
      async (params, pairs, payload, withContentType) => {
        const search = pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value === '{known}' ? knownId : value)}`).join('&');
        const response = await fetch(`${gateway.baseUrl}${fill(route, params)}${search ? `?${search}` : ''}`, {
          method: route.method,
          headers: { ...bearer(token), ...(withContentType ? { 'content-type': 'application/json' } : {}) },
          body: route.method === 'GET' ? undefined : payload.replaceAll('__KNOWN__', knownId),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) {
          const parsed = JSON.parse(text) as ErrorBody;
          expect(parsed).toMatchObject({ status: 'error', message: expect.any(String), correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/), category: expect.any(String) });
        }
      },
    ), { numRuns: 60 });
  });
});
