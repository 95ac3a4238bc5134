import type { PartitionName } from './db/keys';

/**
 * The table partitions each route's function may touch, by route name: the stack turns them into
 * an IAM `dynamodb:LeadingKeys` condition (lib/api-stack.ts), so a function reaches only these
 * partitions even with a bug in its code. Traced from the repositories each handler calls; the
 * test in test/lib/route-partitions.test.ts fails when a route's shipped bundle can build a key in a
 * partition not listed here. A route with table access 'none' lists none. Every route that takes
 * access tokens also gets GetItem on the install states (INSTALL_STATE#, the auth step's install
 * check) by rule in lib/route-stack.ts, as the rate limiter's UpdateItem: not listed here.
 */
export const routePartitions: Readonly<Record<string, readonly PartitionName[]>> = {
  notFound: [],

  createTimelineEventType: ['apps', 'counters', 'developerApiKeys'],
  listTimelineEventTypes: ['apps', 'developerApiKeys'],
  getTimelineEventType: ['apps', 'developerApiKeys'],
  updateTimelineEventType: ['apps', 'developerApiKeys'],
  deleteTimelineEventType: ['apps', 'developerApiKeys'],
  createTimelineEventTypeProperty: ['apps', 'counters', 'developerApiKeys'],
  listTimelineEventTypeProperties: ['apps', 'developerApiKeys'],
  updateTimelineEventTypeProperty: ['apps', 'developerApiKeys'],
  deleteTimelineEventTypeProperty: ['apps', 'developerApiKeys'],
  createTimelineEvent: ['apps', 'hubs', 'timelineEvents'],
  putTimelineEvent: ['apps', 'hubs', 'timelineEvents'],
  createTimelineEventBatch: ['apps', 'hubs', 'timelineEvents'],
  putTimelineEventBatch: ['apps', 'hubs', 'timelineEvents'],
  getTimelineEvent: ['apps', 'timelineEvents'],

  getWebhookSettings: ['apps', 'developerApiKeys'],
  configureWebhookSettings: ['apps', 'developerApiKeys'],
  deleteWebhookSettings: ['apps', 'developerApiKeys'],
  listWebhookSubscriptions: ['apps', 'developerApiKeys'],
  createWebhookSubscription: ['apps', 'counters', 'developerApiKeys'],
  getWebhookSubscription: ['apps', 'developerApiKeys'],
  updateWebhookSubscription: ['apps', 'developerApiKeys'],
  deleteWebhookSubscription: ['apps', 'developerApiKeys'],
  batchUpdateWebhookSubscriptions: ['apps', 'developerApiKeys'],
  listWebhookDeliveries: ['apps', 'developerApiKeys'],

  authorize: ['appsByClientId', 'hubs', 'users'],
  login: ['appsByClientId', 'users', 'loginAttempts'],
  decideConsent: ['appsByClientId', 'hubs', 'users', 'authCodes'],
  demoCallback: [],
  issueToken: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants', 'installStates'],
  // Token metadata is public: these reach only the token records (and the install state), never users or their password hashes.
  getAccessTokenInfo: ['grants', 'installStates'],
  getRefreshTokenInfo: ['refreshTokens', 'installStates'],
  deleteRefreshToken: ['refreshTokens'],
  issueToken202603: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants', 'installStates'],
  issueTokenV3: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants', 'installStates'],
  introspectToken202603: ['appsByClientId', 'refreshTokens', 'grants', 'installStates'],
  introspectTokenV3: ['appsByClientId', 'refreshTokens', 'grants', 'installStates'],
  revokeToken202603: ['appsByClientId', 'refreshTokens', 'grants'],
  revokeTokenV3: ['appsByClientId', 'refreshTokens', 'grants'],
  // Ends the install: its state (INSTALL_STATE#) and the install record in the account's partition.
  uninstallApp202603: ['hubs', 'installStates'],
  uninstallAppV3: ['hubs', 'installStates'],

  listCompanyProperties: ['hubs'],
  getCompanyProperty: ['hubs'],
  createCompanyProperty: ['hubs'],
  updateCompanyProperty: ['hubs'],
  archiveCompanyProperty: ['hubs'],
  batchReadCompanyProperties: ['hubs'],
  batchCreateCompanyProperties: ['hubs'],
  batchArchiveCompanyProperties: ['hubs'],
  listPropertyGroups: ['hubs'],
  createPropertyGroup: ['hubs'],
  getPropertyGroup: ['hubs'],
  updatePropertyGroup: ['hubs'],
  archivePropertyGroup: ['hubs'],

  createCompany: ['hubs'],
  listCompanies: ['hubs'],
  getCompany: ['hubs'],
  updateCompany: ['hubs'],
  archiveCompany: ['hubs'],
  batchReadCompanies: ['hubs'],
  batchCreateCompanies: ['hubs'],
  batchUpdateCompanies: ['hubs'],
  batchUpsertCompanies: ['hubs'],
  batchArchiveCompanies: ['hubs'],
  searchCompanies: ['hubs'],
  mergeCompanies: ['hubs'],

  associateCompany: ['hubs'],
  disassociateCompany: ['hubs'],
  listAssociationLabels: ['hubs'],
  createAssociationLabel: ['hubs'],
  updateAssociationLabel: ['hubs'],
  deleteAssociationLabel: ['hubs'],
  listAssociationLabelsSpecPath: ['hubs'],
  createAssociationLabelSpecPath: ['hubs'],
  updateAssociationLabelSpecPath: ['hubs'],
  deleteAssociationLabelSpecPath: ['hubs'],
  listCompanyAssociations: ['hubs'],
  getRecordAssociations: ['hubs'],
  putRecordAssociation: ['hubs'],
  putDefaultAssociation: ['hubs'],
  deleteRecordAssociation: ['hubs'],
  batchCreateAssociations: ['hubs'],
  batchReadAssociations: ['hubs'],
  batchArchiveAssociations: ['hubs'],
  batchArchiveAssociationLabels: ['hubs'],
  batchAssociateDefault: ['hubs'],

  listOwners: ['hubs'],
  getOwner: ['hubs'],
};
