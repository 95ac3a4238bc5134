import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as keys from '../../shared/db/keys';
import { partitions, type PartitionName } from '../../shared/db/keys';
import type { Route, RouteSpelling } from '../../shared/base/route-types';
import { routeSpellings, routes as routeTable } from '../../shared/routes';
import { synthesisTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';

/**
 * Each function may reach only the partitions its row lists in shared/routes.ts (its `partitions`
 * column; an IAM dynamodb:LeadingKeys condition). A partition missing there would fail in AWS only, with
 * AccessDenied, so these tests check the list against the code that ships: every key format lives
 * in shared/db/keys.ts as a template literal (`HUB#${hubId}`), and esbuild keeps in a bundle only
 * the key functions the route's code can reach. A partition prefix found in a route's bundle is a
 * partition its code can address, and must be granted.
 */
const routes: readonly Route[] = routeTable;
/** Every spelling of every row; a spelling's function is its row's (named by the row). */
const spellings: readonly RouteSpelling[] = routeSpellings;
const partitionNames = Object.keys(partitions) as PartitionName[];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `HUB#*` -> a string or template literal starting `HUB#`; `COUNTER` -> exactly the literal `COUNTER`. */
function literalPattern(pattern: string): RegExp {
  return pattern.endsWith('*')
    ? new RegExp(`["'\`]${escapeRegExp(pattern.slice(0, -1))}`)
    : new RegExp(`["'\`]${escapeRegExp(pattern)}["'\`]`);
}

/** The partitions whose key literals are in the text. */
function partitionsIn(text: string): PartitionName[] {
  return partitionNames.filter((name) => literalPattern(partitions[name]).test(text));
}

/** IAM's StringLike with `*` only (the patterns above use nothing else). */
function matches(value: string, pattern: string): boolean {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's').test(value);
}

let bundleText: Map<string, string>;

beforeAll(async () => {
  const platform = await synthesizedPlatform();
  const resources = (
    platform.template('api') as {
      Resources: Record<
        string,
        { Type: string; Properties: { Description?: string }; Metadata?: Record<string, unknown> }
      >;
    }
  ).Resources;
  bundleText = new Map();
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const name = /^(\w+): /.exec(resource.Properties.Description ?? '')?.[1];
    if (name)
      bundleText.set(
        name,
        readFileSync(path.join(platform.outdir, String(resource.Metadata?.['aws:asset:path']), 'index.mjs'), 'utf8'),
      );
  }
}, synthesisTimeoutMs);

describe('the partitions of shared/db/keys.ts', () => {
  type KeyFunction = (...args: unknown[]) => keys.Key;
  const keyFunctions = Object.entries(keys as Record<string, unknown>).filter(
    (entry): entry is [string, KeyFunction] => typeof entry[1] === 'function' && entry[0].endsWith('Key'),
  );

  it.each(keyFunctions.map(([name, fn]) => [name, fn] as const))(
    'name the partition of every key %s builds',
    (_name, fn) => {
      const { pk } = fn(...Array.from({ length: fn.length }, () => '7'));

      expect([pk, partitionNames.filter((name) => matches(pk, partitions[name]))]).toEqual([pk, [expect.any(String)]]);
    },
  );

  it("finds each partition's literal in keys.ts and in no other file of shared/db", () => {
    const source = readFileSync(path.join(__dirname, '..', '..', 'shared', 'db', 'keys.ts'), 'utf8');
    const definitions = source.slice(0, source.indexOf('export const partitions'));

    expect(keyFunctions.length).toBeGreaterThan(10);
    for (const name of partitionNames)
      expect([name, literalPattern(partitions[name]).test(definitions)]).toEqual([name, true]);
  });
});

describe('the partitions column of shared/routes.ts', () => {
  it('names on every row only partitions of shared/db/keys.ts, each once', () => {
    for (const route of routes) {
      expect([route.name, route.partitions.filter((name) => !(partitionNames as string[]).includes(name))]).toEqual([
        route.name,
        [],
      ]);
      expect([route.name, new Set(route.partitions).size]).toEqual([route.name, route.partitions.length]);
    }
  });

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    'gives %s partitions exactly when its row has table access',
    (_name, route) => {
      expect(route.partitions.length > 0).toBe(route.table !== 'none');
      for (const name of route.partitions) expect(partitionNames).toContain(name);
    },
  );

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    'grants %s every partition its shipped bundle can build a key in',
    (_name, route) => {
      const text = bundleText.get(route.name);
      if (text === undefined) throw new Error(`no bundle for ${route.name}`);
      // Every bundle carries the rate limiter and the auth step's install check (the shared handler),
      // which run only for rows that take access tokens: those get the limiter's UpdateItem and the
      // install state's GetItem by rule (lib/route-stack.ts, checked in api-stack.test.ts), never by a
      // list here. A route that does more with the install states lists them (the token routes do). So
      // does the check for a test account's injected faults (shared/http/fault-injection.ts): its Query and
      // UpdateItem are granted by rule when the stage deploys the sandbox controls; a row that manages
      // faults (the sandbox controls) lists them.
      const reachable = partitionsIn(text).filter(
        (name) => name !== 'rateLimits' && name !== 'installStates' && name !== 'faults',
      );

      // The scan must see the keys of any route that uses the table; an empty scan would prove nothing.
      if (route.table !== 'none') expect(reachable.length).toBeGreaterThan(0);
      expect(reachable.filter((name) => !route.partitions.includes(name))).toEqual([]);
    },
  );

  it('detects a partition a bundle reaches', () => {
    // The scan itself, on what esbuild makes of keys.ts: a template literal, and a plain string for COUNTER.
    expect(partitionsIn('const a=e=>({pk:`USER#${e}`,sk:"USER"}),b=()=>({pk:"COUNTER",sk:t});')).toEqual([
      'counters',
      'users',
    ]);
    expect(partitionsIn('x=`USEDCODE#${e}`;y={sk:`COUNTER#${n}`}')).toEqual(['usedAuthCodes']);
  });
});
