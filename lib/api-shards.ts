import { spellingsOf, type Route, type RouteSpelling } from '../shared/base/route-types';

/** API Gateway's default quota of routes per HTTP API (raisable on request: the `routesPerApi` context). */
export const maxRoutesPerApi = 300;
/** API Gateway's quota of integrations per HTTP API, one per function an API invokes: not raisable. */
export const maxIntegrationsPerApi = 300;

export interface ApiCapacity {
  routes: number;
  integrations: number;
}

/** A spelling of a row as one HTTP API serves it. */
export interface PlacedSpelling {
  spelling: RouteSpelling;
  /** The route key's path on its API: the spelling's path less the API mapping key that leads there. */
  apiPath: string;
}

/**
 * One HTTP API of the deployment. The first is the root API: the custom domain's empty mapping (and,
 * with one API, the only one). Each further API is reached through its mapping keys: API Gateway sends
 * a request whose path starts with a key to that key's API, the key stripped (the longest key wins),
 * and every other request to the root API.
 */
export interface PlannedApi {
  /** '' for the root API; else `crm/v3`, `crm/objects`, ...: each a family of paths it serves in full. */
  mappingKeys: string[];
  spellings: PlacedSpelling[];
  /** On the root API behind proxies (ApiLinking): the keys it forwards, one `ANY /{key}/{proxy+}` route each. */
  proxiedKeys: string[];
}

const segmentsOf = (path: string): string[] => path.split('/').slice(1);
const isParameter = (segment: string): boolean => segment.startsWith('{');

/**
 * The mapping key a spelling could move under: its first two segments when both are literal
 * (`/crm/v3/objects/...`: `crm/v3`), its first alone when only that one is (`/crm-object-schemas/{version}/...`:
 * `crm-object-schemas`); none for a path of fewer than three segments or one that starts with a parameter,
 * and none for `$default`. Keys are merged later where one is a prefix of another.
 */
export function mappingKeyCandidateOf(path: string): string | undefined {
  if (path === '$default') return undefined;
  const segments = segmentsOf(path);
  const [first, second] = segments;
  if (segments.length < 3 || first === undefined || second === undefined || isParameter(first)) return undefined;
  return isParameter(second) ? first : `${first}/${second}`;
}

const isUnder = (path: string, key: string): boolean => path === `/${key}` || path.startsWith(`/${key}/`);

/** Whether some request path could match both route paths (the same method assumed): equal segment counts, each pair equal or a parameter. */
export function pathsOverlap(left: string, right: string): boolean {
  if (left === '$default' || right === '$default') return left === right;
  const a = segmentsOf(left);
  const b = segmentsOf(right);
  return (
    a.length === b.length &&
    a.every((segment, index) => {
      const other = b[index] ?? '';
      return segment === other || isParameter(segment) || isParameter(other);
    })
  );
}

/** Whether a route path could match a request path that starts with the key (so the root API would never see it once the key moves). */
function couldMatchUnder(path: string, key: string): boolean {
  if (path === '$default') return false;
  const segments = segmentsOf(path);
  const keySegments = key.split('/');
  return (
    segments.length >= keySegments.length &&
    keySegments.every((segment, index) => {
      const own = segments[index] ?? '';
      return own === segment || isParameter(own);
    })
  );
}

interface Family {
  key: string;
  spellings: RouteSpelling[];
  /** A spelling left on the root API could match a path under the key: the family stays on the root API. */
  pinned: boolean;
}

function familiesOf(routes: readonly Route[]): { rootOnly: RouteSpelling[]; families: Family[] } {
  const all = routes.flatMap((route) => spellingsOf(route));
  const candidates = [
    ...new Set(all.map((spelling) => mappingKeyCandidateOf(spelling.path)).filter((key) => key !== undefined)),
  ];
  // A key under another key (`crm-object-schemas/v3` under `crm-object-schemas`) joins it.
  const keys = candidates
    .filter((key) => !candidates.some((other) => other !== key && key.startsWith(`${other}/`)))
    .sort();
  const rootOnly: RouteSpelling[] = [];
  const members = new Map<string, RouteSpelling[]>(keys.map((key) => [key, []]));
  for (const spelling of all) {
    const key = keys.find((candidate) => isUnder(spelling.path, candidate) && mappingKeyCandidateOf(spelling.path));
    if (key) members.get(key)?.push(spelling);
    else rootOnly.push(spelling);
  }
  const families = keys.map((key) => ({
    key,
    spellings: members.get(key) ?? [],
    pinned: rootOnly.some((spelling) => couldMatchUnder(spelling.path, key)),
  }));
  return { rootOnly, families };
}

const integrationsOf = (spellings: readonly PlacedSpelling[]): number =>
  new Set(spellings.map((placed) => placed.spelling.name)).size;

const strip = (path: string, key: string): string => (key === '' ? path : path.slice(key.length + 1) || '/');

/**
 * How further APIs are reached. `mappings`: a custom domain's API mappings send a request whose path
 * starts with a key to that key's API with the key taken off (the longest key wins), every other
 * request to the root API. `proxy` (no custom domain): the root API has an `ANY /{key}/{proxy+}` route
 * per key (an HTTP proxy integration, one route and one integration on the root API) that forwards
 * the request, path unchanged, to the key's API.
 */
