import type { PartitionName } from './db/keys';
import { spellingsOf, type Route, type RouteSpelling, type Throttle } from './base/route-types';
import { anyPipelineReadScopes, anyPipelineWriteScopes } from './pipelines/pipeline-scopes';

const companyReadScopes = ['crm.objects.companies.read'] as const;
const companyWriteScopes = ['crm.objects.companies.write'] as const;
const companyPropertyReadScopes = ['crm.schemas.companies.read', 'crm.objects.companies.read'] as const;
const companyPropertyWriteScopes = ['crm.schemas.companies.write'] as const;
const labelReadScopes = ['crm.objects.companies.read', 'crm.schemas.companies.read'] as const;
const labelWriteScopes = ['crm.schemas.companies.write', 'crm.objects.companies.write'] as const;
// Owners: HubSpot's spec takes either scope.
const ownerReadScopes = ['crm.objects.owners.read', 'automation'] as const;

/**
 * Throttles of their own, below the stage's default: the unauthenticated login form (password
 * guessing; the per-email lockout still applies) and the endpoints that check client secrets
 * (token, introspect, revoke; client-secret guessing).
 */
const loginForm: Throttle = { rateLimit: 10, burstLimit: 20 };
const clientSecretEndpoint: Throttle = { rateLimit: 50, burstLimit: 100 };

/**
 * The one route table: per row, one function, the paths it serves (its path and its aliases), who
 * may call it, the table partitions it may touch and its throttle. The CDK stack makes one function
 * per row and one HTTP API route per spelling, the local gateway dispatches every spelling with it,
 * and the tests walk every spelling (`routeSpellings`).
 */
