import { routeSpellings, type DatedSpellingName, type SpellingName } from '../../shared/routes';
import { isDatedTwin, type Route, type RouteSpelling } from '../../shared/base/route-types';

/**
 * One entry per spelling of shared/routes.ts (each row's own path, by the row's name, and each
 * alias, by the alias's name), for the tests generated from the table
 * (test/functions/route-table-auth.test.ts: 401, 403 and tenant isolation; test/functions/route-fuzz.test.ts).
 * The map is typed by SpellingName, so a row or alias without an entry does not compile, and
 * `missingFixtures()` makes the tests fail at run time too: a new route is covered by adding its
 * row and its entry here, never by editing a test. A dated twin of a row (`<row>Dated`,
 * `<row>Dated202609`) uses the row's entry unless it has its own; `{version}` is '2026-03'.
 */
export type JsonObject = Record<string, unknown>;

/** The records the tests create before using a fixture, as seen by their owner (and one record of the stranger). */
export interface World {
  appId: number;
  companyId: string;
  /** The domain of the company `companyId`. */
  companyDomain: string;
  eventTypeId: number;
  propertyId: number;
  eventId: string;
  /** A webhook subscription of the owner's app. */
  subscriptionId: string;
  /**
   * Values of the owner's records that a stranger's create names, one per route, so that one
   * stranger request cannot change what the next one meets in the stranger's own account:
   * domains of other owner companies, ids of other owner events.
   */
  ownerDomains: { createObject: string; batchCreateObjects: string; batchUpsertObjects: string };
  ownerEventIds: {
    createTimelineEvent: string;
    putTimelineEvent: string;
    createTimelineEventBatch: string;
    putTimelineEventBatch: string;
  };
  /** A custom company property and an association label of the owner's account (tenant isolation only). */
  customPropertyName: string;
  labelName: string;
  /** A custom property group and the type id of a live custom association label (companies to contacts in isolation). */
  groupName: string;
  labelTypeId: number;
  /** The owner id of the owner's user in the owner's account (GET /crm/v3/owners). */
  ownerId: string;
  /** The user id of that user (global: `idProperty=userId` finds its owner in the owner's account only). */
  ownerUserId: string;
  /** A custom deal pipeline of the owner's account and one of its stages (the fuzz uses the default pipeline). */
  pipelineId: string;
  stageId: string;
  /** A custom object schema of the owner's account (its type id) and one of its association definitions (its id). */
  schemaType: string;
  schemaAssociationId: string;
  /** A company in the stranger's own account (tenant isolation only). */
  strangerCompanyId: string;
  /** A MANUAL company list of the owner's account (the owner's company its member), its name, and a second list (add-from's source). */
  listId: string;
  listName: string;
  sourceListId: string;
  /** A list folder of the owner's account (the folder rows). */
  folderId: string;
  /** A test account of the owner's developer account, and an injected fault in it (the sandbox controls). */
  testAccountHubId: string;
  faultId: string;
  /**
   * A webhooks journal subscription of the owner's app (OBJECT, contacts, in the owner's account
   * `journalPortalId`) naming the property `journalProperty`, one filter of it, and the app's
   * client-credentials token (the journal rows take it).
   */
  journalSubscriptionId: string;
  journalFilterId: string;
  journalPortalId: string;
  journalProperty: string;
  appToken: string;
  /** Unique per run, for names a request creates. */
  fresh: string;
  /** The owner's refresh and access tokens (token metadata routes). */
  refreshToken: string;
  accessToken: string;
  /** For the token endpoint and login (fuzz only). */
  clientId: string;
  clientSecret: string;
  userEmail: string;
  password: string;
}

/** Ids that exist in no account. */
export const missing = {
  appId: '999999999',
  companyId: '1000000000000123',
  eventTypeId: '999999',
  propertyId: '999999',
  eventId: 'no-such-event',
  subscriptionId: '999999999',
  ownerId: '999999999999',
  pipelineId: '999999999998',
  stageId: '999999999997',
  schemaType: '2-999999999',
  schemaAssociationId: '999999998',
  hubId: '999999997',
  faultId: 'no-such-fault',
  listId: '999999999',
  listName: 'no such list',
  folderId: '999999996',
  journalSubscriptionId: '999999995',
  journalFilterId: '999999994',
  journalOffset: '00000000-0001-7000-8000-000000000001',
} as const;

/**
 * Who tries to reach the owner's records: a token of the owner's app for another account
 * ('otherHub'), a token of another app in another account ('otherApp'), or another developer's API key.
 */
export type Stranger = 'otherHub' | 'otherApp' | 'otherDeveloper';

