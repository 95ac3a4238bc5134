import { Template as CdkTemplate } from 'aws-cdk-lib/assertions';
import {
  groupRoutes,
  maxResourcesPerStack,
  resourcesPerAlias,
  resourcesPerFurtherApi,
  resourcesPerNestedStack,
  resourcesPerRow,
  routeGroupOf,
} from '../../lib/route-groups';

/** The rows a nested stack of rows without aliases holds within its budget. */
const maxRowsPerStack = Math.floor((maxResourcesPerStack - resourcesPerNestedStack) / resourcesPerRow);
import type { Route } from '../../shared/base/route-types';
import { maxIntegrationsPerApi, maxRoutesPerApi, planApis } from '../../lib/api-shards';
import { deployedRoutes } from '../../lib/platform-stacks';
import { routeSpellings, routes as routeTable } from '../../shared/routes';
import { synthesisTimeoutMs, synthesizedPlatform, type Template } from '../support/synthesized-platform';
import { unbundledPlatform } from '../support/unbundled-platform';

/**
 * CloudFormation refuses a stack of more than 500 resources. The route table is to grow to 200
 * routes with every stack under 400 (lib/route-groups.ts): these tests measure what a route costs
 * in the synthesized templates and build a 200-route table to prove it fits.
 */
const routes: readonly Route[] = routeTable;
const targetRoutes = 200;

interface StackCount {
  file: string;
  resources: number;
  /** Resources a stack has whatever its routes: the CLI's version reporting (AWS::CDK::Metadata). */
  perStack: number;
  routes: number;
  functions: number;
  integrations: number;
}

let counts: StackCount[];

beforeAll(async () => {
  const platform = await synthesizedPlatform();
  counts = [...platform.apiStackTemplates()].map(([file, template]: [string, Template]) => ({
    file,
    resources: Object.keys(template.Resources).length,
    perStack: Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::CDK::Metadata').length,
    routes: Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route').length,
    functions: Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::Lambda::Function').length,
    integrations: Object.values(template.Resources).filter(
      (resource) => resource.Type === 'AWS::ApiGatewayV2::Integration',
    ).length,
  }));
}, synthesisTimeoutMs);

/** The costliest route stack's resources per route: what a route of the table costs at most (the parent's proxy routes are no rows). */
function resourcesPerRoute(): number {
  return Math.max(
    ...counts
      .slice(1)
      .filter((count) => count.routes > 0)
      .map((count) => (count.resources - count.perStack) / count.routes),
  );
}

/** What a nested stack holds besides its routes. */
function resourcesPerStack(): number {
  return Math.max(...counts.map((count) => count.perStack));
}

/** The test stage's table (the synth runs with sandboxControls), planned as `cdk synth` plans it without a domain. */
const testStagePlans = () =>
  planApis(deployedRoutes(routes, true), { routes: maxRoutesPerApi, integrations: maxIntegrationsPerApi }, 'proxy');

describe('stack budget of the synthesized API', () => {
  it('puts every route function in a nested stack and keeps the parent stack free of them', () => {
    const [root, ...nested] = counts;
    const plans = testStagePlans();

    // The parent holds only the root API's proxy routes to further APIs (none while one API holds the table).
    expect(root?.routes).toBe(plans[0]?.proxiedKeys.length ?? 0);
    // One API route per spelling of each row's path (its own and its aliases), and a $default per further API.
    expect(nested.reduce((sum, count) => sum + count.routes, 0)).toBe(routeSpellings.length + plans.length - 1);
    expect(nested.length).toBe(groupRoutes(routes).size);
  });

  it(`keeps every stack under ${maxResourcesPerStack} resources`, () => {
    for (const count of counts)
      expect([count.file, count.resources < maxResourcesPerStack]).toEqual([count.file, true]);
  });

  it(`costs at most ${resourcesPerRow} resources a row, ${resourcesPerAlias} an alias and ${resourcesPerFurtherApi} a further API serving a row, as the stack budget counts them`, () => {
    // The route stacks: the parent's routes are the root API's proxy routes to further APIs, none a row.
    const [, ...nested] = counts;
    for (const count of nested.filter((entry) => entry.routes > 0)) {
      const aliases = count.routes - count.functions;
      // A row served by a further API too has an integration (and its invoke permission) there.
      const furtherApiServings = count.integrations - count.functions;
      expect([
        count.file,
        count.resources <=
          count.functions * resourcesPerRow +
            aliases * resourcesPerAlias +
            furtherApiServings * resourcesPerFurtherApi +
            resourcesPerNestedStack,
      ]).toEqual([count.file, true]);
    }
    expect(resourcesPerStack()).toBeLessThanOrEqual(resourcesPerNestedStack);
    expect(resourcesPerRoute()).toBeLessThanOrEqual(resourcesPerRow);
  });

  it(`leaves the parent stack room for the nested stacks of ${targetRoutes} routes`, () => {
    const [root, ...nested] = counts;
    const fixed = (root?.resources ?? 0) - nested.length;

    expect(fixed + Math.ceil(targetRoutes / maxRowsPerStack) + groupRoutes(routes).size).toBeLessThan(
      maxResourcesPerStack,
    );
  });
});

