import type { PartitionName } from './db/keys';

/**
 * The table partitions each route's function may touch, by route name: the stack turns them into
 * an IAM `dynamodb:LeadingKeys` condition (lib/api-stack.ts), so a function reaches only these
 * partitions even with a bug in its code. Traced from the repositories each handler calls; the
 * test in test/lib/route-partitions.test.ts fails when a route's shipped bundle can build a key in a
 * partition not listed here. A route with table access 'none' lists none.
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

  authorize: ['appsByClientId', 'hubs', 'users'],
  login: ['appsByClientId', 'users', 'loginAttempts'],
  decideConsent: ['appsByClientId', 'hubs', 'users', 'authCodes'],
  demoCallback: [],
  issueToken: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants'],
  // Token metadata is public: these reach only the token records, never users or their password hashes.
  getAccessTokenInfo: ['grants'],
  getRefreshTokenInfo: ['refreshTokens'],
  deleteRefreshToken: ['refreshTokens'],

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
};