/** Path parameters (by name; defaults come from `paramValues`), query and body of one request. */
export interface RequestSpec {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

/**
 * How a stranger's request must be answered. Whatever the kind, the owner's records are unchanged after it.
 * - sameAsMissing: status and body as for ids that exist nowhere (ids, timestamps and correlation id masked);
 * - sameStatusAsFresh: a create naming the owner's values (domain, name, event id) succeeds or fails as one
 *   naming fresh values, and the answer mentions none of the owner's records;
 * - noOwnerData: a listing that mentions none of the owner's records.
 */
export interface IsolationCase {
  as: readonly Stranger[];
  check: 'sameAsMissing' | 'sameStatusAsFresh' | 'noOwnerData';
  foreign: (world: World) => RequestSpec;
  /** The same request naming ids that exist nowhere, or fresh values (not for noOwnerData). */
  control?: (world: World) => RequestSpec;
}

export interface RouteFixture {
  /** A valid body: required when the row has one. */
  validBody?: (world: World) => JsonObject;
  /** The valid request's query string, when its row needs one (the list rename's `listName`). */
  validQuery?: string;
  /** Path parameters the valid request names other than paramValues' (the GDPR delete's type is contacts). */
  validParams?: Readonly<Record<string, string>>;
  /** Tenant isolation: required for every authenticated row, at least one case. */
  isolation?: readonly IsolationCase[];
  /**
   * The row ends the install of the token that calls it (the app uninstall): the generated tests call
   * it only with tokens of installs made for that call, never with the owner's or a shared stranger's.
   */
  endsCallersInstall?: true;
}

/** A path parameter's value in the owner's world, by name; a row with a parameter not named here fails the tests. */
export function paramValues(world: World): Record<string, string> {
  return {
    appId: String(world.appId),
    eventTypeId: String(world.eventTypeId),
    propertyId: String(world.propertyId),
    eventId: world.eventId,
    companyId: world.companyId,
    propertyName: 'name',
    toObjectType: 'contacts',
    toObjectId: '901',
    associationTypeId: '280',
    fromObjectType: 'companies',
    fromObjectTypeId: '0-2',
    toObjectTypeId: '0-1',
    token: world.refreshToken,
    objectType: 'companies',
    objectId: world.companyId,
    groupName: world.groupName,
    subscriptionId: world.subscriptionId,
    ownerId: world.ownerId,
    pipelineObjectType: 'deals',
    pipelineId: world.pipelineId,
    stageId: world.stageId,
    schemaType: world.schemaType,
    associationIdentifier: world.schemaAssociationId,
    hubId: world.testAccountHubId,
    faultId: world.faultId,
    version: '2026-03',
    listId: world.listId,
    sourceListId: world.sourceListId,
    listName: world.listName,
    folderId: world.folderId,
    newParentFolderId: '0',
    objectTypeId: '0-2',
    recordId: world.companyId,
    filterId: world.journalFilterId,
    portalId: world.journalPortalId,
    // An offset spelled as the journal spells them that names no entry (the route tests run no stream consumer), and a batch size.
    offset: missing.journalOffset,
    count: '10',
  };
}

const company = { as: ['otherHub', 'otherApp'] } as const;
const timelineApp = { as: ['otherDeveloper'] } as const;
const timelineAppRead = { as: ['otherDeveloper', 'otherApp'] } as const;

const sameAsMissing = (
  as: readonly Stranger[],
  params: (world: World) => Record<string, string>,
  missingParams: Record<string, string>,
  body?: (world: World) => unknown,
): IsolationCase => ({
  as,
  check: 'sameAsMissing',
  foreign: (world) => ({ params: params(world), body: body?.(world) }),
  control: (world) => ({ params: missingParams, body: body?.(world) }),
});

const ownApp = (world: World) => ({ appId: String(world.appId) });
const missingApp = { appId: missing.appId };
const event = (world: World, id: string, objectId = world.companyId) => ({
  id,
  eventTypeId: world.eventTypeId,
  objectId: Number(objectId),
  timestamp: 1714658591512,
  level: 'high',
});
const eventType = (world: World) => ({
  name: `Type ${world.fresh}`,
  objectType: 'COMPANY',
  headerTemplate: '# {{level}}',
});
const propertyBody = (world: World) => ({
  id: world.propertyId,
  name: 'level',
  label: 'Level 2',
  propertyType: 'String',
});
const ownType = (world: World) => ({ appId: String(world.appId), eventTypeId: String(world.eventTypeId) });
const missingType = { appId: missing.appId, eventTypeId: missing.eventTypeId };
/** The journal rows are the app's own: another app's token meets the owner's subscription and filter as missing ones. */
const otherApp = ['otherApp'] as const;
const ownJournalSubscription = (world: World) => ({ subscriptionId: world.journalSubscriptionId });
const missingJournalSubscription = { subscriptionId: missing.journalSubscriptionId };
const ownJournalFilter = (world: World) => ({ filterId: world.journalFilterId });
const missingJournalFilter = { filterId: missing.journalFilterId };
/**
 * The journal's read rows, on both spellings: another app's token reads its own journal, which holds
 * nothing of the owner's (an empty journal's 404, an unknown offset's 404).
 */
function journalReadFixtures() {
  const reads = { isolation: [{ as: otherApp, check: 'noOwnerData', foreign: () => ({}) }] } satisfies RouteFixture;
  const batchRead = {
    validBody: () => ({ inputs: [missing.journalOffset] }),
    isolation: [{ as: otherApp, check: 'noOwnerData', foreign: () => ({ body: { inputs: [missing.journalOffset] } }) }],
  } satisfies RouteFixture;
  return {
    getJournalEarliest: reads,
    getJournalEarliestLocal: reads,
    getJournalLatest: reads,
    getJournalLatestLocal: reads,
    getJournalNext: reads,
    getJournalNextLocal: reads,
    getJournalBatchEarliest: reads,
    getJournalBatchEarliestLocal: reads,
    getJournalBatchLatest: reads,
    getJournalBatchLatestLocal: reads,
    getJournalBatchNext: reads,
    getJournalBatchNextLocal: reads,
    readJournalBatch: batchRead,
    readJournalBatchLocal: batchRead,
  };
}
const journalFilterBody = (subscriptionId: string) => ({
  subscriptionId: Number(subscriptionId),
  filter: {
    conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: 'email', operator: 'EQ', value: 'a@x.example' }],
  },
});
const journalUpsertBody = (portalId: string) => ({
  subscriptionType: 'OBJECT',
  objectTypeId: '0-1',
  portalId: Number(portalId),
  actions: ['CREATE', 'UPDATE'],
  properties: ['email'],
});
const ownSubscription = (world: World) => ({ appId: String(world.appId), subscriptionId: world.subscriptionId });
const missingSubscription = { appId: missing.appId, subscriptionId: missing.subscriptionId };
/** An event the stranger records for its own company: with the owner's event id, or a fresh one. */
const strangerEvent = (check: (world: World) => string) => (world: World) =>
  event(world, check(world), world.strangerCompanyId);

/** A deal pipeline with one stage, as a client creates or replaces one. */
const dealPipelineBody = (label: string) => ({
  label,
  displayOrder: 1,
  stages: [{ label: `${label} stage`, displayOrder: 0, metadata: { probability: '0.5' } }],
});
const ownList = (world: World) => ({ listId: world.listId });
const legacyIdOf = (listId: string) => String(Number(listId) - 200_000_000);
const missingList = { listId: missing.listId };
const ownFolder = (world: World) => ({ folderId: world.folderId });
const missingFolder = { folderId: missing.folderId };
const ownPipeline = (world: World) => ({ pipelineObjectType: 'deals', pipelineId: world.pipelineId });
const missingPipeline = { pipelineObjectType: 'deals', pipelineId: missing.pipelineId };
const ownStage = (world: World) => ({ ...ownPipeline(world), stageId: world.stageId });
const missingStage = { ...missingPipeline, stageId: missing.stageId };

/** A custom object schema as a client creates one (`name` unique per account). */
export const schemaBody = (name: string) => ({
  name,
  labels: { singular: 'Fixture object', plural: 'Fixture objects' },
  properties: [{ name: 'fixture_name', label: 'Fixture name', type: 'string', fieldType: 'text' }],
  requiredProperties: ['fixture_name'],
  primaryDisplayProperty: 'fixture_name',
  associatedObjects: ['CONTACT'],
});
const ownSchema = (world: World) => ({ schemaType: world.schemaType });
const ownTestAccount = (world: World) => ({ hubId: world.testAccountHubId });
const missingTestAccount = { hubId: missing.hubId };
const missingSchema = { schemaType: missing.schemaType };

