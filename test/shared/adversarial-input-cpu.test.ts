import { requireAssociationLabelName, resolveAssociationType } from '../../shared/association-types/association-labels';
import { companyObjectType } from '../../shared/objects/object-types';
import { isAccountDomain, isEmailAddress } from '../../shared/admin/provisioning';
import { isNumericId } from '../../shared/records/record-id';
import { normalizeValues } from '../../shared/records/record-values';
import { normalizeDomain } from '../../shared/companies/normalize-domain';
import { toAppError } from '../../shared/http/error-mapper';
import { escapeHtml } from '../../shared/oauth/html';
import { verifyAccessToken } from '../../shared/oauth/access-token';
import { parseScopeList } from '../../shared/oauth/scopes';
import { clientCredentialsOf } from '../../shared/oauth/token-grants';
import { getProperty } from '../../shared/properties/type-properties';
import { findStandardCompanyProperty } from '../support/company-catalog';
import type { PropertyDefinition, PropertyType, FieldType } from '../../shared/properties/property-definition';
import { isDecimalNumber, validatePropertyValues } from '../../shared/properties/validate-property-values';
import { propertyNamePattern } from '../../shared/timeline/event-type-properties';
import { iframeProblems, parseTimestamp, valueProblem } from '../../shared/timeline/events';
import { parseNumericId, parsePathId, requireWellFormedJson } from '../../shared/timeline/timeline-access';
import type { EventTypeProperty } from '../../shared/db/timeline';
import { searchFormsOf } from '../../shared/records/search-forms';
import { compileSearchMatch, containsToken } from '../../shared/search/match-search';
import { compileSearch, searchLimits, type SearchInput } from '../../shared/search/search-request';
import { matchRoute } from '../../local/local-gateway';
import { adversarialLength, adversarialStrings } from '../support/adversarial-strings';

/**
 * Every function that runs a regular expression (or scans) over client text, fed 64 KiB strings
 * built to make backtracking blow up. The budget is CPU time of this process
 * (process.cpuUsage), not wall clock, so a busy machine does not fail it: 50 ms per call, where
 * a linear scan of 64 KiB takes well under 5 ms and a quadratic pattern takes
 * seconds (numberofemployees of 40,000 digits and "x": 4.6 s).
 */
const cpuBudgetMs = 50;

