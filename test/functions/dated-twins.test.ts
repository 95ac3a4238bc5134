import type { RunningGateway } from '../../local/local-gateway';
import { isDatedTwin, spellingsOf, type RouteSpelling } from '../../shared/base/route-types';
import { routes } from '../../shared/routes';
import { install, journalAppScopes, startTestGateway, type InstalledTokens } from '../support/harness';
import { fixtureOf, paramValues, type World } from '../support/route-fixtures';
import { buildWorld, sendRaw, type RawResponse } from '../support/route-world';

/**
 * Every row with a dated spelling, called on its numbered path in one account and on its dated path
 * in a twin account that holds the same records (built by the same requests, in the same order): the
 * two answer the same status and body, ids, times and links aside, except the differences HubSpot's
 * dated specs list (`expectedDifferences`). Each pair runs in table order in both accounts, so a row
 * that changes its account (a delete, an archive) leaves both accounts alike for the rows after it.
 */
jest.setTimeout(180_000);

interface Side {
  owner: InstalledTokens;
  world: World;
}

let gateway: RunningGateway;
let numbered: Side;
let dated: Side;

/** Rows whose dated spelling answers differently by HubSpot's dated specs (HUBSPOT-WIRE-FACTS-4 §3): their numbered and dated statuses. */
const expectedDifferences: Readonly<Record<string, { numbered: number; dated: number }>> = {
  batchArchiveAssociationsDated: { numbered: 204, dated: 200 },
  batchArchiveAssociationLabelsDated: { numbered: 204, dated: 200 },
  batchPurgeAssociationLimitsDated: { numbered: 204, dated: 200 },
};

const pairs: { row: RouteSpelling; twin: RouteSpelling }[] = routes.flatMap((route) => {
  const [own, ...aliases] = spellingsOf(route);
  if (!own || fixtureOf(own).endsCallersInstall) return [];
  return aliases.filter((alias) => isDatedTwin(alias)).map((twin) => ({ row: own, twin }));
});

const takesKey = (route: RouteSpelling) => route.auth === 'developerKey' || route.auth === 'developerAccount';

/** A valid request of the row's fixture (the same for both spellings), on the given spelling's path. */
function call(side: Side, route: RouteSpelling, row: RouteSpelling): Promise<RawResponse> {
  const fixture = fixtureOf(row);
  const values: Record<string, string> = { ...paramValues(side.world), ...fixture.validParams };
  const path = route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(values[name] ?? ''));
  const body = fixture.validBody?.(side.world);
  const headers: Record<string, string> = takesKey(route) ? {} : { authorization: `Bearer ${side.owner.accessToken}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const query = takesKey(route)
    ? `?hapikey=${encodeURIComponent(side.owner.developerApiKey)}`
    : fixture.validQuery === undefined
      ? ''
      : `?${fixture.validQuery}`;
  return sendRaw(
    gateway.baseUrl,
    route.method === 'ANY' ? 'POST' : route.method,
    `${path}${query}`,
    headers,
    body === undefined ? undefined : JSON.stringify(body),
  );
}

/** The account's own values (its world's ids and names, its app, account and user), longest first, each with a name. */
function valuesOf(side: Side): [string, string][] {
  const named: [string, unknown][] = [
    ...Object.entries(side.world).flatMap(([name, value]): [string, unknown][] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value as Record<string, unknown>).map(([inner, leaf]) => [`${name}.${inner}`, leaf])
        : [[name, value]],
    ),
    ['hubId', side.owner.hubId],
    ['hubDomain', side.owner.hubDomain],
    ['userId', side.owner.userId],
    ['developerId', side.owner.developerId],
  ];
  return named
    .map(([name, value]): [string, string] => [name, String(value)])
    .filter(([name, value]) => value.length >= 3 || (value.length > 0 && /Id$/.test(name)))
    .sort((a, b) => b[1].length - a[1].length);
}

/**
 * A value in a text: anywhere when it is long enough to be the account's own; a short id only as
 * the whole text or as a word of an error message ("Subscription 2 not found.").
 */
function replaceValue(text: string, value: string, name: string, key: string | undefined): string {
  if (value.length >= 3) return text.split(value).join(`<${name}>`);
  if (text === value) return `<${name}>`;
  if (key !== 'message') return text;
  const escaped = value.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\w.])${escaped}(?![\\w.])`, 'g'), `<${name}>`);
}