/** The schema rows on both spellings (`/crm-object-schemas/v3/schemas…` and the `/crm/v3/schemas…` alias). */
function schemaFixtures() {
  const fixtures = {
    listObjectSchemas: { isolation: [{ ...company, check: 'noOwnerData' as const, foreign: () => ({}) }] },
    createObjectSchema: {
      validBody: () => schemaBody('fuzz_object'),
      isolation: [
        createsLike(
          company.as,
          (world) => ({ body: schemaBody(`owned_${world.fresh}`) }),
          (world) => ({ body: schemaBody(`fresh_${world.fresh}`) }),
        ),
      ],
    },
    getObjectSchema: { isolation: [sameAsMissing(company.as, ownSchema, missingSchema)] },
    updateObjectSchema: {
      validBody: () => ({ labels: { singular: 'Renamed object' } }),
      isolation: [sameAsMissing(company.as, ownSchema, missingSchema, () => ({ description: 'Hijacked' }))],
    },
    archiveObjectSchema: { isolation: [sameAsMissing(company.as, ownSchema, missingSchema)] },
    createSchemaAssociation: {
      validBody: (world: World) => ({ fromObjectTypeId: world.schemaType, toObjectTypeId: '0-2' }),
      isolation: [
        sameAsMissing(company.as, ownSchema, missingSchema, (world) => ({
          fromObjectTypeId: world.schemaType,
          toObjectTypeId: '0-3',
        })),
      ],
    },
    archiveSchemaAssociation: {
      isolation: [
        sameAsMissing(
          company.as,
          (world) => ({ schemaType: world.schemaType, associationIdentifier: world.schemaAssociationId }),
          { ...missingSchema, associationIdentifier: missing.schemaAssociationId },
        ),
      ],
    },
  } satisfies Record<string, RouteFixture>;
  return {
    ...fixtures,
    listObjectSchemasV3: fixtures.listObjectSchemas,
    createObjectSchemaV3: { ...fixtures.createObjectSchema, validBody: () => schemaBody('fuzz_object_v3') },
    createObjectSchemaDated: { ...fixtures.createObjectSchema, validBody: () => schemaBody('fuzz_object_dated') },
    getObjectSchemaV3: fixtures.getObjectSchema,
    updateObjectSchemaV3: fixtures.updateObjectSchema,
    archiveObjectSchemaV3: fixtures.archiveObjectSchema,
    createSchemaAssociationV3: fixtures.createSchemaAssociation,
    archiveSchemaAssociationV3: fixtures.archiveSchemaAssociation,
  };
}

function createsLike(
  as: readonly Stranger[],
  foreign: (world: World) => RequestSpec,
  control: (world: World) => RequestSpec,
): IsolationCase {
  return { as, check: 'sameStatusAsFresh', foreign, control };
}

/**
 * Property, group and label names (and custom type ids, counted per account) are the stranger's own
 * namespace: the stranger may hold the same name (other fixtures create the owner's names there), so
 * its request acts on its own record, if any. What must hold: its answer mentions nothing of the
 * owner's, and the owner's records are unchanged.
 */
const sameName = (foreign: (world: World) => RequestSpec): IsolationCase => ({
  ...company,
  check: 'noOwnerData',
  foreign,
});
const ownRecord = (world: World) => ({ objectId: world.companyId });
const missingRecord = { objectId: missing.companyId };
const associationSpec = (associationTypeId: number) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId });
/** A v4 association batch: the owner's company in a stranger's inputs answers as a missing one. */
const batchPairFixture = (body: (companyId: string) => JsonObject): RouteFixture => ({
  validBody: (world) => body(world.companyId),
  isolation: [
    {
      ...company,
      check: 'sameAsMissing',
      foreign: (world) => ({ body: body(world.companyId) }),
      control: () => ({ body: body(missing.companyId) }),
    },
  ],
});

/**
 * An association limit write: the limits are the account's own, so a stranger's request changes its
 * own account's and answers as the same request would there (the owner's are unchanged).
 */
const limitFixture = (body: JsonObject): RouteFixture => ({
  validBody: () => body,
  isolation: [
    createsLike(
      company.as,
      () => ({ body }),
      () => ({ body }),
    ),
  ],
});

