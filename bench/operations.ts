import type { CallBudget } from './budgets';
import type { BenchContact, BenchInstall, TimelineFixture } from './bench-data';
import { benchSchemaBody, companyProperties, contactProperties, uniqueName } from './bench-data';
import { formRequest, jsonRequest, type ApiRequest, type ApiResponse } from './http-client';
import {
  contactToCompanyTypeId,
  joiningCity,
  leavingCity,
  type ListAccount,
  type ListAccounts,
  type ListVariant,
} from './list-accounts';

/** What the operations work on; filled by the setup and by the operations themselves (created ids). */
export interface BenchState {
  install: BenchInstall;
  /** An install whose account has the rate limits on: its calls pay the limiter's DynamoDB call. */
  limitedInstall: BenchInstall;
  /** Companies of the rate-limited install's account. */
  limitedIds: string[];
  /** Companies made by the setup: targets of batch reads and associations. */
  poolIds: string[];
  /** Companies made by the create operation, in order: targets of reads and updates. */
  createdIds: string[];
  /** Contacts made by the setup: targets of contact reads, updates and searches when no create ran. */
  contactPool: BenchContact[];
  /** Contacts made by the contact create operation, in order: targets of contact reads and updates. */
  createdContacts: BenchContact[];
  /** Products made by the product create operation: what the line item create names. */
  createdProducts: string[];
  /** A custom object type the setup made (its type id): what the custom record create names. */
  customTypeId: string;
  /** The list the list create operation made: what the membership operations change and page. */
  listId?: string;
  /** The list folder the folder create operation made (the list moves into it), and a folder inside it. */
  listFolderId?: string;
  listSubfolderId?: string;
  /** The accounts of the list-write rows (bench/list-accounts.ts): none, other types', 1 and 10 DYNAMIC contact lists. */
  listAccounts?: ListAccounts;
  /** The sandbox rows' test account (made by the create row) and the access token of its install. */
  testAccount?: { hubId: number; accessToken?: string };
  /** The webhooks journal subscription and filter the journal rows made (of the install's app, in its account). */
  journalSubscriptionId?: number;
  journalFilterId?: number;
  /** The offsets of the install's app's journal entries the setup wrote (bench-data.ts seedJournal), in journal order. */
  journalOffsets: string[];
  /** The path and query of an entry file's signed URL, from the last journal read that handed one out. */
  journalFilePath?: string;
  /** An install the uninstall operation ends (its own, so the others live on). */
  installToEnd: BenchInstall;
  timeline: TimelineFixture;
  /** Deterministic pseudo-random choice, so a run is repeatable. */
  random: () => number;
}

export interface Operation {
  name: string;
  /** What the request does, for the table. */
  label: string;
  budget: CallBudget;
  /** The status the request must answer (2xx unless the operation is about an error path). */
  expectedStatus?: number;
  /** Whether the warm-latency section measures it (auth only exists in the cost table). */
  isWarm: boolean;
  /** At most this many warm iterations (and one chunk of warmup): for rows whose request writes 100 records. */
  warmIterations?: number;
  /**
   * What the access-token install check finds (shared/oauth/install-status.ts): the install's state
   * cached, as on a warm instance within a minute of its last read (the default), or nothing cached,
   * as on an instance's first call for the install (then once a minute).
   */
  installState?: 'cached' | 'notCached';
  request(iteration: number, state: BenchState): ApiRequest;
  afterResponse?(response: ApiResponse, state: BenchState): void;
}

const companies = '/crm/v3/objects/companies';
const contacts = '/crm/v3/objects/contacts';
const journalSubscriptions = '/webhooks-journal/subscriptions/2026-03';
const journal = '/webhooks-journal/journal/2026-03';
const journalLocal = '/webhooks-journal/journal-local/2026-03';
/** The offset the journal's `next` rows start from: the first entry, so 100 entries follow it. */
const firstJournalOffset = (state: BenchState): string => state.journalOffsets[0] ?? '';
/** The association limit configurations (docs/crm-objects.md, association limits). */
const associationLimits = '/crm/associations/v4/definitions/configurations';
/** Association type 450: company_to_company, unlabeled (v3 PUT with the numeric type id). */
const companyToCompany = 450;
/** The contact the v4 operations associate with companies (the first of the pool), and read from. */
const benchContact = (state: BenchState): string => state.contactPool[0]?.id ?? '';

const pick = <T>(values: readonly T[], index: number): T => {
  const value = values[index % values.length];
  if (value === undefined) throw new Error('no fixture value to pick from');
  return value;
};

/** A sandbox control's path and the developer API key (`/sandbox/v1/test-accounts…?hapikey=`). */
const sandboxPath = (state: BenchState, path = ''): string =>
  `/sandbox/v1/test-accounts${state.testAccount ? `/${state.testAccount.hubId}` : ''}${path}?hapikey=${encodeURIComponent(state.install.developerApiKey)}`;

const idsToRead = (state: BenchState): string[] => (state.createdIds.length > 0 ? state.createdIds : state.poolIds);
const contactsToRead = (state: BenchState): BenchContact[] =>
  state.createdContacts.length > 0 ? state.createdContacts : state.contactPool;