describe(`a route table of ${targetRoutes} routes`, () => {
  /** The real table, filled up with rows in the existing folders (each reusing a real handler of its folder). */
  function fullTable(): Route[] {
    const shares: Record<string, number> = {
      objects: 50,
      timeline: 50,
      associations: 40,
      properties: 30,
      oauth: 25,
      default: 5,
    };
    const table: Route[] = [...routes];
    for (const [group, share] of Object.entries(shares)) {
      const template =
        routes.find((route) => routeGroupOf(route) === group && route.table !== 'none') ??
        routes.find((route) => routeGroupOf(route) === group);
      if (!template) throw new Error(`no route in functions/${group}/`);
      const existing = routes.filter((route) => routeGroupOf(route) === group).length;
      for (let index = existing; index < share; index += 1) {
        const name = `${group.replace(/-/g, '')}Extra${index}`;
        table.push({
          ...template,
          name,
          method: 'GET',
          path: `/extra/${group}/${index}`,
          aliases: undefined,
          secrets: undefined,
          throttle: undefined,
        });
      }
    }
    return table;
  }

  it(
    `synthesizes with every stack under ${maxResourcesPerStack} resources`,
    () => {
      const table = fullTable();
      // Past one HTTP API's routes (lib/api-shards.ts): several APIs behind a custom domain.
      const { stacks } = unbundledPlatform({
        routes: table,
        sandboxControls: true,
        customDomain: {
          domainName: 'api.example.com',
          certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
        },
      });
      const sizes = stacks.map((stack) => ({
        stack: stack.node.path,
        resources: Object.keys((CdkTemplate.fromStack(stack).toJSON() as { Resources: object }).Resources).length,
      }));

      expect(table.length).toBeGreaterThanOrEqual(targetRoutes);
      expect(new Set(table.map((route) => route.name)).size).toBe(table.length);
      expect(sizes.length).toBe(1 + groupRoutes(table).size);
      for (const size of sizes) expect([size.stack, size.resources < maxResourcesPerStack]).toEqual([size.stack, true]);
      expect(Math.max(...sizes.map((size) => size.resources))).toBeGreaterThan(300);
    },
    synthesisTimeoutMs,
  );

  it(`refuses a folder of more than ${maxResourcesPerStack} resources at synth, naming the fix`, () => {
    const crowded = Array.from(
      { length: maxRowsPerStack + 1 },
      (_unused, index): Route => ({
        name: `crowded${index}`,
        method: 'GET',
        path: `/crowded/${index}`,
        entry: 'functions/objects/get-object.ts',
        scopes: ['crm.objects.companies.read'],
        body: 'none',
        table: 'read',
        partitions: ['hubs'],
      }),
    );

    expect(() => groupRoutes(crowded)).toThrow(
      /functions\/objects\/ needs 407 resources.*move some handlers into a new folder/,
    );
  });
});

describe('HTTP API quotas', () => {
  it(`keeps every HTTP API within ${maxRoutesPerApi} routes and ${maxIntegrationsPerApi} integrations and every stack within ${maxResourcesPerStack} resources, printing the room left`, () => {
    const plans = testStagePlans();
    const perApi = plans.map((plan) => ({
      routes: plan.spellings.length + plan.proxiedKeys.length,
      integrations: new Set(plan.spellings.map((placed) => placed.spelling.name)).size + plan.proxiedKeys.length,
    }));
    const apiRoutes = counts.reduce((sum, count) => sum + count.routes, 0);
    const integrations = counts.reduce((sum, count) => sum + count.integrations, 0);
    const lines = [
      ...perApi.map(
        (api, index) =>
          `HTTP API ${index === 0 ? 'root' : `${index} (/${plans[index]?.mappingKeys.join(', /')})`}: ${api.routes} routes (${maxRoutesPerApi - api.routes} left), ${api.integrations} integrations (${maxIntegrationsPerApi - api.integrations} left, not raisable)`,
      ),
      ...counts.map(
        (count) =>
          `${count.file}: ${count.resources} resources (${maxResourcesPerStack - count.resources} left of the budget, ${500 - count.resources} of CloudFormation's 500)`,
      ),
      `room left: ${Math.min(...perApi.map((api) => Math.min(maxRoutesPerApi - api.routes, maxIntegrationsPerApi - api.integrations)))} more routes on the fullest HTTP API`,
    ];
    console.log(lines.join('\n'));

    // The templates hold the plan's routes: every spelling, plus a $default and a proxy route per further API.
    expect(apiRoutes).toBe(perApi.reduce((sum, api) => sum + api.routes, 0));
    expect(apiRoutes).toBe(routeSpellings.length + (plans.length - 1) + (plans[0]?.proxiedKeys.length ?? 0));
    expect(integrations).toBe(perApi.reduce((sum, api) => sum + api.integrations, 0));
    for (const api of perApi) {
      expect(api.routes).toBeLessThanOrEqual(maxRoutesPerApi);
      expect(api.integrations).toBeLessThanOrEqual(maxIntegrationsPerApi);
    }
    for (const count of counts) expect(count.resources).toBeLessThan(maxResourcesPerStack);
  });
});