export const routeFixtures = {
  notFound: {},

  createTimelineEventType: {
    validBody: eventType,
    isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp, eventType)],
  },
  listTimelineEventTypes: { isolation: [sameAsMissing(timelineAppRead.as, ownApp, missingApp)] },
  getTimelineEventType: { isolation: [sameAsMissing(timelineAppRead.as, ownType, missingType)] },
  updateTimelineEventType: {
    validBody: () => ({ name: 'Renamed type', headerTemplate: 'x' }),
    isolation: [sameAsMissing(timelineApp.as, ownType, missingType, () => ({ name: 'Hijacked' }))],
  },
  deleteTimelineEventType: { isolation: [sameAsMissing(timelineApp.as, ownType, missingType)] },
  createTimelineEventTypeProperty: {
    validBody: () => ({ name: 'size', label: 'Size', propertyType: 'Numeric' }),
    isolation: [
      sameAsMissing(timelineApp.as, ownType, missingType, () => ({
        name: 'hijack',
        label: 'Hijack',
        propertyType: 'String',
      })),
    ],
  },
  listTimelineEventTypeProperties: { isolation: [sameAsMissing(timelineAppRead.as, ownType, missingType)] },
  updateTimelineEventTypeProperty: {
    validBody: propertyBody,
    isolation: [sameAsMissing(timelineApp.as, ownType, missingType, propertyBody)],
  },
  deleteTimelineEventTypeProperty: {
    isolation: [
      sameAsMissing(timelineApp.as, (world) => ({ ...ownType(world), propertyId: String(world.propertyId) }), {
        ...missingType,
        propertyId: missing.propertyId,
      }),
    ],
  },
  createTimelineEvent: {
    validBody: (world) => event(world, 'fuzz-event-2'),
    isolation: [
      createsLike(
        ['otherHub'],
        (world) => ({ body: strangerEvent((w) => w.ownerEventIds.createTimelineEvent)(world) }),
        (world) => ({ body: strangerEvent((w) => `create-${w.fresh}`)(world) }),
      ),
      sameAsMissing(['otherApp'], ownApp, missingApp, (world) => event(world, `app-${world.fresh}`)),
    ],
  },
  putTimelineEvent: {
    validBody: (world) => event(world, 'fuzz-event-2'),
    isolation: [
      createsLike(
        ['otherHub'],
        (world) => ({ body: strangerEvent((w) => w.ownerEventIds.putTimelineEvent)(world) }),
        (world) => ({ body: strangerEvent((w) => `put-${w.fresh}`)(world) }),
      ),
      sameAsMissing(['otherApp'], ownApp, missingApp, (world) => event(world, `app-${world.fresh}`)),
    ],
  },
  createTimelineEventBatch: {
    validBody: (world) => ({ eventWrappers: [event(world, 'fuzz-event-2'), event(world, 'fuzz-event-3')] }),
    isolation: [
      createsLike(
        ['otherHub'],
        (world) => ({
          body: { eventWrappers: [strangerEvent((w) => w.ownerEventIds.createTimelineEventBatch)(world)] },
        }),
        (world) => ({ body: { eventWrappers: [strangerEvent((w) => `batch-${w.fresh}`)(world)] } }),
      ),
      sameAsMissing(['otherApp'], ownApp, missingApp, (world) => ({
        eventWrappers: [event(world, `app-${world.fresh}`)],
      })),
    ],
  },
  putTimelineEventBatch: {
    validBody: (world) => ({ eventWrappers: [event(world, 'fuzz-event-2')] }),
    isolation: [
      createsLike(
        ['otherHub'],
        (world) => ({ body: { eventWrappers: [strangerEvent((w) => w.ownerEventIds.putTimelineEventBatch)(world)] } }),
        (world) => ({ body: { eventWrappers: [strangerEvent((w) => `put-batch-${w.fresh}`)(world)] } }),
      ),
      sameAsMissing(['otherApp'], ownApp, missingApp, (world) => ({
        eventWrappers: [event(world, `app-${world.fresh}`)],
      })),
    ],
  },
  getTimelineEvent: {
    isolation: [
      {
        as: ['otherHub'],
        check: 'sameAsMissing',
        foreign: () => ({}),
        control: () => ({ params: { eventId: missing.eventId } }),
      },
      sameAsMissing(['otherApp'], ownApp, missingApp),
    ],
  },

  // Webhooks: the app's developer key alone manages them; another developer's key meets the owner's app as a missing one.
  getWebhookSettings: { isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp)] },
  configureWebhookSettings: {
    validBody: () => ({ targetUrl: 'https://hooks.example.com/fuzz', throttling: { maxConcurrentRequests: 5 } }),
    isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp, () => ({ targetUrl: 'https://evil.example/hooks' }))],
  },
  deleteWebhookSettings: { isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp)] },
  listWebhookSubscriptions: { isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp)] },
  createWebhookSubscription: {
    validBody: (world) => ({ eventType: 'company.propertyChange', propertyName: `fuzz_${world.fresh}`, active: true }),
    isolation: [
      sameAsMissing(timelineApp.as, ownApp, missingApp, () => ({ eventType: 'company.creation', active: true })),
    ],
  },
  getWebhookSubscription: { isolation: [sameAsMissing(timelineApp.as, ownSubscription, missingSubscription)] },
  updateWebhookSubscription: {
    validBody: () => ({ active: true }),
    isolation: [sameAsMissing(timelineApp.as, ownSubscription, missingSubscription, () => ({ active: false }))],
  },
  deleteWebhookSubscription: { isolation: [sameAsMissing(timelineApp.as, ownSubscription, missingSubscription)] },
  batchUpdateWebhookSubscriptions: {
    validBody: (world) => ({ inputs: [{ id: Number(world.subscriptionId), active: true }] }),
    isolation: [
      sameAsMissing(timelineApp.as, ownApp, missingApp, (world) => ({
        inputs: [{ id: Number(world.subscriptionId), active: false }],
      })),
    ],
  },
  listWebhookDeliveries: { isolation: [sameAsMissing(timelineApp.as, ownApp, missingApp)] },

  listJournalSubscriptions: { isolation: [{ as: otherApp, check: 'noOwnerData', foreign: () => ({}) }] },
  upsertJournalSubscription: {
    validBody: (world) => journalUpsertBody(world.journalPortalId),
    // The owner's account is one the stranger's app is not installed in: refused as an account that does not exist.
    isolation: [
      {
        as: otherApp,
        check: 'sameStatusAsFresh',
        foreign: (world) => ({ body: journalUpsertBody(world.journalPortalId) }),
        control: () => ({ body: journalUpsertBody(missing.hubId) }),
      },
    ],
  },
  createJournalFilter: {
    validBody: (world) => journalFilterBody(world.journalSubscriptionId),
    isolation: [
      {
        as: otherApp,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: journalFilterBody(world.journalSubscriptionId) }),
        control: () => ({ body: journalFilterBody(missing.journalSubscriptionId) }),
      },
    ],
  },
  getJournalFilter: { isolation: [sameAsMissing(otherApp, ownJournalFilter, missingJournalFilter)] },
  deleteJournalFilter: { isolation: [sameAsMissing(otherApp, ownJournalFilter, missingJournalFilter)] },
  listJournalSubscriptionFilters: {
    isolation: [sameAsMissing(otherApp, ownJournalSubscription, missingJournalSubscription)],
  },
  deleteJournalPortalSubscriptions: {
    isolation: [sameAsMissing(otherApp, (world) => ({ portalId: world.journalPortalId }), { portalId: missing.hubId })],
  },
  getJournalSubscription: { isolation: [sameAsMissing(otherApp, ownJournalSubscription, missingJournalSubscription)] },
  deleteJournalSubscription: {
    isolation: [sameAsMissing(otherApp, ownJournalSubscription, missingJournalSubscription)],
  },

  ...journalReadFixtures(),
  getJournalFile: { validQuery: 'expires=1&signature=x' },

  authorize: {},
  login: { validBody: (world) => ({ email: world.userEmail, password: world.password, csrf_token: 'x' }) },
  decideConsent: {},
  demoCallback: {},
  issueToken: {
    validBody: (world) => ({
      grant_type: 'refresh_token',
      client_id: world.clientId,
      client_secret: world.clientSecret,
      refresh_token: world.refreshToken,
    }),
  },
  issueToken202603: {
    validBody: (world) => ({
      grant_type: 'refresh_token',
      client_id: world.clientId,
      client_secret: world.clientSecret,
      refresh_token: world.refreshToken,
    }),
  },
  issueTokenV3: {
    validBody: (world) => ({
      grant_type: 'refresh_token',
      client_id: world.clientId,
      client_secret: world.clientSecret,
      refresh_token: world.refreshToken,
    }),
  },
  introspectToken202603: {
    validBody: (world) => ({ token: world.refreshToken, client_id: world.clientId, client_secret: world.clientSecret }),
  },
  introspectTokenV3: {
    validBody: (world) => ({ token: world.refreshToken, client_id: world.clientId, client_secret: world.clientSecret }),
  },
  revokeToken202603: {
    validBody: (world) => ({
      token: 'not-a-token-of-this-app',
      client_id: world.clientId,
      client_secret: world.clientSecret,
    }),
  },
  revokeTokenV3: {
    validBody: (world) => ({
      token: 'not-a-token-of-this-app',
      client_id: world.clientId,
      client_secret: world.clientSecret,
    }),
  },
  // A stranger's uninstall ends the stranger's own install (made for the call), never the owner's.
  uninstallApp202603: {
    endsCallersInstall: true,
    isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }],
  },
  uninstallAppV3: { endsCallersInstall: true, isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getAccessTokenInfo: {},
  getRefreshTokenInfo: {},
  deleteRefreshToken: {},

  listProperties: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getProperty: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ propertyName: world.customPropertyName }), {
        propertyName: 'no_such_property_anywhere',
      }),
    ],
  },
  createProperty: {
    validBody: () => ({
      name: 'fuzz_property',
      label: 'Fuzz property',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({
          body: {
            name: world.customPropertyName,
            label: 'Mine too',
            type: 'string',
            fieldType: 'text',
            groupName: 'companyinformation',
          },
        }),
        (world) => ({
          body: {
            name: `fresh_${world.fresh}`,
            label: 'Fresh',
            type: 'string',
            fieldType: 'text',
            groupName: 'companyinformation',
          },
        }),
      ),
    ],
  },

  createObject: {
    validBody: (world) => ({
      properties: { name: 'Fuzz create', domain: 'fuzz.example', lifecyclestage: 'lead' },
      associations: [
        { to: { id: world.companyId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 13 }] },
      ],
    }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({ body: { properties: { name: 'Mine too', domain: world.ownerDomains.createObject } } }),
        (world) => ({ body: { properties: { name: 'Fresh', domain: `create-${world.fresh}.example` } } }),
      ),
      // The owner's company cannot be the target of a new company's association.
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({
          body: {
            properties: { name: 'Linked' },
            associations: [
              {
                to: { id: world.companyId },
                types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 13 }],
              },
            ],
          },
        }),
        control: () => ({
          body: {
            properties: { name: 'Linked' },
            associations: [
              {
                to: { id: missing.companyId },
                types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 13 }],
              },
            ],
          },
        }),
      },
    ],
  },
  listObjects: {
    isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({ query: 'limit=100&properties=name,domain' }) }],
  },
  getObject: {
    isolation: [
      sameAsMissing(company.as, ownRecord, missingRecord),
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ params: { objectId: world.companyDomain }, query: 'idProperty=domain' }),
        control: (world) => ({ params: { objectId: `never-${world.fresh}.example` }, query: 'idProperty=domain' }),
      },
    ],
  },
  updateObject: {
    validBody: () => ({ properties: { name: 'Fuzz update', lifecyclestage: 'customer' } }),
    isolation: [sameAsMissing(company.as, ownRecord, missingRecord, () => ({ properties: { name: 'Hijacked' } }))],
  },
  archiveObject: {
    isolation: [sameAsMissing(company.as, ownRecord, missingRecord)],
  },
  batchReadObjects: {
    validBody: (world) => ({
      inputs: [{ id: world.companyId }],
      properties: ['name'],
      propertiesWithHistory: ['name'],
    }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({
          body: { inputs: [{ id: world.companyId }], properties: [], propertiesWithHistory: [] },
        }),
        control: () => ({ body: { inputs: [{ id: missing.companyId }], properties: [], propertiesWithHistory: [] } }),
      },
    ],
  },
  batchCreateObjects: {
    validBody: () => ({ inputs: [{ properties: { name: 'Fuzz batch' } }] }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({
          body: { inputs: [{ properties: { name: 'Mine too', domain: world.ownerDomains.batchCreateObjects } }] },
        }),
        (world) => ({ body: { inputs: [{ properties: { name: 'Fresh', domain: `batch-${world.fresh}.example` } }] } }),
      ),
    ],
  },
  batchUpdateObjects: {
    validBody: (world) => ({ inputs: [{ id: world.companyId, properties: { name: 'Fuzz batch update' } }] }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { inputs: [{ id: world.companyId, properties: { name: 'Hijacked' } }] } }),
        control: () => ({ body: { inputs: [{ id: missing.companyId, properties: { name: 'Hijacked' } }] } }),
      },
    ],
  },
  batchUpsertObjects: {
    validBody: () => ({
      inputs: [{ id: 'fuzz-upsert.example', idProperty: 'domain', properties: { name: 'Fuzz upsert' } }],
    }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({
          body: {
            inputs: [
              { id: world.ownerDomains.batchUpsertObjects, idProperty: 'domain', properties: { name: 'Mine too' } },
            ],
          },
        }),
        (world) => ({
          body: {
            inputs: [{ id: `upsert-${world.fresh}.example`, idProperty: 'domain', properties: { name: 'Mine too' } }],
          },
        }),
      ),
    ],
  },
  batchArchiveObjects: {
    validBody: (world) => ({ inputs: [{ id: world.companyId }] }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { inputs: [{ id: world.companyId }] } }),
        control: () => ({ body: { inputs: [{ id: missing.companyId }] } }),
      },
    ],
  },

  searchObjects: {
    validBody: () => ({
      filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: 'Fuzz target' }] }],
      properties: ['name', 'domain'],
      limit: 10,
    }),
    isolation: [
      { ...company, check: 'noOwnerData', foreign: () => ({ body: { properties: ['name', 'domain'], limit: 100 } }) },
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({
          body: {
            filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: world.companyDomain }] }],
          },
        }),
        control: (world) => ({
          body: {
            filterGroups: [
              { filters: [{ propertyName: 'domain', operator: 'EQ', value: `never-${world.fresh}.example` }] },
            ],
          },
        }),
      },
    ],
  },

  associateCompany: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ companyId: world.companyId }), { companyId: missing.companyId }),
      // The owner's company cannot be the target of the stranger's association either.
      {
        as: ['otherHub'],
        check: 'sameAsMissing',
        foreign: (world) => ({
          params: {
            companyId: world.strangerCompanyId,
            toObjectType: 'companies',
            toObjectId: world.companyId,
            associationTypeId: '450',
          },
        }),
        control: (world) => ({
          params: {
            companyId: world.strangerCompanyId,
            toObjectType: 'companies',
            toObjectId: missing.companyId,
            associationTypeId: '450',
          },
        }),
      },
    ],
  },
  disassociateCompany: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ companyId: world.companyId }), { companyId: missing.companyId }),
    ],
  },
  listAssociationLabels: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  createAssociationLabel: {
    validBody: () => ({ name: 'fuzz_label', label: 'Fuzz label' }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({ body: { name: world.labelName, label: 'Mine too' } }),
        (world) => ({ body: { name: `fresh_${world.fresh}`, label: 'Fresh' } }),
      ),
    ],
  },

  updateProperty: {
    validBody: () => ({ label: 'Fuzz property renamed', description: 'x' }),
    isolation: [
      sameName((world) => ({ params: { propertyName: world.customPropertyName }, body: { label: 'Hijacked' } })),
    ],
  },
  archiveProperty: {
    isolation: [sameName((world) => ({ params: { propertyName: world.customPropertyName } }))],
  },
  batchReadProperties: {
    validBody: () => ({ inputs: [{ name: 'name' }, { name: 'fuzz_property' }], archived: false }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { inputs: [{ name: world.customPropertyName }], archived: false } }),
        control: () => ({ body: { inputs: [{ name: 'no_such_property_anywhere' }], archived: false } }),
      },
    ],
  },
  batchCreateProperties: {
    validBody: () => ({
      inputs: [
        {
          name: 'fuzz_batch_property',
          label: 'Fuzz batch property',
          type: 'string',
          fieldType: 'text',
          groupName: 'companyinformation',
        },
      ],
    }),
    isolation: [
      sameName((world) => ({
        body: {
          inputs: [
            {
              name: world.customPropertyName,
              label: 'Mine too (batch)',
              type: 'string',
              fieldType: 'text',
              groupName: 'companyinformation',
            },
          ],
        },
      })),
    ],
  },
  batchArchiveProperties: {
    validBody: () => ({ inputs: [{ name: 'fuzz_batch_property' }] }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { inputs: [{ name: world.customPropertyName }] } }),
        control: () => ({ body: { inputs: [{ name: 'no_such_property_anywhere' }] } }),
      },
    ],
  },
  listPropertyGroups: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  createPropertyGroup: {
    validBody: () => ({ name: 'fuzz_group', label: 'Fuzz group' }),
    isolation: [
      createsLike(
        company.as,
        (world) => ({ body: { name: world.groupName, label: 'Mine too' } }),
        (world) => ({ body: { name: `fresh_group_${world.fresh}`, label: 'Fresh' } }),
      ),
    ],
  },
  getPropertyGroup: { isolation: [sameName((world) => ({ params: { groupName: world.groupName } }))] },
  updatePropertyGroup: {
    validBody: () => ({ label: 'Fuzz group renamed' }),
    isolation: [sameName((world) => ({ params: { groupName: world.groupName }, body: { label: 'Hijacked' } }))],
  },
  archivePropertyGroup: { isolation: [sameName((world) => ({ params: { groupName: world.groupName } }))] },

  ...labelFixtures(),
  listAssociationLabelsSpecPath: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  createAssociationLabelSpecPath: {
    validBody: () => ({ name: 'fuzz_label_2', label: 'Fuzz label 2', inverseLabel: 'Inverse' }),
    isolation: [sameName((world) => ({ body: { name: world.labelName, label: 'Mine too (spec path)' } }))],
  },

  ...schemaFixtures(),

  listCompanyAssociations: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ companyId: world.companyId }), { companyId: missing.companyId }),
    ],
  },
  getRecordAssociations: { isolation: [sameAsMissing(company.as, ownRecord, missingRecord)] },
  putRecordAssociation: {
    // The body is a JSON array of AssociationSpec.
    validBody: () => [associationSpec(280)] as unknown as JsonObject,
    isolation: [sameAsMissing(company.as, ownRecord, missingRecord, () => [associationSpec(280)])],
  },
  putDefaultAssociation: { isolation: [sameAsMissing(company.as, ownRecord, missingRecord)] },
  deleteRecordAssociation: { isolation: [sameAsMissing(company.as, ownRecord, missingRecord)] },

  batchCreateAssociations: batchPairFixture((id) => ({
    inputs: [{ from: { id }, to: { id: '901' }, types: [associationSpec(2)] }],
  })),
  batchReadAssociations: batchPairFixture((id) => ({ inputs: [{ id }, { id, after: '900' }] })),
  batchArchiveAssociations: batchPairFixture((id) => ({ inputs: [{ from: { id }, to: [{ id: '902' }] }] })),
  batchArchiveAssociationLabels: batchPairFixture((id) => ({
    inputs: [{ from: { id }, to: { id: '901' }, types: [associationSpec(2)] }],
  })),
  batchAssociateDefault: batchPairFixture((id) => ({ inputs: [{ from: { id }, to: { id: '903' } }] })),
  batchCreateV3Associations: batchPairFixture((id) => ({
    inputs: [{ from: { id }, to: { id: '901' }, type: 'company_to_contact' }],
  })),
  batchReadV3Associations: batchPairFixture((id) => ({ inputs: [{ id }] })),
  batchArchiveV3Associations: batchPairFixture((id) => ({
    inputs: [{ from: { id }, to: { id: '902' }, type: 'company_to_contact_unlabeled' }],
  })),
  listV3AssociationTypes: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  listAllAssociationLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  listAssociationLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  batchCreateAssociationLimits: limitFixture({
    inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 280, maxToObjectIds: 900 }],
  }),
  batchUpdateAssociationLimits: limitFixture({
    inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 280, maxToObjectIds: 900 }],
  }),
  batchPurgeAssociationLimits: limitFixture({ inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 280 }] }),

  gdprDeleteObject: {
    validBody: () => ({ objectId: missing.companyId }),
    validParams: { objectType: 'contacts' },
    // The owner's company id is no contact of the stranger's account: answered as an id that exists nowhere.
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ params: { objectType: 'contacts' }, body: { objectId: world.companyId } }),
        control: () => ({ params: { objectType: 'contacts' }, body: { objectId: missing.companyId } }),
      },
    ],
  },
  mergeObjects: {
    validBody: (world) => ({ primaryObjectId: world.companyId, objectIdToMerge: missing.companyId }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { primaryObjectId: world.strangerCompanyId, objectIdToMerge: world.companyId } }),
        control: (world) => ({
          body: { primaryObjectId: world.strangerCompanyId, objectIdToMerge: missing.companyId },
        }),
      },
    ],
  },

  // Pipelines: the owner's custom deal pipeline (and its stage) answers another account as one that exists nowhere.
  listPipelines: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  createPipeline: {
    validBody: () => dealPipelineBody('Fuzz pipeline'),
    isolation: [
      {
        ...company,
        check: 'noOwnerData',
        foreign: (world) => ({ body: dealPipelineBody(`Stranger pipeline ${world.fresh}`) }),
      },
    ],
  },
  getPipeline: { isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline)] },
  replacePipeline: {
    validBody: () => dealPipelineBody('Fuzz replaced pipeline'),
    isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline, () => dealPipelineBody('Hijacked'))],
  },
  updatePipeline: {
    validBody: () => ({ label: 'Fuzz renamed pipeline', displayOrder: 2 }),
    isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline, () => ({ label: 'Hijacked' }))],
  },
  archivePipeline: { isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline)] },
  getPipelineAudit: { isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline)] },
  listPipelineStages: { isolation: [sameAsMissing(company.as, ownPipeline, missingPipeline)] },
  createPipelineStage: {
    validBody: () => ({ label: 'Fuzz new stage', displayOrder: 9, metadata: { probability: '0.3' } }),
    isolation: [
      sameAsMissing(company.as, ownPipeline, missingPipeline, () => ({
        label: 'Hijacked stage',
        displayOrder: 1,
        metadata: { probability: '0.1' },
      })),
    ],
  },
  getPipelineStage: { isolation: [sameAsMissing(company.as, ownStage, missingStage)] },
  replacePipelineStage: {
    validBody: () => ({ label: 'Fuzz replaced stage', displayOrder: 1, metadata: { probability: '0.4' } }),
    isolation: [
      sameAsMissing(company.as, ownStage, missingStage, () => ({
        label: 'Hijacked',
        displayOrder: 1,
        metadata: { probability: '0.1' },
      })),
    ],
  },
  updatePipelineStage: {
    validBody: () => ({ label: 'Fuzz updated stage', metadata: { probability: '0.6' } }),
    isolation: [sameAsMissing(company.as, ownStage, missingStage, () => ({ label: 'Hijacked' }))],
  },
  archivePipelineStage: { isolation: [sameAsMissing(company.as, ownStage, missingStage)] },
  // Lists: the owner's list (and its member) answers another account as one that exists nowhere.
  createList: {
    validBody: (world) => ({ name: `Fuzz list ${world.fresh}`, objectTypeId: '0-2', processingType: 'MANUAL' }),
    isolation: [
      {
        ...company,
        check: 'noOwnerData',
        foreign: (world) => ({
          body: { name: `Stranger list ${world.fresh}`, objectTypeId: '0-2', processingType: 'MANUAL' },
        }),
      },
    ],
  },
  getLists: {
    isolation: [{ ...company, check: 'noOwnerData', foreign: (world) => ({ query: `listIds=${world.listId}` }) }],
  },
  searchLists: {
    validBody: () => ({ query: 'fuzz' }),
    isolation: [{ ...company, check: 'noOwnerData', foreign: (world) => ({ body: { query: world.listName } }) }],
  },
  getListByName: {
    isolation: [sameAsMissing(company.as, (world) => ({ listName: world.listName }), { listName: missing.listName })],
  },
  getList: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  deleteList: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  restoreList: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  updateListName: {
    validQuery: 'listName=Fuzz%20renamed%20list',
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ params: ownList(world), query: 'listName=Hijacked' }),
        control: () => ({ params: missingList, query: 'listName=Hijacked' }),
      },
    ],
  },
  updateListFilters: {
    validBody: () => ({ filterBranch: { filterBranchType: 'OR', filterBranches: [] } }),
    isolation: [sameAsMissing(company.as, ownList, missingList, () => ({ filterBranch: { filterBranchType: 'OR' } }))],
  },
  getListMemberships: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  getListMembershipsJoinOrder: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  addListMemberships: {
    validBody: () => [missing.companyId] as unknown as JsonObject,
    isolation: [sameAsMissing(company.as, ownList, missingList, (world) => [world.strangerCompanyId])],
  },
  removeListMemberships: {
    validBody: () => [missing.companyId] as unknown as JsonObject,
    isolation: [sameAsMissing(company.as, ownList, missingList, (world) => [world.companyId])],
  },
  addAndRemoveListMemberships: {
    validBody: () => ({ recordIdsToAdd: [missing.companyId], recordIdsToRemove: [] }),
    isolation: [
      sameAsMissing(company.as, ownList, missingList, (world) => ({
        recordIdsToAdd: [world.strangerCompanyId],
        recordIdsToRemove: [world.companyId],
      })),
    ],
  },
  addListMembershipsFrom: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ ...ownList(world), sourceListId: world.sourceListId }), {
        ...missingList,
        sourceListId: '999999998',
      }),
    ],
  },
  clearListMemberships: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  getRecordListMemberships: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ objectTypeId: '0-2', recordId: world.companyId }), {
        objectTypeId: '0-2',
        recordId: missing.companyId,
      }),
    ],
  },
  batchReadRecordListMemberships: {
    validBody: (world) => ({ inputs: [{ objectTypeId: '0-2', recordId: world.companyId }] }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { inputs: [{ objectTypeId: '0-2', recordId: world.companyId }] } }),
        control: () => ({ body: { inputs: [{ objectTypeId: '0-2', recordId: missing.companyId }] } }),
      },
    ],
  },
  // List folders: the owner's folder answers another account as one that exists nowhere.
  getListFolders: {
    isolation: [
      { ...company, check: 'noOwnerData', foreign: () => ({}) },
      { ...company, check: 'noOwnerData', foreign: (world) => ({ query: `folderId=${world.folderId}` }) },
    ],
  },
  createListFolder: {
    validBody: (world) => ({ name: `Fuzz folder ${world.fresh}` }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { name: 'Hijacked folder', parentFolderId: world.folderId } }),
        control: () => ({ body: { name: 'Hijacked folder', parentFolderId: missing.folderId } }),
      },
    ],
  },
  renameListFolder: {
    validQuery: 'newFolderName=Fuzz%20renamed%20folder',
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ params: ownFolder(world), query: 'newFolderName=Hijacked' }),
        control: () => ({ params: missingFolder, query: 'newFolderName=Hijacked' }),
      },
    ],
  },
  moveListFolder: { isolation: [sameAsMissing(company.as, ownFolder, missingFolder)] },
  moveListToFolder: {
    validBody: (world) => ({ listId: world.listId, newFolderId: world.folderId }),
    isolation: [
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ body: { listId: world.listId, newFolderId: world.folderId } }),
        control: () => ({ body: { listId: missing.listId, newFolderId: missing.folderId } }),
      },
    ],
  },
  deleteListFolder: { isolation: [sameAsMissing(company.as, ownFolder, missingFolder)] },
  // A legacy id is the list id's place in the one list id sequence (shared/lists/legacy-list-ids.ts).
  translateLegacyListId: {
    // A legacy id no list has: list ids come from one sequence shared by every account.
    validQuery: 'legacyListId=99999999',
    isolation: [
      { ...company, check: 'noOwnerData', foreign: (world) => ({ query: `legacyListId=${legacyIdOf(world.listId)}` }) },
    ],
  },
  translateLegacyListIds: {
    validBody: () => ['99999999', 'not-a-legacy-id'] as unknown as JsonObject,
    isolation: [{ ...company, check: 'noOwnerData', foreign: (world) => ({ body: [legacyIdOf(world.listId)] }) }],
  },
  getListConversion: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  scheduleListConversion: {
    validBody: () => ({ conversionType: 'INACTIVITY', offset: 2, timeUnit: 'WEEK' }),
    isolation: [
      sameAsMissing(company.as, ownList, missingList, () => ({
        conversionType: 'INACTIVITY',
        offset: 1,
        timeUnit: 'DAY',
      })),
    ],
  },
  cancelListConversion: { isolation: [sameAsMissing(company.as, ownList, missingList)] },
  listAllLists: {
    validBody: () => ({ processingTypes: [], additionalProperties: [] }),
    isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({ body: { processingTypes: ['MANUAL'] } }) }],
  },

  getPipelineStageAudit: {
    isolation: [
      sameAsMissing(company.as, ownStage, missingStage),
      // The SDK's unfilled {pipelineId}: the stage is looked for in the caller's own pipelines only.
      sameAsMissing(company.as, (world) => ({ ...ownStage(world), pipelineId: '{pipelineId}' }), {
        ...missingStage,
        pipelineId: '{pipelineId}',
      }),
    ],
  },

  // Sandbox controls: another developer's key meets the owner's test account as one that exists nowhere.
  createTestAccount: {
    validBody: () => ({ name: 'Fuzz test account' }),
    isolation: [{ ...timelineApp, check: 'noOwnerData', foreign: () => ({ body: { name: 'Stranger account' } }) }],
  },
  listTestAccounts: { isolation: [{ ...timelineApp, check: 'noOwnerData', foreign: () => ({}) }] },
  installTestAccountApp: {
    validBody: (world) => ({ appId: world.appId, scopes: ['crm.objects.companies.read'], expiresInSeconds: 600 }),
    isolation: [
      sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount, (world) => ({
        appId: world.appId,
        scopes: ['crm.objects.companies.read'],
      })),
    ],
  },
  resetTestAccount: { isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)] },
  loadTestAccountFixtures: {
    validBody: (world) => ({
      records: [
        { ref: 'acme', objectType: 'companies', properties: { name: `Fixture ${world.fresh}` } },
        { ref: 'jane', objectType: 'contacts', properties: { firstname: 'Jane' } },
      ],
      associations: [
        { from: 'jane', to: 'acme', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] },
      ],
      lists: [
        {
          ref: 'accounts',
          name: `Fixture accounts ${world.fresh}`,
          objectTypeId: '0-2',
          processingType: 'MANUAL',
          members: ['acme'],
        },
      ],
    }),
    isolation: [
      sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount, () => ({
        records: [{ ref: 'a', objectType: 'companies', properties: { name: 'Hijacked' } }],
      })),
    ],
  },
  createTestAccountFault: {
    validBody: () => ({ path: '/crm/v3/objects/companies', status: 503, count: 1 }),
    isolation: [
      sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount, () => ({
        path: '/crm/v3/objects',
        status: 500,
        count: 5,
      })),
    ],
  },
  listTestAccountFaults: { isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)] },
  deleteTestAccountFault: {
    isolation: [
      sameAsMissing(timelineApp.as, (world) => ({ hubId: world.testAccountHubId, faultId: world.faultId }), {
        hubId: missing.hubId,
        faultId: missing.faultId,
      }),
    ],
  },
  setTestAccountWriteValidation: {
    validBody: () => ({
      requiredOnCreate: ['name'],
      conditionalRequirements: [
        { propertyName: 'domain', whenProperty: 'industry', whenValues: ['COMPUTER_SOFTWARE'] },
      ],
    }),
    isolation: [
      sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount, () => ({ requiredOnCreate: ['domain'] })),
    ],
  },
  getTestAccountWriteValidation: {
    isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)],
  },
  flushTestAccountWebhooks: { isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)] },
  listTestAccountWebhookDeliveries: {
    isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)],
  },
  deleteTestAccount: { isolation: [sameAsMissing(timelineApp.as, ownTestAccount, missingTestAccount)] },

  // Owners are the account's users: another account's owner id answers as one that exists nowhere.
  listOwners: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({ query: 'limit=500' }) }] },
  getOwner: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ ownerId: world.ownerId }), { ownerId: missing.ownerId }),
      {
        ...company,
        check: 'sameAsMissing',
        foreign: (world) => ({ params: { ownerId: world.ownerUserId }, query: 'idProperty=userId' }),
        control: () => ({ params: { ownerId: missing.ownerId }, query: 'idProperty=userId' }),
      },
    ],
  },

  // Account info and limits tracking answer for the caller's own account: another account's answer names none of the owner's data,
  // and the owner's custom type is another account's unknown one.
  getAccountDetails: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getPrivateAppsDailyApiUsage: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getRecordLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getCustomObjectTypeLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getCustomPropertyLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getCalculatedPropertyLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getPipelineLimits: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getAssociationLabelLimits: {
    isolation: [
      { ...company, check: 'noOwnerData', foreign: () => ({ query: 'fromObjectTypeId=0-2' }) },
      // The owner's custom type is unknown to another account: 400 naming only what the stranger sent.
      { ...company, check: 'noOwnerData', foreign: (world) => ({ query: `fromObjectTypeId=${world.schemaType}` }) },
    ],
  },
  getTypesNearAssociationLimit: { isolation: [{ ...company, check: 'noOwnerData', foreign: () => ({}) }] },
  getTypesNearAssociationLimitFrom: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ fromObjectTypeId: world.schemaType }), {
        fromObjectTypeId: missing.schemaType,
      }),
    ],
  },
  getAssociationRecordLimits: {
    isolation: [
      sameAsMissing(company.as, (world) => ({ fromObjectTypeId: world.schemaType, toObjectTypeId: '0-1' }), {
        fromObjectTypeId: missing.schemaType,
        toObjectTypeId: '0-1',
      }),
    ],
  },
} satisfies Record<Exclude<SpellingName, DatedSpellingName>, RouteFixture> &
  Partial<Record<DatedSpellingName, RouteFixture>>;

