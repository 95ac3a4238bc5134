import { HttpApi, HttpIntegration, HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template as CdkTemplate } from 'aws-cdk-lib/assertions';
import {
  apiServing,
  mappingKeyCandidateOf,
  maxIntegrationsPerApi,
  maxRoutesPerApi,
  pathsOverlap,
  planApis,
  type PlannedApi,
} from '../../lib/api-shards';
import type { Stack } from 'aws-cdk-lib';
import { groupRoutes, maxResourcesPerStack, routeStackIdOf, stackResourcesOf } from '../../lib/route-groups';
import { spellingPathOf, spellingsOf, type Route } from '../../shared/base/route-types';
import { requestPathOf } from '../../shared/http/middlewares';
import { routeSpellings, routes } from '../../shared/routes';
import { synthesisTimeoutMs } from '../support/synthesized-platform';
import { unbundledPlatform } from '../support/unbundled-platform';

/**
 * The route table outgrows one HTTP API's quotas (lib/api-shards.ts): these tests plan and synthesize
 * it with a third of the route quota, so the split the full table will need is exercised today.
 */
const smallApi = 100;
const customDomain = {
  domainName: 'api.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
};

/** A request path the spelling's route matches: each parameter filled in (a version with a dated one). */
function filledPathOf(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => (name === 'version' ? '2026-03' : `p-${name}`));
}

/** The routes of an API a request path matches, literal segments first (API Gateway's most specific route). */
function routesMatching(api: PlannedApi, method: string, apiPath: string): string[] {
  return api.spellings
    .filter((placed) => placed.spelling.method === method && placed.apiPath !== '$default')
    .filter((placed) => pathsOverlap(placed.apiPath, apiPath))
    .map((placed) => placed.spelling.spelling);
}