export type ApiLinking = 'mappings' | 'proxy';

/**
 * The HTTP APIs that serve the route table within each API's quotas: one API while the table fits
 * one, else the root API plus further APIs, each serving whole families of paths under its keys
 * (first fit, largest family first). Every further API also routes `$default` to the table's
 * `$default` row, so an unknown path under its keys answers as one anywhere else does. Behind API
 * mappings two families share an API only when no request path could match routes of both once
 * their keys are taken off; behind the root API's proxies paths keep their keys and never collide.
 * Throws when the families the root API must keep (a spelling there could match their paths) do not fit it.
 */
export function planApis(
  routes: readonly Route[],
  capacity: ApiCapacity,
  linking: ApiLinking = 'mappings',
): PlannedApi[] {
  const all = routes.flatMap((route) => spellingsOf(route));
  const whole: PlacedSpelling[] = all.map((spelling) => ({ spelling, apiPath: spelling.path }));
  if (all.length <= capacity.routes && integrationsOf(whole) <= capacity.integrations)
    return [{ mappingKeys: [''], spellings: whole, proxiedKeys: [] }];
  const { rootOnly, families } = familiesOf(routes);
  // Behind proxies the root API holds a route and an integration per moved key: keep room for them.
  for (let reserve = 0; reserve <= families.length; reserve += 1) {
    const apis = packFamilies(all, rootOnly, families, capacity, linking, reserve);
    const proxies = linking === 'proxy' ? apis.slice(1).reduce((sum, api) => sum + api.mappingKeys.length, 0) : 0;
    if (proxies <= reserve) {
      const [root, ...further] = apis;
      if (!root) break;
      return [
        { ...root, proxiedKeys: linking === 'proxy' ? further.flatMap((api) => api.mappingKeys) : [] },
        ...further,
      ];
    }
  }
  throw new Error('the root HTTP API has no room for the proxies of its further APIs');
}

function packFamilies(
  all: readonly RouteSpelling[],
  rootOnly: readonly RouteSpelling[],
  families: readonly Family[],
  capacity: ApiCapacity,
  linking: ApiLinking,
  rootReserve: number,
): PlannedApi[] {
  const fallback = all.find((spelling) => spelling.path === '$default');
  const root: PlannedApi = {
    mappingKeys: [''],
    spellings: rootOnly.map((spelling) => ({ spelling, apiPath: spelling.path })),
    proxiedKeys: [],
  };
  const apis: PlannedApi[] = [root];
  const ordered = [...families].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) || b.spellings.length - a.spellings.length || (a.key < b.key ? -1 : 1),
  );
  const keyOn = (api: PlannedApi, family: Family) => (api === root || linking === 'proxy' ? '' : family.key);
  for (const family of ordered) {
    const fits = (api: PlannedApi): boolean => {
      const key = keyOn(api, family);
      const reserve = api === root ? rootReserve : 0;
      const placed = family.spellings.map((spelling) => ({ spelling, apiPath: strip(spelling.path, key) }));
      if (api.spellings.length + placed.length + reserve > capacity.routes) return false;
      if (integrationsOf([...api.spellings, ...placed]) + reserve > capacity.integrations) return false;
      if (api === root || linking === 'proxy') return true;
      return !placed.some((mine) =>
        api.spellings.some(
          (theirs) =>
            theirs.spelling.method === mine.spelling.method &&
            theirs.apiPath !== '$default' &&
            pathsOverlap(theirs.apiPath, mine.apiPath),
        ),
      );
    };
    const candidates = family.pinned ? [root] : apis;
    let api = candidates.find(fits);
    if (!api && family.pinned) {
      throw new Error(
        `the root HTTP API cannot hold /${family.key}/... (${family.spellings.length} routes): a route left on the root API could match its paths, so it cannot move to another API`,
      );
    }
    if (!api) {
      api = {
        mappingKeys: [],
        spellings: fallback ? [{ spelling: fallback, apiPath: '$default' }] : [],
        proxiedKeys: [],
      };
      if (!fits(api))
        throw new Error(
          `/${family.key}/... needs ${family.spellings.length} routes, more than one HTTP API of ${capacity.routes} routes holds`,
        );
      apis.push(api);
    }
    const key = keyOn(api, family);
    if (api !== root) api.mappingKeys.push(family.key);
    api.spellings.push(...family.spellings.map((spelling) => ({ spelling, apiPath: strip(spelling.path, key) })));
  }
  return apis;
}

/**
 * The API and route path that serve a request path: by longest key (API Gateway's rule for a custom
 * domain's mappings, and the root API's proxy routes, whose literal prefixes are the keys); behind
 * proxies the path keeps its key.
 */
export function apiServing(
  apis: readonly PlannedApi[],
  requestPath: string,
  linking: ApiLinking = 'mappings',
): { api: PlannedApi; apiPath: string } {
  let best: { api: PlannedApi; key: string } | undefined;
  for (const api of apis)
    for (const key of api.mappingKeys)
      if ((key === '' || isUnder(requestPath, key)) && (!best || key.length > best.key.length)) best = { api, key };
  if (!best) throw new Error('no API has the empty mapping');
  return { api: best.api, apiPath: linking === 'proxy' ? requestPath : strip(requestPath, best.key) };
}