/** The label update and delete routes, on both path spellings: the owner's label is another account's missing one. */
function labelFixtures() {
  const update: RouteFixture = {
    validBody: (world) => ({
      associationTypeId: world.labelTypeId,
      label: 'Fuzz renamed',
      inverseLabel: 'Fuzz inverse renamed',
    }),
    isolation: [sameName((world) => ({ body: { associationTypeId: world.labelTypeId, label: 'Hijacked' } }))],
  };
  const remove: RouteFixture = {
    isolation: [sameName((world) => ({ params: { associationTypeId: String(world.labelTypeId) } }))],
  };
  return {
    updateAssociationLabel: update,
    deleteAssociationLabel: remove,
    updateAssociationLabelSpecPath: update,
    deleteAssociationLabelSpecPath: remove,
  };
}

export const isAuthenticated = (route: Route): boolean => route.scopes !== 'public';

/** Spellings of the table whose fixture is missing or incomplete, with the reason: the generated tests fail on any. */
export function missingFixtures(): string[] {
  const fixtures: Record<string, RouteFixture | undefined> = routeFixtures;
  const known = Object.keys(paramValues({} as World));
  const problems: string[] = [];
  for (const route of routeSpellings) {
    const fixture = fixtures[route.spelling] ?? (isDatedTwin(route) ? fixtures[route.name] : undefined);
    if (!fixture) {
      problems.push(`${route.spelling}: no entry in test/support/route-fixtures.ts`);
      continue;
    }
    if (route.body !== 'none' && !fixture.validBody && route.format !== 'html')
      problems.push(`${route.spelling}: no validBody`);
    if (isAuthenticated(route) && !fixture.isolation?.length)
      problems.push(`${route.spelling}: no tenant-isolation case`);
    for (const param of route.path.match(/\{([^}]+)\}/g) ?? []) {
      if (!known.includes(param.slice(1, -1))) problems.push(`${route.spelling}: no value for path parameter ${param}`);
    }
  }
  return problems;
}

/** The fixture of one spelling of a row. */
export function fixtureOf(route: RouteSpelling): RouteFixture {
  const fixtures: Record<string, RouteFixture | undefined> = routeFixtures;
  const fixture = fixtures[route.spelling] ?? (isDatedTwin(route) ? fixtures[route.name] : undefined);
  if (!fixture) throw new Error(`${route.spelling}: no entry in test/support/route-fixtures.ts`);
  return fixture;
}
