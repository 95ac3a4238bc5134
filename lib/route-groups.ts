import { spellingsOf, type Route } from '../shared/base/route-types';

/**
 * CloudFormation refuses a stack of more than 500 resources. The route functions live in nested
 * stacks, one per folder of functions/ (functions/<group>/...), each kept under this budget.
 */
export const maxResourcesPerStack = 400;

/**
 * What a row costs its nested stack: function, role, log group, API route, integration, invoke
 * permission, throttle alarm. Each alias of the row (another spelling of its path, a dated twin
 * among them) costs its API route only. test/lib/stack-budget.test.ts measures both.
 */
export const resourcesPerRow = 7;
export const resourcesPerAlias = 1;
/** What a nested stack holds besides its routes (the CLI's version reporting). */
export const resourcesPerNestedStack = 1;
/** What a row costs for each further HTTP API that serves some of its spellings (lib/api-shards.ts): an integration and its invoke permission. */
export const resourcesPerFurtherApi = 2;

/**
 * Where a row is served: by how many HTTP APIs, and in how many routes (its spellings, and the
 * `$default` row's copy on each further API). One API and one route per spelling unless the table is
 * split (lib/api-shards.ts).
 */
export interface RowFootprint {
  apis: number;
  routes: number;
}
export type FootprintOf = (route: Route) => RowFootprint;
const oneApi: FootprintOf = (route) => ({ apis: 1, routes: spellingsOf(route).length });

/** The resources a group's nested stack holds, as resourcesPerRow, resourcesPerAlias and resourcesPerFurtherApi count them. */
export function stackResourcesOf(members: readonly Route[], footprintOf: FootprintOf = oneApi): number {
  return members.reduce((count, member) => {
    const { apis, routes } = footprintOf(member);
    return count + resourcesPerRow + (routes - 1) * resourcesPerAlias + (apis - 1) * resourcesPerFurtherApi;
  }, resourcesPerNestedStack);
}

/**
 * The group (and so the nested stack) of a route: the folder of its handler under functions/,
 * `default` for a handler directly in functions/. A route never moves between stacks unless its
 * file moves: API Gateway refuses a route key that another stack still holds, so a move needs two
 * deployments (remove, then add).
 */
export function routeGroupOf(route: Route): string {
  const match = /^functions\/(?:([a-z0-9-]+)\/)?[^/]+\.ts$/.exec(route.entry);
  if (!match) throw new Error(`route ${route.name}: entry ${route.entry} is not a .ts file under functions/`);
  return match[1] ?? 'default';
}

/** `timeline` -> `TimelineRoutes`, `deal-pipelines` -> `DealPipelinesRoutes`: the nested stack's construct id. */
export function routeStackIdOf(group: string): string {
  return `${group
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Routes`;
}

/** The rows by group, in the order of the table; throws when a group's routes outgrow one stack's budget. */
export function groupRoutes(routes: readonly Route[], footprintOf: FootprintOf = oneApi): Map<string, Route[]> {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const group = routeGroupOf(route);
    groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  for (const [group, members] of groups) {
    const resources = stackResourcesOf(members, footprintOf);
    if (resources > maxResourcesPerStack) {
      throw new Error(
        `functions/${group}/ needs ${resources} resources (${members.length} rows at ${resourcesPerRow}, their aliases at ${resourcesPerAlias}); one nested stack holds at most ${maxResourcesPerStack}: move some handlers into a new folder under functions/ (docs/deploying.md)`,
      );
    }
  }
  return groups;
}
