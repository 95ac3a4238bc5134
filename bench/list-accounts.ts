import {
  type BenchContact,
  type BenchInstall,
  contactProperties,
  createContacts,
  installApp,
  uniqueName,
} from './bench-data';
import { jsonRequest, type ApiClient } from './http-client';

/**
 * Accounts whose contact writes meet DYNAMIC lists: the same contact create and PATCH measured in an
 * account with no list at all, with DYNAMIC lists of companies only (none of its type), and with 1
 * and 10 DYNAMIC lists of contacts (10 is the most a type may have). Every list's filters hold for
 * a contact in Boston and fail for one in Cambridge, so a write that moves a contact between the
 * two cities joins or leaves each list of its type. The `inList` account's one DYNAMIC contact list
 * also names a MANUAL list in an IN_LIST filter, which holds every contact of the account's pool.
 * The `associated` account's one DYNAMIC contact list also has an ASSOCIATION filter naming a MANUAL
 * companies list, which holds the one company every contact of the pool is associated with; the
 * `associatedBranch` account's has an ASSOCIATION branch instead, on that company's city.
 */
export const listVariants = [
  'noLists',
  'lists0',
  'lists1',
  'lists10',
  'inList',
  'associated',
  'associatedBranch',
] as const;
export type ListVariant = (typeof listVariants)[number];

export interface ListAccount {
  install: BenchInstall;
  /** Contacts in Cambridge, in no list: what the PATCH rows move to Boston and back. */
  contacts: BenchContact[];
  listIds: string[];
  /** The `inList` account: the MANUAL list its DYNAMIC list names, a MANUAL list no list names, and a contact in Boston in neither. */
  named?: { namedListId: string; plainListId: string; contactId: string };
  /** The `associated` account: the MANUAL companies list its DYNAMIC list's ASSOCIATION filter names, and the company in it. */
  associated?: { companyListId: string; companyIds: string[] };
}

export type ListAccounts = Record<ListVariant, ListAccount>;

/** What the variant's account holds: its DYNAMIC lists, by object type. */
export const variantLists: Record<ListVariant, { objectTypeId: string; count: number }> = {
  noLists: { objectTypeId: '0-1', count: 0 },
  lists0: { objectTypeId: '0-2', count: 10 },
  lists1: { objectTypeId: '0-1', count: 1 },
  lists10: { objectTypeId: '0-1', count: 10 },
  inList: { objectTypeId: '0-1', count: 1 },
  associated: { objectTypeId: '0-1', count: 1 },
  associatedBranch: { objectTypeId: '0-1', count: 1 },
};

/** The city of the `associated` and `associatedBranch` accounts' company, which their ASSOCIATION branch reads. */
const companyCity = 'Springfield';

/** contact_to_company_unlabeled: the type of a default association from a contact to a company. */
export const contactToCompanyTypeId = 279;

export const joiningCity = 'Boston';
export const leavingCity = 'Cambridge';

const stringFilter = (property: string, operator: string, value: string) => ({
  filterType: 'PROPERTY',
  property,
  operation: { operationType: 'STRING', operator, value },
});

/** The filters of the account's list number `index`: all hold in Boston, none in Cambridge, each a different tree. */
export function benchListFilter(index: number): Record<string, unknown> {
  const city = [
    stringFilter('city', 'IS_EQUAL_TO', joiningCity),
    stringFilter('city', 'STARTS_WITH', 'Bos'),
    stringFilter('city', 'ENDS_WITH', 'ston'),
    stringFilter('city', 'CONTAINS', 'osto'),
    stringFilter('city', 'IS_NOT_EQUAL_TO', leavingCity),
  ][index % 5];
  // Half the lists add a filter every bench record passes (a contact's or company's phone).
  const also = index >= 5 ? [stringFilter('phone', 'CONTAINS', '555')] : [];
  return {
    filterBranchType: 'OR',
    filters: [],
    filterBranches: [{ filterBranchType: 'AND', filterBranches: [], filters: [city, ...also] }],
  };
}

interface ListJson {
  listId: string;
  processingStatus: string;
}

/** Creates a DYNAMIC list through the API; answers its id. */
export async function createDynamicList(
  api: ApiClient,
  token: string,
  objectTypeId: string,
  filterBranch: Record<string, unknown>,
  name: string,
): Promise<string> {
  const response = await api.expectOk(
    jsonRequest('POST', '/crm/v3/lists', token, { name, objectTypeId, processingType: 'DYNAMIC', filterBranch }),
  );
  return (JSON.parse(response.body) as { list: ListJson }).list.listId;
}

/** Waits for a list's first evaluation (the job) to end: bounded by count, 50 ms apart. */
export async function awaitListComplete(api: ApiClient, token: string, listId: string, polls = 2000): Promise<void> {
  for (let poll = 0; poll < polls; poll += 1) {
    const response = await api.expectOk(jsonRequest('GET', `/crm/v3/lists/${listId}`, token));
    if ((JSON.parse(response.body) as { list: ListJson }).list.processingStatus === 'COMPLETE') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`list ${listId} was not COMPLETE after ${polls} polls`);
}

/** Creates a MANUAL list (of contacts unless told) through the API, with these members; answers its id. */
async function createManualList(
  api: ApiClient,
  token: string,
  name: string,
  recordIds: readonly string[],
  objectTypeId = '0-1',
): Promise<string> {
  const response = await api.expectOk(
    jsonRequest('POST', '/crm/v3/lists', token, { name, objectTypeId, processingType: 'MANUAL' }),
  );
  const listId = (JSON.parse(response.body) as { list: ListJson }).list.listId;
  if (recordIds.length > 0)
    await api.expectOk(jsonRequest('PUT', `/crm/v3/lists/${listId}/memberships/add`, token, recordIds));
  return listId;
}

