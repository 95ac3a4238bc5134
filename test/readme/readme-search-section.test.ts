import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultRateLimits } from '../../shared/limits/rate-limits';
import type { Route } from '../../shared/base/route-types';
import { routes } from '../../shared/routes';

/**
 * The search section says what the route table and the limiter do: every search route is limited
 * (5 per second per account by default, as HubSpot's search guide states). The section is
 * docs/search.md, up to its design notes.
 */
const searchDoc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'search.md'), 'utf8');

function sectionOf(markdown: string, heading: string): string {
  const text = `\n${markdown}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/search.md has no "${heading}" heading`);
  const rest = text.slice(start + heading.length + 2);
  // The next heading of two to four #s (shell comments in its examples start with one).
  const end = rest.search(/\n#{2,4} /);
  return end < 0 ? rest : rest.slice(0, end);
}

describe("the search API's section of docs/search.md (before its design notes)", () => {
  const search = sectionOf(searchDoc, '# Search');

  it('states the per-account search limit the search route is held to', () => {
    // The CRM search of records (the lists search is counted in the install's limit, as other list calls are).
    const searchRoutes: readonly Route[] = routes.filter((route) =>
      route.path.endsWith('/objects/{objectType}/search'),
    );

    expect(searchRoutes.length).toBeGreaterThan(0);
    expect(searchRoutes.every((route) => route.rateLimit === 'search')).toBe(true);
    expect(search).toContain(`${defaultRateLimits.searchPerSecond} searches per second per account`);
  });

  it('does not list the search rate limit as not built', () => {
    const notBuilt = search.split('\n- ').find((item) => item.startsWith('Not built')) ?? '';

    expect(notBuilt).not.toMatch(/rate limit/i);
  });
});
