import { spellingsOf, type Route } from '../shared/base/route-types';

/**
 * CloudFormation refuses a stack of more than 500 resources. The route functions live in nested
 * stacks, one per folder of functions/ (functions/<group>/...), each kept under this budget.
 */
export const maxResourcesPerStack = 400;

/**
 * Routes (HTTP API routes: each spelling of a row's path) one nested stack may hold: at 7 resources
 * a route (function, role, log group, API route, integration, invoke permission, throttle alarm;
 * an alias of a row costs only its API route; test/lib/stack-budget.test.ts measures it) that is
 * 350 resources, under the budget with room for a new resource per route.
 */
export const maxRoutesPerStack = 50;

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

/** The rows by group, in the order of the table; throws when a group's routes (every spelling) outgrow one stack. */
export function groupRoutes(routes: readonly Route[]): Map<string, Route[]> {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const group = routeGroupOf(route);
    groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  for (const [group, members] of groups) {
    const served = members.reduce((count, member) => count + spellingsOf(member).length, 0);
    if (served > maxRoutesPerStack) {
      throw new Error(
        `functions/${group}/ serves ${served} routes; one nested stack holds at most ${maxRoutesPerStack}: move some handlers into a new folder under functions/ (docs/deploying.md)`,
      );
    }
  }
  return groups;
}