describe('planning the HTTP APIs', () => {
  it(`serves the whole table from one API when it fits ${maxRoutesPerApi} routes and ${maxIntegrationsPerApi} integrations, and from more only when it does not`, () => {
    const apis = planApis(routes, { routes: maxRoutesPerApi, integrations: maxIntegrationsPerApi });
    const fitsOne = routeSpellings.length <= maxRoutesPerApi && routes.length <= maxIntegrationsPerApi;
    const oneApi = planApis(routes, { routes: Number.POSITIVE_INFINITY, integrations: Number.POSITIVE_INFINITY });

    expect(oneApi).toHaveLength(1);
    expect(oneApi[0]?.mappingKeys).toEqual(['']);
    expect(oneApi[0]?.spellings.map((placed) => placed.apiPath)).toEqual(
      routeSpellings.map((spelling) => spelling.path),
    );
    expect(apis.length === 1).toBe(fitsOne);
    for (const api of apis) {
      expect(api.spellings.length + api.proxiedKeys.length).toBeLessThanOrEqual(maxRoutesPerApi);
      expect(
        new Set(api.spellings.map((placed) => placed.spelling.name)).size + api.proxiedKeys.length,
      ).toBeLessThanOrEqual(maxIntegrationsPerApi);
    }
  });

  it('names a mapping key by the first two literal segments, or the first alone before a parameter', () => {
    expect(mappingKeyCandidateOf('/crm/v3/objects/{objectType}')).toBe('crm/v3');
    expect(mappingKeyCandidateOf('/crm-object-schemas/{version}/schemas')).toBe('crm-object-schemas');
    expect(mappingKeyCandidateOf('/oauth/authorize')).toBeUndefined();
    expect(mappingKeyCandidateOf('/{x}/a/b')).toBeUndefined();
    expect(mappingKeyCandidateOf('$default')).toBeUndefined();
  });

  describe.each(['mappings', 'proxy'] as const)(`with ${smallApi} routes an API, linked by %s`, (linking) => {
    const apis = planApis(routes, { routes: smallApi, integrations: maxIntegrationsPerApi }, linking);
    /** The root API's routes: its spellings, and behind proxies one route per forwarded key. */
    const routeCountOf = (api: PlannedApi) => api.spellings.length + api.proxiedKeys.length;

    it('keeps every API within both quotas and every further API reachable only through its keys', () => {
      console.log(
        apis
          .map(
            (api, index) =>
              `API ${index} (${api.mappingKeys.map((key) => `/${key}`).join(', ')}): ${routeCountOf(api)} routes (${smallApi - routeCountOf(api)} left), ${new Set(api.spellings.map((placed) => placed.spelling.name)).size + api.proxiedKeys.length} integrations`,
          )
          .join('\n'),
      );

      expect(apis.length).toBeGreaterThan(1);
      for (const api of apis) {
        expect(routeCountOf(api)).toBeLessThanOrEqual(smallApi);
        expect(
          new Set(api.spellings.map((placed) => placed.spelling.name)).size + api.proxiedKeys.length,
        ).toBeLessThanOrEqual(maxIntegrationsPerApi);
      }
      expect(apis[0]?.mappingKeys).toEqual(['']);
      expect(apis[0]?.proxiedKeys).toEqual(linking === 'proxy' ? apis.slice(1).flatMap((api) => api.mappingKeys) : []);
      for (const api of apis.slice(1)) expect(api.mappingKeys.every((key) => key !== '')).toBe(true);
    });

    it('serves every spelling exactly once, and the unknown-path row on every API', () => {
      const served = apis.flatMap((api) => api.spellings.filter((placed) => placed.apiPath !== '$default'));
      const fallbacks = apis.flatMap((api) => api.spellings.filter((placed) => placed.apiPath === '$default'));

      expect(served.map((placed) => placed.spelling.spelling).sort()).toEqual(
        routeSpellings
          .filter((spelling) => spelling.path !== '$default')
          .map((spelling) => spelling.spelling)
          .sort(),
      );
      expect(fallbacks).toHaveLength(apis.length);
    });

    it("sends a request for each spelling's path to the API and route that serve it, and to no other route", () => {
      for (const route of routes) {
        for (const spelling of spellingsOf(route)) {
          if (spelling.path === '$default') continue;
          const { api, apiPath } = apiServing(apis, filledPathOf(spelling.path), linking);
          const mine = api.spellings.find((placed) => placed.spelling.spelling === spelling.spelling);
          const matching = routesMatching(api, route.method, apiPath);

          expect([spelling.spelling, mine?.apiPath !== undefined]).toEqual([spelling.spelling, true]);
          expect([spelling.spelling, matching.includes(spelling.spelling)]).toEqual([spelling.spelling, true]);
          // Other routes a filled-in path matches are the table's own overlaps, which one API has today too.
          const onOneApi = routeSpellings
            .filter((other) => other.method === route.method && other.path !== '$default')
            .filter((other) => pathsOverlap(other.path, filledPathOf(spelling.path)))
            .map((other) => other.spelling);
          for (const other of matching)
            expect([spelling.spelling, onOneApi.includes(other)]).toEqual([spelling.spelling, true]);
        }
      }
    });

    it('never lets families of two mapping keys share an API where one request path could match both', () => {
      for (const api of apis.slice(1)) {
        if (linking === 'proxy')
          expect(api.spellings.every((placed) => placed.apiPath === placed.spelling.path)).toBe(true);
        const keyOf = (path: string) => api.mappingKeys.find((key) => path.startsWith(`/${key}`));
        for (const left of api.spellings)
          for (const right of api.spellings) {
            if (left.apiPath === '$default' || right.apiPath === '$default') continue;
            if (left.spelling.method !== right.spelling.method) continue;
            if (keyOf(left.spelling.path) === keyOf(right.spelling.path)) continue;
            expect([
              left.spelling.spelling,
              right.spelling.spelling,
              pathsOverlap(left.apiPath, right.apiPath),
            ]).toEqual([left.spelling.spelling, right.spelling.spelling, false]);
          }
      }
    });
  });
});

describe('a request that reached a further API', () => {
  const readObject = routes.find((route) => route.name === 'getObject');

  it('names the spelling its stripped route key stands for, and the path the client asked for', () => {
    if (!readObject) throw new Error('no getObject row');
    const dated = spellingPathOf(readObject, '/{version}/{objectType}/{objectId}');

    expect(dated).toBe('/crm/objects/{version}/{objectType}/{objectId}');
    expect(spellingPathOf(readObject, readObject.path)).toBe(readObject.path);
    expect(requestPathOf(dated, '/2026-03/deals/5', { version: '2026-03', objectType: 'deals', objectId: '5' })).toBe(
      '/crm/objects/2026-03/deals/5',
    );
    expect(requestPathOf(dated, '/crm/objects/2026-09/deals/7', { version: '2026-09' })).toBe(
      '/crm/objects/2026-09/deals/7',
    );
    expect(requestPathOf('$default', '/nowhere/at/all', {})).toBe('/nowhere/at/all');
  });
});