export const routes = [
  { name: 'notFound', method: 'ANY', path: '$default',
    entry: 'functions/not-found.ts', scopes: 'public', body: 'none', table: 'none', partitions: [] },

  // Legacy timeline v1: event types and their properties belong to the app and are managed with its developer's
  // API key (reads also by the app's access tokens); events belong to the token's hub.
  { name: 'createTimelineEventType', method: 'POST', path: '/integrations/v1/{appId}/timeline/event-types',
    entry: 'functions/timeline/create-event-type.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'counters', 'developerApiKeys'] },
  { name: 'listTimelineEventTypes', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types',
    entry: 'functions/timeline/list-event-types.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'getTimelineEventType', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/get-event-type.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'updateTimelineEventType', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/update-event-type.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'deleteTimelineEventType', method: 'DELETE', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/delete-event-type.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'createTimelineEventTypeProperty', method: 'POST', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/create-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'counters', 'developerApiKeys'] },
  { name: 'listTimelineEventTypeProperties', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/list-event-type-properties.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'updateTimelineEventTypeProperty', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/update-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'deleteTimelineEventTypeProperty', method: 'DELETE', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties/{propertyId}',
    entry: 'functions/timeline/delete-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'createTimelineEvent', method: 'POST', path: '/integrations/v1/{appId}/timeline/event',
    entry: 'functions/timeline/create-event.ts', scopes: ['timeline'], body: 'json', table: 'readwrite',
    partitions: ['apps', 'hubs', 'timelineEvents'] },
  { name: 'putTimelineEvent', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event',
    entry: 'functions/timeline/put-event.ts', scopes: ['timeline'], body: 'json', table: 'readwrite',
    partitions: ['apps', 'hubs', 'timelineEvents'] },
  { name: 'createTimelineEventBatch', method: 'POST', path: '/integrations/v1/{appId}/timeline/event/batch',
    entry: 'functions/timeline/create-event-batch.ts', scopes: ['timeline'], body: 'json', table: 'readwrite',
    partitions: ['apps', 'hubs', 'timelineEvents'] },
  { name: 'putTimelineEventBatch', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event/batch',
    entry: 'functions/timeline/put-event-batch.ts', scopes: ['timeline'], body: 'json', table: 'readwrite',
    partitions: ['apps', 'hubs', 'timelineEvents'] },
  { name: 'getTimelineEvent', method: 'GET', path: '/integrations/v1/{appId}/timeline/event/{eventTypeId}/{eventId}',
    entry: 'functions/timeline/get-event.ts', scopes: ['timeline'], body: 'none', table: 'read',
    partitions: ['apps', 'timelineEvents'] },

  // Webhooks v3: the app's target and subscriptions, managed with its developer's API key.
  { name: 'getWebhookSettings', method: 'GET', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/get-settings.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'configureWebhookSettings', method: 'PUT', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/configure-settings.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'deleteWebhookSettings', method: 'DELETE', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/delete-settings.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'listWebhookSubscriptions', method: 'GET', path: '/webhooks/v3/{appId}/subscriptions',
    entry: 'functions/webhooks/list-subscriptions.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'createWebhookSubscription', method: 'POST', path: '/webhooks/v3/{appId}/subscriptions',
    entry: 'functions/webhooks/create-subscription.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'counters', 'developerApiKeys'] },
  { name: 'getWebhookSubscription', method: 'GET', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/get-subscription.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'updateWebhookSubscription', method: 'PATCH', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/update-subscription.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'deleteWebhookSubscription', method: 'DELETE', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/delete-subscription.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  { name: 'batchUpdateWebhookSubscriptions', method: 'POST', path: '/webhooks/v3/{appId}/subscriptions/batch/update',
    entry: 'functions/webhooks/batch-update-subscriptions.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite',
    partitions: ['apps', 'developerApiKeys'] },
  // Ours, not HubSpot's: recent delivery attempts, so a developer can see why a delivery failed.
  { name: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/v3/{appId}/deliveries',
    entry: 'functions/webhooks/list-deliveries.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read',
    partitions: ['apps', 'developerApiKeys'] },

  // OAuth 2.0: install pages (browser) and token API
  { name: 'authorize', method: 'GET', path: '/oauth/authorize',
    entry: 'functions/oauth/authorize.ts', scopes: 'public', body: 'none', table: 'read',
    partitions: ['appsByClientId', 'hubs', 'users'], secrets: ['sessionSecret'], format: 'html' },
  { name: 'login', method: 'POST', path: '/oauth/authorize/login',
    entry: 'functions/oauth/login.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    partitions: ['appsByClientId', 'users', 'loginAttempts'],
    secrets: ['sessionSecret'], format: 'html', throttle: loginForm },
  { name: 'decideConsent', method: 'POST', path: '/oauth/authorize/decision',
    entry: 'functions/oauth/decide-consent.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    partitions: ['appsByClientId', 'hubs', 'users', 'authCodes'], secrets: ['sessionSecret'], format: 'html' },
  { name: 'demoCallback', method: 'GET', path: '/oauth/demo-callback',
    entry: 'functions/oauth/demo-callback.ts', scopes: 'public', body: 'none', table: 'none',
    partitions: [], format: 'html' },
  { name: 'issueToken', method: 'POST', path: '/oauth/v1/token',
    entry: 'functions/oauth/issue-token.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    partitions: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants', 'installStates'],
    secrets: ['signingKey'], format: 'oauth', throttle: clientSecretEndpoint },
  // OAuth 2026-03 token API (RFC 6749 token, RFC 7662 introspect, RFC 7009 revoke), each also on its /oauth/v3 alias.
  { name: 'issueToken202603', method: 'POST', path: '/oauth/2026-03/token',
    entry: 'functions/oauth/issue-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    partitions: ['appsByClientId', 'hubs', 'authCodes', 'usedAuthCodes', 'refreshTokens', 'grants', 'installStates'],
    secrets: ['signingKey'], format: 'oauth', throttle: clientSecretEndpoint,
    aliases: [{ name: 'issueTokenV3', path: '/oauth/v3/token' }] },
  { name: 'introspectToken202603', method: 'POST', path: '/oauth/2026-03/token/introspect',
    entry: 'functions/oauth/introspect-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'read',
    partitions: ['appsByClientId', 'refreshTokens', 'grants', 'installStates'], format: 'oauth', throttle: clientSecretEndpoint,
    aliases: [{ name: 'introspectTokenV3', path: '/oauth/v3/token/introspect' }] },
  { name: 'revokeToken202603', method: 'POST', path: '/oauth/2026-03/token/revoke',
    entry: 'functions/oauth/revoke-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    partitions: ['appsByClientId', 'refreshTokens', 'grants'], format: 'oauth', throttle: clientSecretEndpoint,
    aliases: [{ name: 'revokeTokenV3', path: '/oauth/v3/token/revoke' }] },
  // Token metadata is public: these reach only the token records (and the install state), never users or their password hashes.
  { name: 'getAccessTokenInfo', method: 'GET', path: '/oauth/v1/access-tokens/{token}',
    entry: 'functions/oauth/get-access-token-info.ts', scopes: 'public', body: 'none', table: 'read',
    partitions: ['grants', 'installStates'] },
  { name: 'getRefreshTokenInfo', method: 'GET', path: '/oauth/v1/refresh-tokens/{token}',
    entry: 'functions/oauth/get-refresh-token-info.ts', scopes: 'public', body: 'none', table: 'read',
    partitions: ['refreshTokens', 'installStates'] },
  { name: 'deleteRefreshToken', method: 'DELETE', path: '/oauth/v1/refresh-tokens/{token}',
    entry: 'functions/oauth/delete-refresh-token.ts', scopes: 'public', body: 'none', table: 'readwrite',
    partitions: ['refreshTokens'] },
  // App uninstall (ends the token's install) on the 2026-03 path and its v3 alias: its state (INSTALL_STATE#) and the
  // install record in the account's partition.
  { name: 'uninstallApp202603', method: 'DELETE', path: '/appinstalls/2026-03/external-install',
    entry: 'functions/oauth/uninstall-app.ts', scopes: ['oauth'], body: 'none', table: 'readwrite',
    partitions: ['hubs', 'installStates'],
    aliases: [{ name: 'uninstallAppV3', path: '/appinstalls/v3/external-install' }] },

  // CRM properties of companies
  { name: 'listCompanyProperties', method: 'GET', path: '/crm/v3/properties/companies',
    entry: 'functions/properties/list-company-properties.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'getCompanyProperty', method: 'GET', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/get-company-property.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'createCompanyProperty', method: 'POST', path: '/crm/v3/properties/companies',
    entry: 'functions/properties/create-company-property.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'updateCompanyProperty', method: 'PATCH', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/update-company-property.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'archiveCompanyProperty', method: 'DELETE', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/archive-company-property.ts', scopes: companyPropertyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchReadCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/read',
    entry: 'functions/properties/batch-read-company-properties.ts', scopes: companyPropertyReadScopes, body: 'json', table: 'read',
    partitions: ['hubs'] },
  { name: 'batchCreateCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/create',
    entry: 'functions/properties/batch-create-company-properties.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchArchiveCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/archive',
    entry: 'functions/properties/batch-archive-company-properties.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'listPropertyGroups', method: 'GET', path: '/crm/v3/properties/companies/groups',
    entry: 'functions/properties/list-property-groups.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'createPropertyGroup', method: 'POST', path: '/crm/v3/properties/companies/groups',
    entry: 'functions/properties/create-property-group.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'getPropertyGroup', method: 'GET', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/get-property-group.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'updatePropertyGroup', method: 'PATCH', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/update-property-group.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'archivePropertyGroup', method: 'DELETE', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/archive-property-group.ts', scopes: companyPropertyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },

  // CRM company records
  { name: 'createCompany', method: 'POST', path: '/crm/v3/objects/companies',
    entry: 'functions/companies/create-company.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'listCompanies', method: 'GET', path: '/crm/v3/objects/companies',
    entry: 'functions/companies/list-companies.ts', scopes: companyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'getCompany', method: 'GET', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/get-company.ts', scopes: companyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'updateCompany', method: 'PATCH', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/update-company.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'archiveCompany', method: 'DELETE', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/archive-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'searchCompanies', method: 'POST', path: '/crm/v3/objects/companies/search',
    entry: 'functions/companies/search-companies.ts', scopes: companyReadScopes, body: 'json', table: 'read',
    partitions: ['hubs'], rateLimit: 'search' },
  { name: 'mergeCompanies', method: 'POST', path: '/crm/v3/objects/companies/merge',
    entry: 'functions/companies/merge-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchReadCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/read',
    entry: 'functions/companies/batch-read-companies.ts', scopes: companyReadScopes, body: 'json', table: 'read',
    partitions: ['hubs'] },
  { name: 'batchCreateCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/create',
    entry: 'functions/companies/batch-create-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchUpdateCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/update',
    entry: 'functions/companies/batch-update-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchUpsertCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/upsert',
    entry: 'functions/companies/batch-upsert-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchArchiveCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/archive',
    entry: 'functions/companies/batch-archive-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },

  // Company associations (v3 per record) and association labels (v4), the labels also on the published spec's spelling
  // of their paths (/crm/associations/v4/...).
  { name: 'associateCompany', method: 'PUT', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}/{toObjectId}/{associationTypeId}',
    entry: 'functions/associations/associate-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'disassociateCompany', method: 'DELETE', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}/{toObjectId}/{associationTypeId}',
    entry: 'functions/associations/disassociate-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'listAssociationLabels', method: 'GET', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/list-association-labels.ts', scopes: labelReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'],
    aliases: [{ name: 'listAssociationLabelsSpecPath', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels' }] },
  { name: 'createAssociationLabel', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/create-association-label.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'],
    aliases: [{ name: 'createAssociationLabelSpecPath', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels' }] },
  { name: 'updateAssociationLabel', method: 'PUT', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/update-association-label.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'],
    aliases: [{ name: 'updateAssociationLabelSpecPath', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels' }] },
  { name: 'deleteAssociationLabel', method: 'DELETE', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels/{associationTypeId}',
    entry: 'functions/associations/delete-association-label.ts', scopes: labelWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'],
    aliases: [{ name: 'deleteAssociationLabelSpecPath', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels/{associationTypeId}' }] },

  // Record associations: v3 read of a company's associations, and v4 from or to a company (either side may be the company).
  { name: 'listCompanyAssociations', method: 'GET', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}',
    entry: 'functions/associations/list-company-associations.ts', scopes: companyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'getRecordAssociations', method: 'GET', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}',
    entry: 'functions/associations/get-record-associations.ts', scopes: companyReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'putRecordAssociation', method: 'PUT', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/put-record-association.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'putDefaultAssociation', method: 'PUT', path: '/crm/v4/objects/{objectType}/{objectId}/associations/default/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/put-default-association.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'deleteRecordAssociation', method: 'DELETE', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/delete-record-association.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },

  // v4 association batches between two object types (one of them companies).
  { name: 'batchCreateAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/create',
    entry: 'functions/associations/batch-create-associations.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchReadAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read',
    entry: 'functions/associations/batch-read-associations.ts', scopes: companyReadScopes, body: 'json', table: 'read',
    partitions: ['hubs'] },
  { name: 'batchArchiveAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/archive',
    entry: 'functions/associations/batch-archive-associations.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchArchiveAssociationLabels', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/labels/archive',
    entry: 'functions/associations/batch-archive-association-labels.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'batchAssociateDefault', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/associate/default',
    entry: 'functions/associations/batch-associate-default.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },

  // CRM pipelines of deals and tickets ({pipelineObjectType}: deals, 0-3, tickets, 0-5). A row asks for
  // any type's scope; the handler then requires the scope of the path's type (shared/pipelines/pipeline-scopes.ts).
  { name: 'listPipelines', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}',
    entry: 'functions/pipelines/list-pipelines.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'createPipeline', method: 'POST', path: '/crm/v3/pipelines/{pipelineObjectType}',
    entry: 'functions/pipelines/create-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'getPipeline', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/get-pipeline.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'replacePipeline', method: 'PUT', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/replace-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'updatePipeline', method: 'PATCH', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/update-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'archivePipeline', method: 'DELETE', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/archive-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'getPipelineAudit', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/audit',
    entry: 'functions/pipelines/get-pipeline-audit.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'listPipelineStages', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages',
    entry: 'functions/pipelines/list-pipeline-stages.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'createPipelineStage', method: 'POST', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages',
    entry: 'functions/pipelines/create-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'getPipelineStage', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/get-pipeline-stage.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'replacePipelineStage', method: 'PUT', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/replace-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'updatePipelineStage', method: 'PATCH', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/update-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite',
    partitions: ['hubs'] },
  { name: 'archivePipelineStage', method: 'DELETE', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/archive-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'none', table: 'readwrite',
    partitions: ['hubs'] },
  // The official SDK 14 sends {pipelineId} unfilled here (%7BpipelineId%7D): the stage is then found in any pipeline of the type.
  { name: 'getPipelineStageAudit', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}/audit',
    entry: 'functions/pipelines/get-pipeline-stage-audit.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },

  // CRM owners: the account's users (shared/owners). The SDK adds a slash when it sends a query
  // (/crm/v3/owners/?limit=10): API Gateway, and the local gateway, route that here too.
  { name: 'listOwners', method: 'GET', path: '/crm/v3/owners',
    entry: 'functions/owners/list-owners.ts', scopes: ownerReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
  { name: 'getOwner', method: 'GET', path: '/crm/v3/owners/{ownerId}',
    entry: 'functions/owners/get-owner.ts', scopes: ownerReadScopes, body: 'none', table: 'read',
    partitions: ['hubs'] },
] as const satisfies readonly Route<PartitionName>[];

export type RouteName = (typeof routes)[number]['name'];
export type RouteByName<N extends RouteName> = Extract<(typeof routes)[number], { name: N }>;

export function findRoute(name: RouteName): Route {
  const route = routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}

type Row = (typeof routes)[number];
/** The names of the aliases of the table's rows. */
export type AliasName = Row extends infer R ? (R extends { readonly aliases: readonly (infer A)[] } ? (A extends { readonly name: infer N } ? N : never) : never) : never;
/** Every spelling's name: a row's (its own path) or an alias's. */
export type SpellingName = RouteName | AliasName;

/** Every path of every row, in the order of the table (a row on its own path, then on each alias): what the tests walk. */
export const routeSpellings: readonly RouteSpelling<PartitionName>[] = routes.flatMap((route: Route<PartitionName>) => spellingsOf(route));