/** The `inList` account's DYNAMIC list: the bench filter of list 0, and membership of the named list. */
function namingFilter(namedListId: string): Record<string, unknown> {
  const filter = benchListFilter(0) as { filterBranches: { filters: unknown[] }[] };
  filter.filterBranches[0]?.filters.push({ filterType: 'IN_LIST', listId: namedListId, operator: 'IN_LIST' });
  return filter;
}

/** The `inList` account's lists beside its DYNAMIC one, and a contact in Boston in none of them. */
async function namedLists(api: ApiClient, token: string, pool: readonly BenchContact[]): Promise<ListAccount['named']> {
  const namedListId = await createManualList(
    api,
    token,
    'Bench named',
    pool.map((contact) => contact.id),
  );
  const plainListId = await createManualList(api, token, 'Bench plain', []);
  const created = await api.expectOk(
    jsonRequest('POST', '/crm/v3/objects/contacts', token, {
      properties: { ...contactProperties(uniqueName('named')), city: joiningCity },
    }),
  );
  return { namedListId, plainListId, contactId: (JSON.parse(created.body) as { id: string }).id };
}

/** The `associated` account's DYNAMIC list: the bench filter of list 0, and an association with a company of the companies list. */
function associatedFilter(companyListId: string): Record<string, unknown> {
  const filter = benchListFilter(0) as { filterBranches: { filters: unknown[] }[] };
  filter.filterBranches[0]?.filters.push({
    filterType: 'ASSOCIATION',
    listId: companyListId,
    operator: 'IN_LIST',
    associationTypeId: contactToCompanyTypeId,
    associationCategory: 'HUBSPOT_DEFINED',
    coalescingRefineBy: { type: 'NUM_OCCURRENCES', minOccurrences: 1 },
  });
  return filter;
}

/** The `associatedBranch` account's DYNAMIC list: the bench filter of list 0, and an associated company in the company's city. */
function associatedBranchFilter(): Record<string, unknown> {
  const filter = benchListFilter(0) as { filterBranches: { filterBranches: unknown[] }[] };
  filter.filterBranches[0]?.filterBranches.push({
    filterBranchType: 'ASSOCIATION',
    objectTypeId: '0-2',
    operator: 'IN_LIST',
    associationTypeId: contactToCompanyTypeId,
    associationCategory: 'HUBSPOT_DEFINED',
    filterBranches: [],
    filters: [stringFilter('city', 'IS_EQUAL_TO', companyCity)],
  });
  return filter;
}

/**
 * Companies of the `associated` and `associatedBranch` accounts: a contact create of their rows
 * takes the next in turn, and a company holds at most 1,000 associations, so these take 5,000
 * creates (the full warm run sends 2,100).
 */
const associatedCompanies = 5;

/** The `associated` (and `associatedBranch`) account's companies, in a MANUAL companies list; the first associated with every contact of the pool. */
async function associatedCompany(
  api: ApiClient,
  token: string,
  pool: readonly BenchContact[],
): Promise<ListAccount['associated']> {
  const companyIds: string[] = [];
  for (let index = 0; index < associatedCompanies; index += 1) {
    const created = await api.expectOk(
      jsonRequest('POST', '/crm/v3/objects/companies', token, {
        properties: { name: uniqueName('Bench account'), city: companyCity },
      }),
    );
    companyIds.push((JSON.parse(created.body) as { id: string }).id);
  }
  const companyListId = await createManualList(api, token, 'Bench accounts', companyIds, '0-2');
  await api.expectOk(
    jsonRequest('POST', '/crm/v4/associations/contacts/companies/batch/associate/default', token, {
      inputs: pool.map((contact) => ({ from: { id: contact.id }, to: { id: companyIds[0] } })),
    }),
  );
  return { companyListId, companyIds };
}

/** One account per variant, each with `contacts` contacts in Cambridge and its lists evaluated (COMPLETE). */
export async function createListAccounts(api: ApiClient, contacts: number): Promise<ListAccounts> {
  const accounts: Partial<ListAccounts> = {};
  for (const variant of listVariants) {
    const install = await installApp(api);
    const token = install.accessToken;
    const pool = await createContacts(api, token, contacts);
    const { objectTypeId, count } = variantLists[variant];
    const named = variant === 'inList' ? await namedLists(api, token, pool) : undefined;
    const associated =
      variant === 'associated' || variant === 'associatedBranch'
        ? await associatedCompany(api, token, pool)
        : undefined;
    const filterOf = (index: number) =>
      named
        ? namingFilter(named.namedListId)
        : variant === 'associatedBranch'
          ? associatedBranchFilter()
          : associated
            ? associatedFilter(associated.companyListId)
            : benchListFilter(index);
    const listIds: string[] = [];
    for (let index = 0; index < count; index += 1)
      listIds.push(await createDynamicList(api, token, objectTypeId, filterOf(index), `Bench ${variant} ${index}`));
    for (const listId of listIds) await awaitListComplete(api, token, listId);
    accounts[variant] = {
      install,
      contacts: pool,
      listIds,
      ...(named ? { named } : {}),
      ...(associated ? { associated } : {}),
    };
  }
  return accounts as ListAccounts;
}