describe.each([
  ['behind a custom domain', 'mappings'],
  ['without a domain', 'proxy'],
] as const)(`synthesizing ${smallApi} routes an API %s`, (_title, linking) => {
  it(
    'creates each planned API with its routes, integrations and stage, its mappings or proxies, every stack within its budget',
    () => {
      const { api, stacks } = unbundledPlatform({
        routesPerApi: smallApi,
        sandboxControls: true,
        ...(linking === 'mappings' ? { customDomain } : {}),
      });
      const plans = planApis(routes, { routes: smallApi, integrations: maxIntegrationsPerApi }, linking);
      const httpApis = api.node.findAll().filter((construct): construct is HttpApi => construct instanceof HttpApi);
      const routesOf = (httpApi: HttpApi) =>
        api.node.findAll().filter((construct) => construct instanceof HttpRoute && construct.httpApi === httpApi);
      const integrationsOf = (httpApi: HttpApi) =>
        api.node.findAll().filter((construct) => construct instanceof HttpIntegration && construct.httpApi === httpApi);
      const rootTemplate = CdkTemplate.fromStack(api).toJSON() as {
        Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
      };
      const mappingKeys = Object.values(rootTemplate.Resources)
        .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::ApiMapping')
        .map((resource) => resource.Properties?.ApiMappingKey ?? '');
      const proxyRoutes = Object.values(rootTemplate.Resources)
        .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route')
        .map((resource) => String(resource.Properties?.RouteKey));
      const lines = httpApis.map(
        (httpApi) =>
          `${httpApi.node.id}: ${routesOf(httpApi).length} routes (${smallApi - routesOf(httpApi).length} left), ${integrationsOf(httpApi).length} integrations (${maxIntegrationsPerApi - integrationsOf(httpApi).length} left)`,
      );
      const sizes = stacks.map((stack) => ({
        stack: stack.node.path,
        resources: Object.keys((CdkTemplate.fromStack(stack).toJSON() as { Resources: object }).Resources).length,
      }));
      console.log([...lines, ...sizes.map((size) => `${size.stack}: ${size.resources} resources`)].join('\n'));

      expect(httpApis.length).toBe(plans.length);
      for (const httpApi of httpApis) {
        expect([httpApi.node.id, routesOf(httpApi).length <= smallApi]).toEqual([httpApi.node.id, true]);
        expect([httpApi.node.id, integrationsOf(httpApi).length <= maxIntegrationsPerApi]).toEqual([
          httpApi.node.id,
          true,
        ]);
      }
      const proxiedKeys = plans[0]?.proxiedKeys ?? [];
      expect(httpApis.reduce((sum, httpApi) => sum + routesOf(httpApi).length, 0)).toBe(
        routeSpellings.length + httpApis.length - 1 + proxiedKeys.length,
      );
      if (linking === 'mappings') {
        expect(mappingKeys.sort()).toEqual(plans.flatMap((plan) => plan.mappingKeys).sort());
        expect(proxyRoutes).toEqual([]);
      } else {
        expect(mappingKeys).toEqual([]);
        expect(proxiedKeys.length).toBeGreaterThan(0);
        expect(proxyRoutes.sort()).toEqual(proxiedKeys.map((key) => `ANY /${key}/{proxy+}`).sort());
      }
      for (const size of sizes) expect([size.stack, size.resources < maxResourcesPerStack]).toEqual([size.stack, true]);
      // Each nested stack holds at most what its budget counts: a row served by two APIs has an integration and a permission on each.
      const footprintOf = (route: Route) => {
        const placed = plans.map((plan) => plan.spellings.filter((entry) => entry.spelling.name === route.name).length);
        return {
          apis: placed.filter((count) => count > 0).length,
          routes: placed.reduce((sum, count) => sum + count, 0),
        };
      };
      for (const [group, members] of groupRoutes(routes, footprintOf)) {
        const stack = stacks.find((candidate) => candidate.node.id === routeStackIdOf(group));
        const resources = Object.keys(
          (CdkTemplate.fromStack(stack as Stack).toJSON() as { Resources: object }).Resources,
        ).length;
        expect([group, resources <= stackResourcesOf(members, footprintOf)]).toEqual([group, true]);
      }
    },
    synthesisTimeoutMs,
  );
});