const numberedOperations: readonly Operation[] = [
  {
    name: 'auth',
    label: 'bearer token check (valid token, install state cached, non-numeric id: 404 before any read)',
    isWarm: false,
    budget: {},
    expectedStatus: 404,
    request: (_iteration, state) => jsonRequest('GET', `${companies}/not-an-id`, state.install.accessToken),
  },
  {
    name: 'authInstallCheck',
    label: "bearer token check, install state not cached (an instance's first call of an install, then once a minute)",
    isWarm: false,
    // One strongly consistent GetItem of the install's state.
    budget: { GetItemCommand: 1 },
    expectedStatus: 404,
    installState: 'notCached',
    request: (_iteration, state) => jsonRequest('GET', `${companies}/not-an-id`, state.install.accessToken),
  },
  {
    name: 'tokenRefresh',
    label: 'POST /oauth/v1/token (refresh_token grant)',
    isWarm: true,
    // The token and the app in one batch; then, side by side, the account (its current rate limits go into
    // the new token) and the install state (an ended install's refresh tokens stop at once).
    budget: { BatchGetItemCommand: 1, GetItemCommand: 2 },
    request: (_iteration, { install }) =>
      formRequest('/oauth/v1/token', {
        grant_type: 'refresh_token',
        client_id: install.clientId,
        client_secret: install.clientSecret,
        refresh_token: install.refreshToken,
      }),
  },
  {
    name: 'tokenMetadata',
    label: 'GET /oauth/v1/access-tokens/{token}',
    isWarm: true,
    // The grant and the install state, side by side.
    budget: { GetItemCommand: 2 },
    request: (_iteration, { install }) =>
      jsonRequest('GET', `/oauth/v1/access-tokens/${install.accessToken}`, undefined),
  },
  {
    name: 'createRecord',
    label: 'POST /crm/v3/objects/companies',
    isWarm: true,
    budget: { TransactWriteItemsCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('POST', companies, install.accessToken, { properties: companyProperties(uniqueName('create')) }),
    afterResponse: (response, state) => {
      state.createdIds.push((JSON.parse(response.body) as { id: string }).id);
    },
  },
  {
    name: 'readCompany',
    label: 'GET /crm/v3/objects/companies/{id}',
    isWarm: true,
    budget: { GetItemCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('GET', `${companies}/${pick(idsToRead(state), iteration)}`, state.install.accessToken),
  },
  {
    name: 'readCompanyLimited',
    label:
      'GET /crm/v3/objects/companies/{id}, rate limits on (the limiter UpdateItem, or a leased permit, before the read)',
    isWarm: true,
    budget: { GetItemCommand: 1, UpdateItemCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('GET', `${companies}/${pick(state.limitedIds, iteration)}`, state.limitedInstall.accessToken),
  },
  {
    name: 'updateRecord',
    label: 'PATCH /crm/v3/objects/companies/{id}',
    isWarm: true,
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('PATCH', `${companies}/${pick(idsToRead(state), iteration)}`, state.install.accessToken, {
        properties: { name: `Renamed ${iteration}`, city: iteration % 2 === 0 ? 'Boston' : 'Cambridge' },
      }),
  },
  {
    name: 'listPage',
    label: 'GET /crm/v3/objects/companies?limit=100&after=…',
    isWarm: true,
    budget: { QueryCommand: 1 },
    request: (_iteration, state) => {
      const sorted = [...state.poolIds].sort();
      const start = Math.floor(state.random() * Math.max(1, sorted.length - 100));
      const after = sorted[start];
      return jsonRequest('GET', `${companies}?limit=100${after ? `&after=${after}` : ''}`, state.install.accessToken);
    },
  },
  {
    name: 'batchRead',
    label: 'POST /crm/v3/objects/companies/batch/read (100 ids)',
    isWarm: true,
    budget: { BatchGetItemCommand: 1 },
    request: (_iteration, state) => {
      const ids = new Set<string>();
      while (ids.size < Math.min(100, state.poolIds.length))
        ids.add(pick(state.poolIds, Math.floor(state.random() * state.poolIds.length)));
      return jsonRequest('POST', `${companies}/batch/read`, state.install.accessToken, {
        inputs: [...ids].map((id) => ({ id })),
        properties: ['name', 'domain', 'city'],
        propertiesWithHistory: [],
      });
    },
  },
  {
    name: 'searchById',
    label: 'POST /crm/v3/objects/companies/search (EQ on hs_object_id)',
    isWarm: true,
    // A unique value pins the record: read by key, the projection is not read.
    budget: { GetItemCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('POST', `${companies}/search`, state.install.accessToken, {
        filterGroups: [
          { filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: pick(state.poolIds, iteration) }] },
        ],
      }),
  },
  {
    name: 'searchContactsModifiedSince',
    label: 'POST /crm/v3/objects/contacts/search (lastmodifieddate GT T, ascending, limit 100: the sync page)',
    isWarm: true,
    // The ordered index: its state and the count (1 BatchGetItem), the first 100 keys of each of the 16 shards,
    // the range's keys counted per shard (16 Queries while a shard's range fits a page), the page's values (1 BatchGetItem).
    budget: { BatchGetItemCommand: 2, QueryCommand: 32 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v3/objects/contacts/search', state.install.accessToken, {
        filterGroups: [
          { filters: [{ propertyName: 'lastmodifieddate', operator: 'GT', value: '2020-01-01T00:00:00Z' }] },
        ],
        sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
        limit: 100,
      }),
  },
  {
    name: 'searchContactsDefaultPage',
    label: 'POST /crm/v3/objects/contacts/search (no filter, limit 100: the default order)',
    isWarm: true,
    // The state and the record count, 16 index Queries, the page's values.
    budget: { BatchGetItemCommand: 2, QueryCommand: 16 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v3/objects/contacts/search', state.install.accessToken, { limit: 100 }),
  },
  {
    name: 'searchFiltered',
    label: 'POST /crm/v3/objects/companies/search (CONTAINS_TOKEN on name, sorted, limit 100)',
    isWarm: false,
    // One Query per projection shard while a shard holds at most searchPageItems (500) companies (the pool does); O(account size) beyond.
    budget: { QueryCommand: 16 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${companies}/search`, state.install.accessToken, {
        filterGroups: [{ filters: [{ propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'bench' }] }],
        sorts: ['-name'],
        limit: 100,
      }),
  },
  {
    name: 'createContact',
    label: 'POST /crm/v3/objects/contacts',
    isWarm: true,
    // The company create's budget: one transaction (record, projection, email claim). An email blocked by a GDPR
    // delete is refused by that claim's condition, so the blocklist costs no read.
    budget: { TransactWriteItemsCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('POST', contacts, install.accessToken, { properties: contactProperties(uniqueName('create')) }),
    afterResponse: (response, state) => {
      const created = JSON.parse(response.body) as { id: string; properties: { email: string } };
      state.createdContacts.push({ id: created.id, email: created.properties.email });
    },
  },
  {
    name: 'readContact',
    label: 'GET /crm/v3/objects/contacts/{id}',
    isWarm: true,
    budget: { GetItemCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('GET', `${contacts}/${pick(contactsToRead(state), iteration).id}`, state.install.accessToken),
  },
  {
    name: 'readContactByEmail',
    label: 'GET /crm/v3/objects/contacts/{email}?idProperty=email',
    isWarm: true,
    // The email's unique item names the contact, then the contact: as a company read by domain.
    budget: { GetItemCommand: 2 },
    request: (iteration, state) =>
      jsonRequest(
        'GET',
        `${contacts}/${encodeURIComponent(pick(contactsToRead(state), iteration).email)}?idProperty=email`,
        state.install.accessToken,
      ),
  },
  {
    name: 'updateContact',
    label: 'PATCH /crm/v3/objects/contacts/{id} (firstname and city)',
    isWarm: true,
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('PATCH', `${contacts}/${pick(contactsToRead(state), iteration).id}`, state.install.accessToken, {
        properties: { firstname: `Renamed ${iteration}`, city: iteration % 2 === 0 ? 'Boston' : 'Cambridge' },
      }),
  },
  {
    name: 'searchContactByEmail',
    label: 'POST /crm/v3/objects/contacts/search (EQ on email)',
    isWarm: true,
    // The unique value pins the contact: its unique item, then the contact by key (the search section's eqDomain, ≤ 2 calls); the projection is not read.
    budget: { GetItemCommand: 2 },
    request: (iteration, state) =>
      jsonRequest('POST', `${contacts}/search`, state.install.accessToken, {
        filterGroups: [
          {
            filters: [{ propertyName: 'email', operator: 'EQ', value: pick(contactsToRead(state), iteration).email }],
          },
        ],
      }),
  },
  {
    name: 'batchCreateContacts',
    label: 'POST /crm/v3/objects/contacts/batch/create (100 inputs)',
    // Warm with 40 iterations (each writes 100 contacts); the floor sends the recorded commands one after another,
    // where the batch sends its transactions 4 at a time, so the ratio favours the API.
    isWarm: true,
    warmIterations: 40,
    // Grouped: each contact is 5 items (record, projection, email claim, two ordered-index keys), 9 to a 50-item group
    // with its count: 12 transactions,
    // written 4 at a time (shared/records/batch-records.ts), as batchCreateCompanies. One BatchGetItem more: the emails'
    // claims are read before anything is written, since a taken email answers HubSpot's whole-request 409.
    budget: { BatchGetItemCommand: 1, TransactWriteItemsCommand: 12 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${contacts}/batch/create`, state.install.accessToken, {
        inputs: Array.from({ length: 100 }, () => ({ properties: contactProperties(uniqueName('batch')) })),
      }),
  },
  {
    name: 'createNote',
    label: 'POST /crm/v3/objects/notes (associated with a contact)',
    isWarm: true,
    // The account's association limits (a create with associations reads them), then one transaction: the note, its
    // projection and the contact's side of the association (its existence the condition).
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('POST', '/crm/v3/objects/notes', state.install.accessToken, {
        properties: {
          hs_timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, iteration)).toISOString(),
          hs_note_body: 'Bench',
        },
        associations: [
          {
            to: { id: pick(contactsToRead(state), iteration).id },
            types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }],
          },
        ],
      }),
  },
  {
    name: 'createProduct',
    label: 'POST /crm/v3/objects/products',
    isWarm: true,
    budget: { TransactWriteItemsCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('POST', '/crm/v3/objects/products', install.accessToken, {
        properties: { name: uniqueName('product'), price: '25', hs_sku: 'B-1' },
      }),
    afterResponse: (response, state) => {
      state.createdProducts.push((JSON.parse(response.body) as { id: string }).id);
    },
  },
  {
    name: 'createLineItemFromProduct',
    label: 'POST /crm/v3/objects/line_items (hs_product_id: name, price, SKU copied)',
    isWarm: true,
    // The product, read once for its values and its existence, then one transaction.
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (iteration, state) =>
      jsonRequest('POST', '/crm/v3/objects/line_items', state.install.accessToken, {
        properties: { hs_product_id: pick(state.createdProducts, iteration), quantity: '2' },
      }),
  },
  {
    name: 'createObjectSchema',
    label: 'POST /crm-object-schemas/v3/schemas (2 properties, 1 associated type)',
    // Once per run: an account holds at most 10 custom object types.
    isWarm: false,
    // The account's schemas (cap and name), the schema id and the association type ids, then one transaction
    // (schema, name claim, count, group, properties, property count, 4 association type items).
    budget: { QueryCommand: 1, UpdateItemCommand: 2, TransactWriteItemsCommand: 1 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm-object-schemas/v3/schemas', state.install.accessToken, benchSchemaBody()),
  },
  {
    name: 'createCustomObject',
    label: 'POST /crm/v3/objects/2-<id> (a record of a custom type, with a custom required property)',
    isWarm: true,
    // The account's schemas (the path's type), its custom property definitions (the values' checks), one transaction.
    budget: { QueryCommand: 2, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', `/crm/v3/objects/${state.customTypeId}`, state.install.accessToken, {
        properties: { serial: uniqueName('serial'), size: '3' },
      }),
  },
  {
    name: 'batchCreateCompanies',
    label: 'POST /crm/v3/objects/companies/batch/create (100 inputs with a domain)',
    isWarm: true,
    warmIterations: 40,
    // Each company is 5 items (record, projection, domain claim, two ordered-index keys): 12 transactions, as batchCreateContacts.
    budget: { TransactWriteItemsCommand: 12 },
    request: (_iteration, { install }) =>
      jsonRequest('POST', `${companies}/batch/create`, install.accessToken, {
        inputs: Array.from({ length: 100 }, () => ({ properties: companyProperties(uniqueName('batch')) })),
      }),
  },
  {
    name: 'associationPut',
    label: 'PUT /crm/v3/objects/companies/{id}/associations/companies/{id}/450',
    isWarm: true,
    // Reads the source company and the account's association limits, then writes both ends in one transaction (the
    // target's existence is its condition).
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    request: (iteration, state) => {
      const ids = state.createdIds.length >= 2 ? state.createdIds : state.poolIds;
      const from = pick(ids, iteration);
      const to = pick(ids, iteration + 1);
      return jsonRequest(
        'PUT',
        `${companies}/${from}/associations/companies/${to}/${companyToCompany}`,
        state.install.accessToken,
      );
    },
  },
  {
    name: 'v4AssociationPut',
    label: 'PUT /crm/v4/objects/companies/{id}/associations/contacts/{id} (Primary, replaces)',
    isWarm: false,
    // Reads the company, the account's association limits and the contact (a primary company moves: its former one
    // loses the label), then one transaction: the company, the contact's side and the former primary company's side.
    budget: { GetItemCommand: 3, TransactWriteItemsCommand: 1 },
    request: (iteration, state) =>
      jsonRequest(
        'PUT',
        `/crm/v4/objects/companies/${pick(idsToRead(state), iteration)}/associations/contacts/${benchContact(state)}`,
        state.install.accessToken,
        [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 2 }],
      ),
  },
  {
    name: 'v4AssociationPage',
    label: 'GET /crm/v4/objects/companies/{id}/associations/contacts (a page of up to 500)',
    isWarm: false,
    // The company item holds its associations.
    budget: { GetItemCommand: 1 },
    request: (iteration, state) =>
      jsonRequest(
        'GET',
        `/crm/v4/objects/companies/${pick(idsToRead(state), iteration)}/associations/contacts`,
        state.install.accessToken,
      ),
  },
  {
    name: 'v4ReverseAssociationPage',
    label: 'GET /crm/v4/objects/contacts/{id}/associations/companies?limit=100',
    isWarm: false,
    // The contact's item holds its side of each association.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest(
        'GET',
        `/crm/v4/objects/contacts/${benchContact(state)}/associations/companies?limit=100`,
        state.install.accessToken,
      ),
  },
  {
    name: 'v4BatchCreate',
    label: 'POST /crm/v4/associations/companies/contacts/batch/create (100 pairs of one company)',
    isWarm: false,
    // The account's association limits, once for the batch. Pairs are grouped by company; each pair also updates the
    // contact's item, so the company's 100 pairs take two transactions of at most 90 (one read and one transaction each).
    budget: { GetItemCommand: 3, TransactWriteItemsCommand: 2 },
    expectedStatus: 201,
    request: (iteration, state) => {
      const id = pick(idsToRead(state), iteration);
      return jsonRequest('POST', '/crm/v4/associations/companies/contacts/batch/create', state.install.accessToken, {
        inputs: state.contactPool.slice(0, 100).map((contact) => ({
          from: { id },
          to: { id: contact.id },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }],
        })),
      });
    },
  },
  {
    name: 'v4BatchCreateSpread',
    label:
      'POST /crm/v4/associations/companies/contacts/batch/create (one pair per pool company and contact, up to 500)',
    isWarm: false,
    // The account's association limits, once for the batch. The companies are read together (one BatchGetItem per
    // 100) and written 33 to a transaction (record, projection and the contact's side each: 99 items), so 500 pairs
    // take 5 reads and 16 transactions.
    budget: { GetItemCommand: 1, BatchGetItemCommand: 5, TransactWriteItemsCommand: 16 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v4/associations/companies/contacts/batch/create', state.install.accessToken, {
        inputs: [...new Set(state.poolIds)].slice(0, Math.min(500, state.contactPool.length)).map((id, index) => ({
          from: { id },
          to: { id: state.contactPool[index]?.id ?? '' },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }],
        })),
      }),
  },
  {
    name: 'v4BatchRead',
    label: 'POST /crm/v4/associations/companies/contacts/batch/read (1,000 company ids)',
    isWarm: false,
    // One BatchGetItem per 100 companies; ids without associations (most of the pool) are 207 errors.
    budget: { BatchGetItemCommand: 10 },
    expectedStatus: 207,
    request: (_iteration, state) => {
      const ids = [...new Set(state.poolIds)].slice(0, 990);
      while (ids.length < 1000) ids.push(String(900_000_000_000 + ids.length));
      return jsonRequest('POST', '/crm/v4/associations/companies/contacts/batch/read', state.install.accessToken, {
        inputs: ids.map((id) => ({ id })),
      });
    },
  },
  {
    name: 'v4BatchReadReverse',
    label: 'POST /crm/v4/associations/contacts/companies/batch/read (1,000 contact ids)',
    isWarm: false,
    // One BatchGetItem per 100 contacts: each contact's item holds its side; ids without associations are 207 errors.
    budget: { BatchGetItemCommand: 10 },
    expectedStatus: 207,
    request: (_iteration, state) => {
      const ids = state.contactPool.slice(0, 990).map((contact) => contact.id);
      while (ids.length < 1000) ids.push(String(900_000_000_000 + ids.length));
      return jsonRequest('POST', '/crm/v4/associations/contacts/companies/batch/read', state.install.accessToken, {
        inputs: ids.map((id) => ({ id })),
      });
    },
  },
  {
    name: 'createProperty',
    label: 'POST /crm/v3/properties/companies (a custom text property)',
    isWarm: false,
    // The catalog (one Query: name, label and the caps answered early), then one transaction: the
    // definition and the account's count item, whose condition holds the caps.
    budget: { QueryCommand: 1, TransactWriteItemsCommand: 1 },
    expectedStatus: 201,
    request: (_iteration, state) => {
      const name = uniqueName('bench_prop').replaceAll('-', '_');
      return jsonRequest('POST', '/crm/v3/properties/companies', state.install.accessToken, {
        name,
        label: name,
        type: 'string',
        fieldType: 'text',
        groupName: 'companyinformation',
      });
    },
  },
  {
    name: 'createAssociationLabel',
    label: 'POST /crm/v4/associations/companies/contacts/labels (a custom label, two type ids)',
    isWarm: false,
    // The pair's labels (one Query), the type-id counter (UpdateItem), each direction's names item
    // (GetItem x2; the account's first label of a pair finds none and lists that direction to seed
    // it: a Query each), then one transaction: both types' two items and both names items, whose
    // conditions hold the cap of 10 and name uniqueness.
    budget: { QueryCommand: 3, UpdateItemCommand: 1, GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v4/associations/companies/contacts/labels', state.install.accessToken, {
        name: uniqueName('bench_label').replaceAll('-', '_'),
        label: 'Bench label',
      }),
  },
  {
    name: 'timelineEventRead',
    label: 'GET /integrations/v1/{appId}/timeline/event/{typeId}/{id}',
    isWarm: true,
    budget: { GetItemCommand: 2 },
    request: (_iteration, { install, timeline }) =>
      jsonRequest(
        'GET',
        `/integrations/v1/${install.appId}/timeline/event/${timeline.eventTypeId}/${timeline.eventId}`,
        install.accessToken,
      ),
  },
  {
    name: 'webhookSubscriptions',
    label: 'GET /webhooks/v3/{appId}/subscriptions?hapikey=… (developer key check, then one Query)',
    isWarm: false,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest(
        'GET',
        `/webhooks/v3/${install.appId}/subscriptions?hapikey=${encodeURIComponent(install.developerApiKey)}`,
        undefined,
      ),
  },
  // The webhooks journal (2026-03), with the app's own token: every call first reads the token's grant
  // record (GetItem, strongly consistent: a revoked token is refused at once). In this order: the upsert
  // makes the subscription, the filter rows add, read and delete a filter of it, then the deletes.
  {
    name: 'upsertJournalSubscription',
    label: 'POST /webhooks-journal/subscriptions/2026-03 (OBJECT, contacts; warm: the same key, an update)',
    isWarm: true,
    // The grant, the install in the account, the key's claim; a create: its id (UpdateItem) and one transaction
    // of the subscription, its claim and the app's count; an update: one UpdateItem.
    budget: { GetItemCommand: 3, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('POST', journalSubscriptions, install.appToken, {
        subscriptionType: 'OBJECT',
        objectTypeId: '0-1',
        portalId: install.hubId,
        actions: ['CREATE', 'UPDATE'],
        properties: ['email', 'firstname'],
      }),
    afterResponse: (response, state) => {
      state.journalSubscriptionId = (JSON.parse(response.body) as { id: number }).id;
    },
  },
  {
    name: 'listJournalSubscriptions',
    label: 'GET /webhooks-journal/subscriptions/2026-03 (one subscription)',
    isWarm: true,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) => jsonRequest('GET', journalSubscriptions, install.appToken),
  },
  {
    name: 'getJournalSubscription',
    label: 'GET /webhooks-journal/subscriptions/2026-03/{subscriptionId}',
    isWarm: true,
    budget: { GetItemCommand: 2 },
    request: (_iteration, state) =>
      jsonRequest('GET', `${journalSubscriptions}/${state.journalSubscriptionId}`, state.install.appToken),
  },
  {
    name: 'createJournalFilter',
    label: 'POST /webhooks-journal/subscriptions/2026-03/filters (one condition)',
    isWarm: false,
    // The grant and the subscription; the filter's id (UpdateItem); one transaction of the filter and the subscription's filter set.
    budget: { GetItemCommand: 2, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${journalSubscriptions}/filters`, state.install.appToken, {
        subscriptionId: state.journalSubscriptionId,
        filter: {
          conditions: [
            { filterType: 'CRM_OBJECT_PROPERTY', property: 'lifecyclestage', operator: 'EQ', value: 'lead' },
          ],
        },
      }),
    afterResponse: (response, state) => {
      state.journalFilterId = (JSON.parse(response.body) as { filterId: number }).filterId;
    },
  },
  {
    name: 'getJournalFilter',
    label: 'GET /webhooks-journal/subscriptions/2026-03/filters/{filterId}',
    isWarm: false,
    budget: { GetItemCommand: 2 },
    request: (_iteration, state) =>
      jsonRequest('GET', `${journalSubscriptions}/filters/${state.journalFilterId}`, state.install.appToken),
  },
  {
    name: 'listJournalSubscriptionFilters',
    label: 'GET /webhooks-journal/subscriptions/2026-03/filters/subscription/{subscriptionId} (one filter)',
    isWarm: false,
    // The grant, the subscription (its filter ids), the filters in one BatchGetItem.
    budget: { GetItemCommand: 2, BatchGetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest(
        'GET',
        `${journalSubscriptions}/filters/subscription/${state.journalSubscriptionId}`,
        state.install.appToken,
      ),
  },
  {
    name: 'deleteJournalFilter',
    label: 'DELETE /webhooks-journal/subscriptions/2026-03/filters/{filterId}',
    isWarm: false,
    expectedStatus: 204,
    // The grant and the filter; one transaction of the filter and the subscription's filter set.
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('DELETE', `${journalSubscriptions}/filters/${state.journalFilterId}`, state.install.appToken),
  },
  {
    name: 'deleteJournalSubscription',
    label: 'DELETE /webhooks-journal/subscriptions/2026-03/{subscriptionId} (no filters left)',
    isWarm: false,
    expectedStatus: 204,
    // The grant and the subscription; one transaction of it, its claim, its filters and the app's count.
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('DELETE', `${journalSubscriptions}/${state.journalSubscriptionId}`, state.install.appToken),
  },
  {
    name: 'deleteJournalPortalSubscriptions',
    label:
      'DELETE /webhooks-journal/subscriptions/2026-03/portals/{portalId} (none left; one transaction per subscription)',
    isWarm: false,
    expectedStatus: 204,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('DELETE', `${journalSubscriptions}/portals/${install.hubId}`, install.appToken),
  },
  // The webhooks journal's reads (the setup wrote 101 entries): the grant's GetItem, then one Query (or one
  // BatchGetItem) of the app's journal partition, whatever the count; each entry's URL is signed in-process.
  {
    name: 'getJournalEarliest',
    label: 'GET /webhooks-journal/journal/2026-03/earliest',
    isWarm: true,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) => jsonRequest('GET', `${journal}/earliest`, install.appToken),
    afterResponse: (response, state) => {
      const url = new URL((JSON.parse(response.body) as { url: string }).url);
      state.journalFilePath = `${url.pathname}${url.search}`;
    },
  },
  {
    name: 'getJournalLatest',
    label: 'GET /webhooks-journal/journal-local/2026-03/latest?installPortalId= (the install partition)',
    isWarm: false,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) =>
      jsonRequest('GET', `${journalLocal}/latest?installPortalId=${install.hubId}`, install.appToken),
  },
  {
    name: 'getJournalNext',
    label: 'GET /webhooks-journal/journal/2026-03/offset/{offset}/next',
    isWarm: true,
    // One Query from the offset's own entry (it must exist) to the one after it.
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `${journal}/offset/${firstJournalOffset(state)}/next`, state.install.appToken),
  },
  {
    name: 'getJournalBatchEarliest',
    label: 'GET /webhooks-journal/journal/2026-03/batch/earliest/100',
    isWarm: false,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) => jsonRequest('GET', `${journal}/batch/earliest/100`, install.appToken),
  },
  {
    name: 'getJournalBatchLatest',
    label: 'GET /webhooks-journal/journal/2026-03/batch/latest/100',
    isWarm: false,
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, { install }) => jsonRequest('GET', `${journal}/batch/latest/100`, install.appToken),
  },
  {
    name: 'getJournalBatchNext',
    label: 'GET /webhooks-journal/journal/2026-03/batch/{offset}/next/100 (100 entries follow the offset)',
    isWarm: true,
    // One Query of 101 entries: the offset's own and the 100 after it.
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `${journal}/batch/${firstJournalOffset(state)}/next/100`, state.install.appToken),
  },
  {
    name: 'readJournalBatch',
    label: 'POST /webhooks-journal/journal/2026-03/batch/read (100 offsets)',
    isWarm: false,
    budget: { GetItemCommand: 1, BatchGetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${journal}/batch/read`, state.install.appToken, {
        inputs: state.journalOffsets.slice(0, 100),
      }),
  },
  {
    name: 'getJournalFile',
    label: "GET an entry's file through its signed URL (no Authorization header)",
    isWarm: true,
    // The signature is checked in-process; one GetItem of the entry.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', state.journalFilePath ?? '', undefined),
  },
  {
    name: 'uninstall',
    label: 'DELETE /appinstalls/2026-03/external-install (an install of its own)',
    isWarm: false,
    // One transaction: the install state says ended, the install record goes.
    budget: { TransactWriteItemsCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) =>
      jsonRequest('DELETE', '/appinstalls/2026-03/external-install', state.installToEnd.accessToken),
  },
  {
    name: 'readPipeline',
    label: "GET /crm/v3/pipelines/deals/default (the account's default deal pipeline)",
    isWarm: false,
    // One GetItem of the pipeline's item, stages inside; none stored before the type's first change means the shipped default.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/pipelines/deals/default', state.install.accessToken),
  },
  {
    name: 'ownersPage',
    label: "GET /crm/v3/owners/?limit=100 (a page of the account's owners)",
    isWarm: false,
    // One Query of the account's owner items (limit + 1 of them tells whether a next page exists).
    budget: { QueryCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/owners/?limit=100', state.install.accessToken),
  },
  {
    name: 'accountDetails',
    label: "GET /account-info/v3/details (the token's account)",
    isWarm: false,
    // The account's item (is it a test account?); the rest are the documented defaults.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/account-info/v3/details', state.install.accessToken),
  },
  {
    name: 'privateAppsDailyUsage',
    label: 'GET /account-info/v3/api-usage/daily/private-apps (no private apps: no results)',
    isWarm: false,
    // The account's item: an account that is gone answers 404.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', '/account-info/v3/api-usage/daily/private-apps', state.install.accessToken),
  },
  {
    name: 'recordLimits',
    label: 'GET /crm/v3/limits/records (every type, its 16 record counters)',
    isWarm: false,
    // One Query of the schemas; then 16 counters a type, 100 keys a BatchGetItem: 2 for the 11 standard types
    // and the setup's custom type, 4 at most (10 custom types).
    budget: { QueryCommand: 1, BatchGetItemCommand: 4 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/limits/records', state.install.accessToken),
  },
  {
    name: 'customObjectTypeLimits',
    label: 'GET /crm/v3/limits/custom-object-types (the schema count item)',
    isWarm: false,
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/limits/custom-object-types', state.install.accessToken),
  },
  {
    name: 'customPropertyLimits',
    label: "GET /crm/v3/limits/custom-properties (every type's catalog count item)",
    isWarm: false,
    // One Query of the schemas, one BatchGetItem of at most 21 count items.
    budget: { QueryCommand: 1, BatchGetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/limits/custom-properties', state.install.accessToken),
  },
  {
    name: 'calculatedPropertyLimits',
    label: 'GET /crm/v3/limits/calculated-properties (none defined: the types listed)',
    isWarm: false,
    budget: { QueryCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', '/crm/v3/limits/calculated-properties', state.install.accessToken),
  },
  {
    name: 'pipelineLimits',
    label: "GET /crm/v3/limits/pipelines (deals' and tickets' count items)",
    isWarm: false,
    // The count items in one BatchGetItem beside one Query of the schemas.
    budget: { QueryCommand: 1, BatchGetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/limits/pipelines', state.install.accessToken),
  },
  {
    name: 'associationLabelLimits',
    label: "GET /crm/v3/limits/associations/labels (every pair's names item)",
    isWarm: false,
    // The schemas and the names items, one Query each, side by side.
    budget: { QueryCommand: 2 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/limits/associations/labels', state.install.accessToken),
  },
  {
    name: 'typesNearAssociationLimit',
    label: "GET /crm/v3/limits/associations/records/from (the pairs' totals items)",
    isWarm: false,
    // One Query of the schemas beside one of the totals items the association limit tracker keeps.
    budget: { QueryCommand: 2 },
    request: (_iteration, state) =>
      jsonRequest('GET', '/crm/v3/limits/associations/records/from', state.install.accessToken),
  },
  {
    name: 'typesNearAssociationLimitFrom',
    label: "GET /crm/v3/limits/associations/records/0-1/to (a standard type: its pairs' totals items)",
    isWarm: false,
    // One Query of the schemas (the to-types may be custom) beside one of the from type's totals items.
    budget: { QueryCommand: 2 },
    request: (_iteration, state) =>
      jsonRequest('GET', '/crm/v3/limits/associations/records/0-1/to', state.install.accessToken),
  },
  {
    name: 'associationRecordLimits',
    label: 'GET /crm/v3/limits/associations/records/0-1/{customType} (the custom type checked, totals and samples)',
    isWarm: false,
    // One Query of the schemas finds the custom type; then the pair's totals item and one Query of samples per level, side by side.
    budget: { QueryCommand: 3, GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `/crm/v3/limits/associations/records/0-1/${state.customTypeId}`, state.install.accessToken),
  },
  {
    name: 'createTestAccount',
    label: 'POST /sandbox/v1/test-accounts (a test account and its user)',
    isWarm: false,
    // The key; the hub id; one transaction (account, listing, the developer's count); the user: the account and
    // the email read, the user and owner ids, one transaction (user, owner, pointer).
    budget: { GetItemCommand: 3, UpdateItemCommand: 3, TransactWriteItemsCommand: 2 },
    expectedStatus: 201,
    request: (_iteration, state) => jsonRequest('POST', sandboxPath(state), undefined, { name: 'Bench' }),
    afterResponse: (response, state) => {
      state.testAccount = { hubId: Number((JSON.parse(response.body) as { hubId?: number }).hubId) };
    },
  },
  {
    name: 'installTestAccountApp',
    label: 'POST /sandbox/v1/test-accounts/{hubId}/installs (the token endpoint body, no browser)',
    isWarm: false,
    // The key, the listing (the account's domain with it), the app (by id, then by client id) and the owner (a
    // Query); the code put and redeemed as the token endpoint does (account and install state read), each a
    // transaction with the check of the account's write hold (shared/db/write-guard.ts).
    budget: { GetItemCommand: 6, QueryCommand: 1, TransactWriteItemsCommand: 2 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', sandboxPath(state, '/installs'), undefined, {
        appId: state.install.appId,
        scopes: ['crm.objects.companies.read', 'crm.objects.contacts.read', 'crm.objects.contacts.write'],
      }),
    afterResponse: (response, state) => {
      if (state.testAccount)
        state.testAccount.accessToken = String((JSON.parse(response.body) as { access_token?: string }).access_token);
    },
  },
  {
    name: 'createTestAccountFault',
    label: 'POST /sandbox/v1/test-accounts/{hubId}/faults (503 on GET /crm/v3/objects/tickets, 1000 calls)',
    isWarm: false,
    // The key, the listing, the put with the cap's count in one transaction.
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', sandboxPath(state, '/faults'), undefined, {
        method: 'GET',
        path: '/crm/v3/objects/tickets',
        status: 503,
        count: 1000,
      }),
  },
  {
    name: 'faultedCall',
    label: "GET /crm/v3/objects/tickets with the test account's token (an injected 503)",
    isWarm: false,
    // The account's faults, the one taken on condition: nothing else (not the limiter, not the handler).
    budget: { QueryCommand: 1, UpdateItemCommand: 1 },
    expectedStatus: 503,
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/objects/tickets', state.testAccount?.accessToken ?? ''),
  },
  {
    name: 'loadTestAccountFixtures',
    label: 'POST /sandbox/v1/test-accounts/{hubId}/fixtures (a company, 2 contacts, 2 associations)',
    isWarm: false,
    // The key, the listing, the owner, the property definitions of each type (checked once per type, then
    // again by each type's batch create), the contacts' emails (claims); one grouped transaction per type;
    // the company, which holds both pairs (it has the most associations), read and written once, with the account's
    // association limits read once for its write.
    budget: { GetItemCommand: 4, QueryCommand: 2, BatchGetItemCommand: 2, TransactWriteItemsCommand: 3 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', sandboxPath(state, '/fixtures'), undefined, {
        records: [
          { ref: 'acme', objectType: 'companies', properties: { name: 'Bench fixture' } },
          { ref: 'jane', objectType: 'contacts', properties: { email: `${uniqueName('jane')}@fixture.example` } },
          { ref: 'john', objectType: 'contacts', properties: { email: `${uniqueName('john')}@fixture.example` } },
        ],
        associations: ['jane', 'john'].map((from) => ({
          from,
          to: 'acme',
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }],
        })),
      }),
  },
  {
    name: 'setTestAccountWriteValidation',
    label: 'PUT /sandbox/v1/test-accounts/{hubId}/write-validation/companies (one required property)',
    isWarm: false,
    // The key, the listing (standard properties and type: no definitions or schemas read); the put, a
    // transaction with the check of the account's write hold.
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('PUT', sandboxPath(state, '/write-validation/companies'), undefined, { requiredOnCreate: ['name'] }),
  },
  {
    name: 'getTestAccountWriteValidation',
    label: 'GET /sandbox/v1/test-accounts/{hubId}/write-validation/companies',
    isWarm: false,
    // The key, the listing, the rules.
    budget: { GetItemCommand: 3 },
    request: (_iteration, state) => jsonRequest('GET', sandboxPath(state, '/write-validation/companies'), undefined),
  },
  {
    name: 'flushTestAccountWebhooks',
    label: 'POST /sandbox/v1/test-accounts/{hubId}/webhooks/flush (nothing pending)',
    isWarm: false,
    // The key, the listing; the flush counted in and out of the account's marker around one Query of its pending batches.
    budget: { GetItemCommand: 2, QueryCommand: 1, UpdateItemCommand: 2 },
    request: (_iteration, state) => jsonRequest('POST', sandboxPath(state, '/webhooks/flush'), undefined),
  },
  {
    name: 'resetTestAccount',
    label: 'POST /sandbox/v1/test-accounts/{hubId}/reset (after the fixtures; every partition of every type read)',
    isWarm: false,
    // The key, the listing, the account, the apps of the delivery log; the write hold put and taken away (a
    // BatchWriteItem each) and the reset's start marked; the record counters, then 48 partitions (16 shards x projection and two orders) per type with active records
    // (2 here: 96), the event listing, the list listing (none here: no member partition), the apps' logs and their
    // journals' install partitions, the pending batches, the association limit markers and the hub partition, page by page.
    budget: { GetItemCommand: 5, QueryCommand: 105, UpdateItemCommand: 1, BatchWriteItemCommand: 12 },
    expectedStatus: 204,
    request: (_iteration, state) => jsonRequest('POST', sandboxPath(state, '/reset'), undefined),
  },
  {
    name: 'listAllAssociationLimits',
    label: 'GET /crm/associations/v4/definitions/configurations/all',
    isWarm: false,
    // The account's limits are one item (HubSpot's types need no read for their labels).
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', `${associationLimits}/all`, state.install.accessToken),
  },
  {
    name: 'batchCreateAssociationLimits',
    label: 'POST /crm/associations/v4/definitions/configurations/companies/contacts/batch/create (one limit)',
    isWarm: false,
    // The limits item read, then put on the version read.
    budget: { GetItemCommand: 1, PutItemCommand: 1 },
    expectedStatus: 201,
    request: (_iteration, state) =>
      jsonRequest('POST', `${associationLimits}/companies/contacts/batch/create`, state.install.accessToken, {
        inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 2, maxToObjectIds: 1000 }],
      }),
  },
  {
    name: 'listAssociationLimits',
    label: 'GET /crm/associations/v4/definitions/configurations/companies/contacts',
    isWarm: false,
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `${associationLimits}/companies/contacts`, state.install.accessToken),
  },
  {
    name: 'batchUpdateAssociationLimits',
    label: 'POST /crm/associations/v4/definitions/configurations/companies/contacts/batch/update (one limit)',
    isWarm: false,
    budget: { GetItemCommand: 1, PutItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${associationLimits}/companies/contacts/batch/update`, state.install.accessToken, {
        inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 2, maxToObjectIds: 999 }],
      }),
  },
  {
    name: 'batchPurgeAssociationLimits',
    label: 'POST /crm/associations/v4/definitions/configurations/companies/contacts/batch/purge (one limit)',
    isWarm: false,
    budget: { GetItemCommand: 1, PutItemCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) =>
      jsonRequest('POST', `${associationLimits}/companies/contacts/batch/purge`, state.install.accessToken, {
        inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 2 }],
      }),
  },
  {
    name: 'createList',
    label: 'POST /crm/v3/lists (a MANUAL company list)',
    isWarm: false,
    // The list id from the global sequence (UpdateItem), then one transaction: the list, its name's claim, the account's list count.
    budget: { UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v3/lists', state.install.accessToken, {
        name: uniqueName('Bench list'),
        objectTypeId: '0-2',
        processingType: 'MANUAL',
      }),
    afterResponse: (response, state) => {
      state.listId ??= (JSON.parse(response.body) as { list: { listId: string } }).list.listId;
    },
  },
  {
    name: 'addListMemberships',
    label: 'PUT /crm/v3/lists/{listId}/memberships/add (100 pool companies)',
    isWarm: false,
    // The list (GetItem); which ids are members and which companies exist (a BatchGetItem of 100 keys each);
    // then 32 memberships a transaction, each with the list's size and a check of the companies' lists token: 4 transactions.
    budget: { GetItemCommand: 1, BatchGetItemCommand: 2, TransactWriteItemsCommand: 4 },
    request: (_iteration, state) =>
      jsonRequest(
        'PUT',
        `/crm/v3/lists/${state.listId}/memberships/add`,
        state.install.accessToken,
        state.poolIds.slice(0, 100),
      ),
  },
  {
    name: 'listMembershipsPage',
    label: 'GET /crm/v3/lists/{listId}/memberships?limit=100 (a page of 100 members)',
    isWarm: false,
    // The list (its size is the total), then one Query of limit + 1 membership items.
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `/crm/v3/lists/${state.listId}/memberships?limit=100`, state.install.accessToken),
  },
  {
    name: 'createListFolder',
    label: 'POST /crm/v3/lists/folders (a folder in the root)',
    isWarm: false,
    // The account's folder tree (GetItem), the folder id from the global sequence (UpdateItem), the tree's write.
    budget: { GetItemCommand: 1, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v3/lists/folders', state.install.accessToken, { name: uniqueName('Bench folder') }),
    afterResponse: (response, state) => {
      state.listFolderId ??= (JSON.parse(response.body) as { folder: { id: string } }).folder.id;
    },
  },
  {
    name: 'createListSubfolder',
    label: 'POST /crm/v3/lists/folders (a folder inside the created one)',
    isWarm: false,
    budget: { GetItemCommand: 1, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/v3/lists/folders', state.install.accessToken, {
        name: uniqueName('Bench subfolder'),
        parentFolderId: state.listFolderId,
      }),
    afterResponse: (response, state) => {
      state.listSubfolderId ??= (JSON.parse(response.body) as { folder: { id: string } }).folder.id;
    },
  },
  {
    name: 'moveListToFolder',
    label: 'PUT /crm/v3/lists/folders/move-list (the created list into the created folder)',
    isWarm: false,
    // The list and the folder tree (GetItem each), then one transaction: the list's folder and the tree's sets.
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) =>
      jsonRequest('PUT', '/crm/v3/lists/folders/move-list', state.install.accessToken, {
        listId: state.listId,
        newFolderId: state.listFolderId,
      }),
  },
  {
    name: 'getListFolder',
    label: 'GET /crm/v3/lists/folders?folderId= (a folder with a list and a subfolder)',
    isWarm: false,
    // The folder tree holds the folder's lists: one GetItem.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `/crm/v3/lists/folders?folderId=${state.listFolderId}`, state.install.accessToken),
  },
  {
    name: 'getRootListFolder',
    label: 'GET /crm/v3/lists/folders (the root: the tree and the lists in no folder)',
    isWarm: false,
    // The folder tree (GetItem), and the account's lists (one Query page: the bench account has a few).
    budget: { GetItemCommand: 1, QueryCommand: 1 },
    request: (_iteration, state) => jsonRequest('GET', '/crm/v3/lists/folders', state.install.accessToken),
  },
  {
    name: 'renameListFolder',
    label: 'PUT /crm/v3/lists/folders/{folderId}/rename?newFolderName=',
    isWarm: false,
    // The folder tree (GetItem) and its write (a transaction of one Update).
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest(
        'PUT',
        `/crm/v3/lists/folders/${state.listFolderId}/rename?newFolderName=${encodeURIComponent(uniqueName('Bench renamed'))}`,
        state.install.accessToken,
      ),
  },
  {
    name: 'moveListFolder',
    label: 'PUT /crm/v3/lists/folders/{folderId}/move/{newParentFolderId} (the subfolder into the root)',
    isWarm: false,
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('PUT', `/crm/v3/lists/folders/${state.listSubfolderId}/move/0`, state.install.accessToken),
  },
  {
    name: 'deleteListFolder',
    label: 'DELETE /crm/v3/lists/folders/{folderId} (the empty subfolder)',
    isWarm: false,
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) =>
      jsonRequest('DELETE', `/crm/v3/lists/folders/${state.listSubfolderId}`, state.install.accessToken),
  },
  {
    name: 'translateLegacyListId',
    label: 'GET /crm/v3/lists/idmapping?legacyListId= (the list the create made)',
    isWarm: false,
    // The legacy id names the list id: the list's item (GetItem).
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest(
        'GET',
        `/crm/v3/lists/idmapping?legacyListId=${Number(state.listId) - 200_000_000}`,
        state.install.accessToken,
      ),
  },
  {
    name: 'translateLegacyListIds',
    label: 'POST /crm/v3/lists/idmapping (100 legacy ids)',
    isWarm: false,
    // One BatchGetItem of the 100 list items the ids name.
    budget: { BatchGetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest(
        'POST',
        '/crm/v3/lists/idmapping',
        state.install.accessToken,
        Array.from({ length: 100 }, (_, index) => String(Number(state.listId) - 200_000_000 + index)),
      ),
  },
  {
    name: 'listAllLists',
    label: 'POST /crm/lists/2026-09/all (a page of 20 lists, unfiltered)',
    isWarm: false,
    // One Query of count + 1 list items, and the account's list count (the total) beside it.
    budget: { QueryCommand: 1, GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('POST', '/crm/lists/2026-09/all', state.install.accessToken, { processingTypes: [], count: 20 }),
  },
  {
    name: 'getListConversion',
    label: 'GET /crm/v3/lists/{listId}/schedule-conversion (none scheduled)',
    isWarm: false,
    // The list's item holds its conversion.
    budget: { GetItemCommand: 1 },
    request: (_iteration, state) =>
      jsonRequest('GET', `/crm/v3/lists/${state.listId}/schedule-conversion`, state.install.accessToken),
  },
  {
    name: 'scheduleListConversion',
    label: 'PUT /crm/v3/lists/{listId}/schedule-conversion (a MANUAL list: 400)',
    isWarm: false,
    // The list (GetItem) is not DYNAMIC: refused before any write. A DYNAMIC list's adds one conditional UpdateItem.
    budget: { GetItemCommand: 1 },
    expectedStatus: 400,
    request: (_iteration, state) =>
      jsonRequest('PUT', `/crm/v3/lists/${state.listId}/schedule-conversion`, state.install.accessToken, {
        conversionType: 'INACTIVITY',
        offset: 2,
        timeUnit: 'WEEK',
      }),
  },
  {
    name: 'cancelListConversion',
    label: 'DELETE /crm/v3/lists/{listId}/schedule-conversion (a MANUAL list: 400)',
    isWarm: false,
    // The list (GetItem) is not DYNAMIC: refused before any write. A DYNAMIC list's with a conversion adds one UpdateItem.
    budget: { GetItemCommand: 1 },
    expectedStatus: 400,
    request: (_iteration, state) =>
      jsonRequest('DELETE', `/crm/v3/lists/${state.listId}/schedule-conversion`, state.install.accessToken),
  },
  {
    name: 'deleteList',
    label: 'DELETE /crm/v3/lists/{listId} (the list the create made)',
    isWarm: false,
    // The list (GetItem); one transaction (the list marked, its name freed, the count, its deletion marker);
    // then the account's purge step: one Query of the oldest deletion marker past 90 days (none here).
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1, QueryCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) => jsonRequest('DELETE', `/crm/v3/lists/${state.listId}`, state.install.accessToken),
  },
  {
    name: 'restoreList',
    label: 'PUT /crm/v3/lists/{listId}/restore (the list the delete deleted)',
    isWarm: false,
    // The list (GetItem); the folder tree (GetItem: the list goes back into its folder, moveListToFolder's, or
    // the root when that folder is gone); one transaction (the list back, its name's claim, the count, its
    // deletion marker gone, the folder's list set).
    budget: { GetItemCommand: 2, TransactWriteItemsCommand: 1 },
    expectedStatus: 204,
    request: (_iteration, state) =>
      jsonRequest('PUT', `/crm/v3/lists/${state.listId}/restore`, state.install.accessToken),
  },
  {
    name: 'mergeRecords',
    label: 'POST /crm/v3/objects/companies/merge (two pool companies)',
    isWarm: false,
    // Reads both records (and the account's association limits when the merged record has associations), then one
    // transaction: the new record and its projection, both deletes, both merge pointers, both projections removed,
    // the unique values re-pointed. Then the lists (shared/lists/record-lists.ts carryListsOnMerge): the primary's
    // memberships (Query), one transaction per MANUAL membership the merged record takes (with the list's size), and
    // each merged-away record leaves its lists (the other's memberships a Query; a transaction each that has any).
    // In the cost test both companies are members of the createList row's list: 2 Queries, 1 + 1 + 2 transactions;
    // in a full run (1,000 pool companies, the first 100 in the list) neither is: 2 Queries, 1 transaction.
    budget: { GetItemCommand: 3, QueryCommand: 2, TransactWriteItemsCommand: 4 },
    request: (_iteration, state) =>
      jsonRequest('POST', `${companies}/merge`, state.install.accessToken, {
        primaryObjectId: state.poolIds.at(-1),
        objectIdToMerge: state.poolIds.at(-2),
      }),
    // Last in the table: the two ids now read through merge pointers, so no later operation may pick them.
    afterResponse: (_response, state) => {
      state.poolIds.splice(-2, 2);
    },
  },
];

/**
 * The dated spelling of a numbered records operation (docs/versions.md): the same request on
 * `/crm/objects/<version>/...`, at the same budget (the same function makes the same calls) unless
 * the version adds work (`differs`: its own name, what it adds to the label, its budget).
 */
function datedTwinOf(
  name: string,
  version: '2026-03' | '2026-09',
  differs?: { name: string; labelSuffix: string; budget: Operation['budget'] },
): Operation {
  const numbered = numberedOperations.find((operation) => operation.name === name);
  if (!numbered) throw new Error(`no bench operation named ${name}`);
  const dated = (path: string) => path.replace('/crm/v3/objects/', `/crm/objects/${version}/`);
  return {
    ...numbered,
    name: differs?.name ?? `${name}Dated`,
    label: `${dated(numbered.label)}${differs?.labelSuffix ?? ''}`,
    budget: differs?.budget ?? numbered.budget,
    isWarm: false,
    request: (iteration, state) => {
      const request = numbered.request(iteration, state);
      return { ...request, path: dated(request.path) };
    },
  };
}

const listAccountOf = (state: BenchState, variant: ListVariant): ListAccount => {
  const account = state.listAccounts?.[variant];
  if (!account) throw new Error('the list-write rows need the list accounts (createListAccounts)');
  return account;
};

/** What the DYNAMIC lists of the variant's account add to a contact write, for the labels. */
const variantWords: Record<ListVariant, string> = {
  noLists: 'an account with no list',
  lists0: 'an account with 10 DYNAMIC company lists and none of contacts',
  lists1: 'an account with 1 DYNAMIC contact list',
  lists10: 'an account with 10 DYNAMIC contact lists',
  inList: 'an account with 1 DYNAMIC contact list that also names a MANUAL list (IN_LIST)',
  associated:
    'an account with 1 DYNAMIC contact list of contacts associated with a company of a MANUAL list (ASSOCIATION)',
  associatedBranch:
    'an account with 1 DYNAMIC contact list of contacts associated with a company in a city (ASSOCIATION branch)',
};

/**
 * The contact create and PATCH of each list account (bench/list-accounts.ts), side by side: the
 * lists' filters hold in Boston and fail in Cambridge. The create (Boston) joins every list of its
 * type; the PATCH moves each of the account's contacts to Boston and back, a pass of the contacts at
 * a time, so its warm samples are half joins and half leaves; the leave row is one leave, for its calls.
 */
function listWriteOperations(variant: ListVariant, contactLists: number): Operation[] {
  // A list with an IN_LIST filter is not inferred from the record's previous values: the PATCH reads its membership
  // and the named MANUAL list's (one BatchGetItem), and checks the named list's in its transaction.
  const readsMemberships = variant === 'inList' || variant === 'associated' || variant === 'associatedBranch';
  // An ASSOCIATION filter also reads the associated company's membership of the companies list (one BatchGetItem);
  // an ASSOCIATION branch the associated company's search projection (one BatchGetItem).
  const isAssociated = variant === 'associated' || variant === 'associatedBranch';
  // Each create takes the account's next company in turn (a company holds at most 1,000 associations).
  const associations = (state: BenchState, iteration: number) => {
    const companies = account(state).associated?.companyIds;
    const company = companies === undefined ? undefined : pick(companies, iteration);
    return company === undefined
      ? {}
      : {
          associations: [
            {
              to: { id: company },
              types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: contactToCompanyTypeId }],
            },
          ],
        };
  };
  const suffix = variant.charAt(0).toUpperCase() + variant.slice(1);
  const account = (state: BenchState) => listAccountOf(state, variant);
  const contactToMove = (state: BenchState, iteration: number) => {
    const { contacts: pool } = account(state);
    return { contact: pick(pool, iteration), pass: Math.floor(iteration / pool.length) };
  };
  return [
    {
      name: `createContact${suffix}`,
      label: `POST /crm/v3/objects/contacts (city ${joiningCity}), ${variantWords[variant]}`,
      isWarm: true,
      // One transaction: the contact, its projection, its email claim, its two ordered-index keys and its
      // shard's record counter (whose lists token the write checks), and per list it joins the membership's 3
      // items (member, join order, the record's reverse item) and one of the list's 16 size counters. No read:
      // a new record is a member of no list.
      // With an association to a company: the company read (GetItem) and its side written in the same transaction;
      // its membership of the list the ASSOCIATION filter names, one BatchGetItem.
      budget: isAssociated
        ? { GetItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }
        : { TransactWriteItemsCommand: 1 },
      request: (iteration, state) =>
        jsonRequest('POST', contacts, account(state).install.accessToken, {
          properties: { ...contactProperties(uniqueName('lists')), city: joiningCity },
          ...associations(state, iteration),
        }),
    },
    {
      name: `updateContact${suffix}`,
      label: `PATCH /crm/v3/objects/contacts/{id} (city ${leavingCity} -> ${joiningCity}: joins ${contactLists} lists; warm: and back), ${variantWords[variant]}`,
      isWarm: true,
      // The contact (GetItem: its values before, which tell the lists it was in); one transaction: the contact,
      // its projection and ordered-index keys, the lists token checked on its record counter, and per list
      // it joins its 3 membership items and a size counter.
      budget: readsMemberships
        ? { GetItemCommand: 1, BatchGetItemCommand: isAssociated ? 2 : 1, TransactWriteItemsCommand: 1 }
        : { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
      request: (iteration, state) => {
        const { contact, pass } = contactToMove(state, iteration);
        return jsonRequest('PATCH', `${contacts}/${contact.id}`, account(state).install.accessToken, {
          properties: { city: pass % 2 === 0 ? joiningCity : leavingCity },
        });
      },
    },
    {
      name: `updateContactLeave${suffix}`,
      label: `PATCH /crm/v3/objects/contacts/{id} (city ${joiningCity} -> ${leavingCity}: leaves ${contactLists} lists), ${variantWords[variant]}`,
      isWarm: false,
      // The contact (GetItem); the memberships it leaves (one BatchGetItem of their member items: the join
      // times, which the join-order keys need; none with no list to leave); one transaction as the join's,
      // with the 3 membership items deleted and the size counter per list.
      budget:
        contactLists === 0
          ? { GetItemCommand: 1, TransactWriteItemsCommand: 1 }
          : { GetItemCommand: 1, BatchGetItemCommand: isAssociated ? 2 : 1, TransactWriteItemsCommand: 1 },
      request: (_iteration, state) =>
        jsonRequest('PATCH', `${contacts}/${contactToMove(state, 0).contact.id}`, account(state).install.accessToken, {
          properties: { city: leavingCity },
        }),
    },
  ];
}

/**
 * An add-and-remove of one contact on a MANUAL list, alternately adding and removing it: on a list
 * no list names, and on the one the `inList` account's DYNAMIC list names in an IN_LIST filter (the
 * contact is in Boston, so it joins and leaves that list with each change).
 */
function namedListOperations(): Operation[] {
  const named = (state: BenchState) => {
    const found = listAccountOf(state, 'inList').named;
    if (!found) throw new Error('the inList account has no named lists');
    return found;
  };
  const change = (contactId: string, iteration: number) =>
    iteration % 2 === 0
      ? { recordIdsToAdd: [contactId], recordIdsToRemove: [] }
      : { recordIdsToAdd: [], recordIdsToRemove: [contactId] };
  const row = (
    name: string,
    listWords: string,
    listOf: (state: BenchState) => string,
    budget: Operation['budget'],
  ): Operation => ({
    name,
    label: `PUT /crm/v3/lists/{listId}/memberships/add-and-remove (1 contact; warm: added, then removed), ${listWords}`,
    isWarm: true,
    budget,
    request: (iteration, state) =>
      jsonRequest(
        'PUT',
        `/crm/v3/lists/${listOf(state)}/memberships/add-and-remove`,
        listAccountOf(state, 'inList').install.accessToken,
        change(named(state).contactId, iteration),
      ),
  });
  return [
    // The list (GetItem); whether the id is a member, and (an add) whether the contact exists: a BatchGetItem each;
    // one transaction: the 3 membership items, the list's size and a check of the contacts' lists token.
    row('changeMembershipPlainList', 'a MANUAL list no list names', (state) => named(state).plainListId, {
      GetItemCommand: 1,
      BatchGetItemCommand: 2,
      TransactWriteItemsCommand: 1,
    }),
    // As the plain list's, and the contact's projection (BatchGetItem: its values and version) and its membership of
    // the DYNAMIC list (BatchGetItem); the same transaction also checks the contact's version and writes the
    // DYNAMIC list's 3 membership items and size counter.
    row(
      'changeMembershipNamedList',
      'a MANUAL list a DYNAMIC list names (IN_LIST)',
      (state) => named(state).namedListId,
      { GetItemCommand: 1, BatchGetItemCommand: 4, TransactWriteItemsCommand: 1 },
    ),
  ];
}

export const operations: readonly Operation[] = [
  ...numberedOperations,
  ...listWriteOperations('noLists', 0),
  ...listWriteOperations('lists0', 0),
  ...listWriteOperations('lists1', 1),
  ...listWriteOperations('lists10', 10),
  ...listWriteOperations('inList', 1),
  ...listWriteOperations('associated', 1),
  ...listWriteOperations('associatedBranch', 1),
  ...namedListOperations(),
  datedTwinOf('createRecord', '2026-03'),
  // 2026-09 writes read the account's write validation of the type first (docs/versions.md): one GetItem.
  datedTwinOf('createRecord', '2026-09', {
    name: 'createRecordDated202609',
    labelSuffix: " (the account's write validation read first)",
    budget: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
  }),
  datedTwinOf('readCompany', '2026-09'),
  datedTwinOf('searchById', '2026-03'),
];

/** A small deterministic generator (mulberry32): the same run picks the same ids. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