/** Keys whose values are ids, times or links: set by the service per record, call or spelling. */
const maskedKey =
  /^(id|ids|link|correlationId|objectWriteTraceId|timestamp|startedAt|completedAt|requestedAt)$|(Id|Ids|At|date|Date|_id|Timestamp)$/;

function normalized(response: RawResponse, side: Side): unknown {
  if (response.text === '') return '';
  const values = valuesOf(side);
  const substituted = (text: string, key?: string): string =>
    values.reduce((result, [name, value]) => replaceValue(result, value, name, key), text);
  const mask = (value: unknown, key?: string): unknown => {
    if (key !== undefined && maskedKey.test(key) && (typeof value === 'string' || typeof value === 'number'))
      return '<masked>';
    if (typeof value === 'string') return substituted(value, key);
    if (typeof value === 'number') {
      const named = values.find(([, own]) => own.length >= 3 && own === String(value));
      return named ? `<${named[0]}>` : value;
    }
    // A folder's childLists name lists that earlier rows created: ids of the one list sequence, as listIds are.
    if (Array.isArray(value)) return value.map((item) => mask(item, key === 'childLists' ? 'listId' : undefined));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([inner, leaf]) => [substituted(inner), mask(leaf, inner)]));
    return value;
  };
  return mask(JSON.parse(response.text));
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const stranger = await install(gateway);
  // The world holds a journal subscription of the owner's app: its app lists the journal scopes.
  const numberedOwner = await install(gateway, { scopes: [...journalAppScopes] });
  const datedOwner = await install(gateway, { scopes: [...journalAppScopes] });
  numbered = { owner: numberedOwner, world: (await buildWorld(gateway, numberedOwner, stranger)).world };
  dated = { owner: datedOwner, world: (await buildWorld(gateway, datedOwner, stranger)).world };
});

afterAll(async () => {
  await gateway.close();
});

describe('a dated call and its numbered twin, in accounts holding the same records', () => {
  it('covers every dated spelling of the table', () => {
    const datedSpellings = routes.flatMap((route) => spellingsOf(route).filter((spelling) => isDatedTwin(spelling)));

    expect(pairs.map((pair) => pair.twin.spelling).sort()).toEqual(
      datedSpellings.map((spelling) => spelling.spelling).sort(),
    );
    for (const name of Object.keys(expectedDifferences))
      expect([name, pairs.some((pair) => pair.twin.spelling === name)]).toEqual([name, true]);
  });

  // One test in table order: each pair's calls change both accounts alike for the pairs after it.
  it('answer the same status and body for every row, but the listed differences', async () => {
    const mismatches: string[] = [];
    for (const { row, twin } of pairs) {
      const numberedAnswer = await call(numbered, row, row);
      const datedAnswer = await call(dated, twin, row);
      const difference = expectedDifferences[twin.spelling];
      if (difference) {
        const body = JSON.parse(datedAnswer.text) as Record<string, unknown>;
        if (
          numberedAnswer.status !== difference.numbered ||
          numberedAnswer.text !== '' ||
          datedAnswer.status !== difference.dated ||
          body.status !== 'COMPLETE' ||
          !Array.isArray(body.results)
        )
          mismatches.push(
            `${twin.spelling}: ${numberedAnswer.status} ${numberedAnswer.text} / ${datedAnswer.status} ${datedAnswer.text}`,
          );
        continue;
      }
      const left = { status: numberedAnswer.status, body: normalized(numberedAnswer, numbered) };
      const right = { status: datedAnswer.status, body: normalized(datedAnswer, dated) };
      if (JSON.stringify(left) !== JSON.stringify(right))
        mismatches.push(`${twin.spelling}: ${JSON.stringify(left)}\n  vs ${JSON.stringify(right)}`);
    }

    expect(mismatches).toEqual([]);
  });
});
