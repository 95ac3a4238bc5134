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

/** The resources a group's nested stack holds, as resourcesPerRow and resourcesPerAlias count them. */
export function stackResourcesOf(members: readonly Route[]): number {
  return members.reduce(
    (count, member) => count + resourcesPerRow + (spellingsOf(member).length - 1) * resourcesPerAlias,
    resourcesPerNestedStack,
  );
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
export function groupRoutes(routes: readonly Route[]): Map<string, Route[]> {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const group = routeGroupOf(route);
    groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  for (const [group, members] of groups) {
    const resources = stackResourcesOf(members);
    if (resources > maxResourcesPerStack) {
      throw new Error(
        `functions/${group}/ needs ${resources} resources (${members.length} rows at ${resourcesPerRow}, their aliases at ${resourcesPerAlias}); one nested stack holds at most ${maxResourcesPerStack}: move some handlers into a new folder under functions/ (docs/deploying.md)`,
      );
    }
  }
  return groups;
}