async function cpuMsOf(call: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  try {
    await call();
  } catch {
    // Refusing the input is the expected outcome for most of these; only the time matters here.
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function definition(
  name: string,
  type: PropertyType,
  fieldType: FieldType,
  extra: Partial<PropertyDefinition> = {},
): PropertyDefinition {
  const base = findStandardCompanyProperty('city') as PropertyDefinition;
  return { ...base, name, type, fieldType, hubspotDefined: false, options: [], ...extra };
}

const option = (value: string) => ({ label: value, value, displayOrder: 0, hidden: false });
const customDefinitions = [
  definition('custom_number', 'number', 'number'),
  definition('custom_bool', 'bool', 'booleancheckbox'),
  definition('custom_datetime', 'datetime', 'date'),
  definition('custom_date', 'date', 'date'),
  definition('custom_select', 'enumeration', 'select', { options: [option('a'), option('b')] }),
  definition('custom_checkbox', 'enumeration', 'checkbox', { options: [option('a'), option('b')] }),
  definition('custom_owner', 'enumeration', 'select', { externalOptions: true, referencedObjectType: 'OWNER' }),
  definition('custom_phone', 'phone_number', 'phonenumber'),
];
const schema = {
  find: (name: string) => findStandardCompanyProperty(name) ?? customDefinitions.find((entry) => entry.name === name),
  uniqueProperties: () => [],
};

const timelineProperty = (propertyType: EventTypeProperty['propertyType']): EventTypeProperty =>
  ({
    id: 1,
    eventTypeId: 1,
    name: 'field',
    label: 'Field',
    propertyType,
    options: propertyType === 'Enumeration' ? [{ value: 'a', label: 'A' }] : null,
  }) as EventTypeProperty;

/**
 * The longest `pattern(n)` (n characters of the value in it) whose search body stays within the
 * 3,000 characters the validation allows: the patterns a client can actually send.
 */
function longestAllowed(body: (n: number) => SearchInput, pattern: (n: number) => string): string {
  let low = 0;
  let high = searchLimits.maxBodyChars;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (JSON.stringify(body(mid)).length <= searchLimits.maxBodyChars) low = mid;
    else high = mid - 1;
  }
  return pattern(low);
}

const tokenFilter = (operator: 'CONTAINS_TOKEN' | 'NOT_CONTAINS_TOKEN', propertyName: string, value: string) => ({
  propertyName,
  operator,
  value,
});

/**
 * A company whose searchable text properties all hold the value, matched against a search that
 * passes validation: the stored values are as long as the API takes (64 KiB), the patterns as long
 * as the 3,000-character body allows, built from the value so that they nearly match it (a
 * character the value lacks at the end, or in the middle).
 */
function searchMatchOf(text: string, input: () => SearchInput): boolean {
  const forms = searchFormsOf(companyObjectType, {
    id: '1000000000000001',
    properties: { name: text, domain: text, website: text, phone: text, description: text },
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  });
  return compileSearchMatch(compileSearch(input(), schema, companyObjectType)).matches(forms);
}

/** A character no value holds: the pattern ends in one (`b` after a run of `a`). */
const lacking = '\u0007';
/** A character the value holds (its last), so the pattern passes the cheap character check and the full scan runs. */
const held = (text: string): string => text.at(-1) ?? '';
const oneTokenFilter =
  (operator: 'CONTAINS_TOKEN' | 'NOT_CONTAINS_TOKEN', pattern: (n: number) => string) => (): SearchInput => {
    const body = (n: number): SearchInput => ({
      filterGroups: [{ filters: [tokenFilter(operator, 'name', pattern(n))] }],
      limit: 1,
    });
    return { ...body(0), filterGroups: [{ filters: [tokenFilter(operator, 'name', longestAllowed(body, pattern))] }] };
  };
const searchTargets: readonly [string, (text: string) => unknown][] = [
  [
    "containsToken: * then the value's first 2,880 characters then one it lacks (the issue's shape)",
    (text) => containsToken(text, `*${text.slice(0, 2880)}${lacking}`),
  ],
  [
    'containsToken: * then 1,440 of the value, its last character, 1,440 more',
    (text) => containsToken(text, `*${text.slice(0, 1440)}${held(text)}${text.slice(0, 1440)}`),
  ],
  [
    "containsToken: the value's first 2,900 characters, no wildcard",
    (text) => containsToken(text, text.slice(0, 2900)),
  ],
  [
    'containsToken: 700 pieces of the value between stars, then its last character',
    (text) =>
      containsToken(
        text,
        `${Array.from({ length: 700 }, (_, index) => text.slice(index * 3, index * 3 + 3)).join('*')}*${held(text)}*${held(text)}`,
      ),
  ],
  [
    'search: NOT_CONTAINS_TOKEN with the longest pattern the body allows (once 1.5 s of CPU per 65,534-character name)',
    (text) =>
      searchMatchOf(
        text,
        oneTokenFilter('NOT_CONTAINS_TOKEN', (n) => `*${text.slice(0, n)}${lacking}`),
      ),
  ],
  [
    "search: NOT_CONTAINS_TOKEN with the longest pattern, the value's last character after its start",
    (text) =>
      searchMatchOf(
        text,
        oneTokenFilter('NOT_CONTAINS_TOKEN', (n) => `*${text.slice(0, n)}${held(text)}`),
      ),
  ],
  [
    "search: CONTAINS_TOKEN with the longest pattern, the value's last character in the middle",
    (text) =>
      searchMatchOf(
        text,
        oneTokenFilter(
          'CONTAINS_TOKEN',
          (n) => `*${text.slice(0, Math.floor(n / 2))}${held(text)}${text.slice(0, Math.ceil(n / 2))}*`,
        ),
      ),
  ],
  [
    'search: 18 token filters (the most allowed) on two properties, patterns sharing the body',
    (text) =>
      searchMatchOf(text, () => {
        const filters = (n: number) =>
          Array.from({ length: 6 }, (_, index) =>
            tokenFilter(
              index % 2 === 0 ? 'NOT_CONTAINS_TOKEN' : 'CONTAINS_TOKEN',
              index % 3 === 0 ? 'description' : 'name',
              `*${text.slice(index, index + n)}${held(text)}${text.slice(0, 2)}*`,
            ),
          );
        const body = (n: number): SearchInput => ({
          filterGroups: [{ filters: filters(n) }, { filters: filters(n) }, { filters: filters(n) }],
          limit: 1,
        });
        const n = longestAllowed(body, (size) => String(size));
        return body(Number(n));
      }),
  ],
  [
    "search: query of the value's last 2,990 characters",
    (text) =>
      searchMatchOf(text, () => ({
        query: longestAllowed(
          (n) => ({ query: text.slice(-n) }),
          (n) => text.slice(-n),
        ),
      })),
  ],
  [
    "search: query of many distinct short terms that occur only at the value's end",
    (text) => {
      const terms = Array.from({ length: 700 }, (_, index) => `${text.slice(0, 2)}${index.toString(36)}`);
      return searchMatchOf(`${text.slice(0, text.length - 3000)}${terms.join(' ').slice(0, 3000)}`, () => ({
        query: longestAllowed(
          (n) => ({ query: terms.slice(0, n).join(' ') }),
          (n) => terms.slice(0, n).join(' '),
        ),
      }));
    },
  ],
];

/** One row per function that tests or scans client text: its name and how to call it with one string. */
const targets: readonly [string, (text: string) => unknown][] = [
  ...[
    'numberofemployees',
    'annualrevenue',
    'closedate',
    'domain',
    'name',
    'lifecyclestage',
    'industry',
    'hubspot_owner_id',
    'hubspot_team_id',
    'hs_additional_domains',
    ...customDefinitions.map((entry) => entry.name),
  ].map((name): [string, (text: string) => unknown] => [
    `validatePropertyValues: ${name}`,
    (text) => validatePropertyValues({ [name]: text }, schema),
  ]),
  ['normalizeValues: domain', (text) => normalizeValues(companyObjectType, { domain: text }, schema)],
  [
    'normalizeValues: hs_additional_domains',
    (text) => normalizeValues(companyObjectType, { name: 'x', hs_additional_domains: text }, schema),
  ],
  ['normalizeDomain', (text) => normalizeDomain(text)],
  ['isDecimalNumber', (text) => isDecimalNumber(text)],
  ['timeline valueProblem: Numeric', (text) => valueProblem(timelineProperty('Numeric'), text)],
  ['timeline valueProblem: Date', (text) => valueProblem(timelineProperty('Date'), text)],
  ['timeline valueProblem: Enumeration', (text) => valueProblem(timelineProperty('Enumeration'), text)],
  ['timeline parseTimestamp', (text) => parseTimestamp(text)],
  [
    'timeline iframeProblems',
    (text) =>
      iframeProblems({ linkLabel: text, iframeLabel: text, iframeUri: text, width: 1, height: 1 }, 'timelineIFrame'),
  ],
  ['timeline property name pattern', (text) => propertyNamePattern.test(text)],
  ['requireWellFormedJson', (text) => requireWellFormedJson({ [text]: [text, { key: text }] })],
  ['parsePathId', (text) => parsePathId(text, 'eventTypeId')],
  ['parseNumericId', (text) => parseNumericId(text)],
  ['isNumericId', (text) => isNumericId(text)],
  ['requireAssociationLabelName', (text) => requireAssociationLabelName(text)],
  ['resolveAssociationType', (text) => resolveAssociationType(1, companyObjectType, companyObjectType, text)],
  ['getProperty (name pattern)', (text) => getProperty(companyObjectType, 1, text)],
  ['parseScopeList', (text) => parseScopeList(text)],
  ['verifyAccessToken', (text) => verifyAccessToken(text)],
  ['verifyAccessToken: payload.signature shape', (text) => verifyAccessToken(`${text}.${'A'.repeat(86)}`)],
  ['clientCredentialsOf: Basic header', (text) => clientCredentialsOf({}, text)],
  ['clientCredentialsOf: Basic prefix', (text) => clientCredentialsOf({}, `Basic ${text}`)],
  ['escapeHtml', (text) => escapeHtml(text)],
  ['toAppError: network error message', (text) => toAppError(new Error(text))],
  ['toAppError: client error message', (text) => toAppError(Object.assign(new Error(text), { statusCode: 400 }))],
  ['isEmailAddress', (text) => isEmailAddress(text)],
  ['isAccountDomain', (text) => isAccountDomain(text)],
  ['local gateway matchRoute', (text) => matchRoute('GET', `/crm/v3/objects/companies/${text}`)],
  ...searchTargets,
];

describe('CPU time of every regex-using function on 64 KiB adversarial strings', () => {
  it('uses strings of 64 KiB', () => {
    for (const text of Object.values(adversarialStrings)) expect(text).toHaveLength(adversarialLength);
  });

  it.each(targets)('%s stays within the per-call CPU budget for every adversarial string', async (_name, call) => {
    const slow: string[] = [];
    for (const [shape, text] of Object.entries(adversarialStrings)) {
      // Over budget: measured again (at most twice) and the cheapest run counts, as in the route fuzz, so a
      // garbage collection or a busy machine's stall that lands in one run does not fail it; a super-linear cost still does.
      let ms = await cpuMsOf(() => call(text));
      for (let retry = 0; ms > cpuBudgetMs && retry < 2; retry += 1) ms = Math.min(ms, await cpuMsOf(() => call(text)));
      if (ms > cpuBudgetMs) slow.push(`${shape}: ${ms.toFixed(1)} ms CPU`);
    }

    expect(slow).toEqual([]);
  });
});

describe('inputs that once cost seconds of CPU: a 40,000-digit number, a domain of 60,000 dots', () => {
  it('rejects numberofemployees of 40,000 digits and an x with INVALID_LONG within the CPU budget', async () => {
    const value = `${'1'.repeat(40_000)}x`;
    let error: unknown;

    const ms = await cpuMsOf(() => {
      try {
        validatePropertyValues({ numberofemployees: value }, schema);
      } catch (caught) {
        error = caught;
      }
    });

    expect(ms).toBeLessThan(cpuBudgetMs);
    expect(error).toMatchObject({ errors: [expect.objectContaining({ code: 'INVALID_LONG' })] });
  });

  it('rejects a domain of a, 60,000 dots and - within the CPU budget', async () => {
    let result: string | undefined = 'unset';

    const ms = await cpuMsOf(() => {
      result = normalizeDomain(`a${'.'.repeat(60_000)}-`);
    });

    expect(ms).toBeLessThan(cpuBudgetMs);
    expect(result).toBeUndefined();
  });

  it('still accepts the numbers, dates and domains it accepted before', () => {
    expect(
      validatePropertyValues(
        { numberofemployees: '1.', annualrevenue: '-.5e3', closedate: '2024-05-02T14:03:11.512+02:00' },
        schema,
      ),
    ).toEqual({ numberofemployees: '1.', annualrevenue: '-.5e3', closedate: '2024-05-02T12:03:11.512Z' });
    expect(normalizeDomain('https://www.Acme.example.../about')).toBe('acme.example');
  });
});
