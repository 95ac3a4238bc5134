import type { Route } from './base/route-types';
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
 * The one route table. The CDK stack makes one function and one HTTP API route per row,
 * the local gateway dispatches with it, and the tests walk it.
 */
export const routes = [
  { name: 'notFound', method: 'ANY', path: '$default',
    entry: 'functions/not-found.ts', scopes: 'public', body: 'none', table: 'none' },

  // Legacy timeline v1: event types and their properties belong to the app and are managed with its developer's
  // API key (reads also by the app's access tokens); events belong to the token's hub.
  { name: 'createTimelineEventType', method: 'POST', path: '/integrations/v1/{appId}/timeline/event-types',
    entry: 'functions/timeline/create-event-type.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'listTimelineEventTypes', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types',
    entry: 'functions/timeline/list-event-types.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read' },
  { name: 'getTimelineEventType', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/get-event-type.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read' },
  { name: 'updateTimelineEventType', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/update-event-type.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'deleteTimelineEventType', method: 'DELETE', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}',
    entry: 'functions/timeline/delete-event-type.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite' },
  { name: 'createTimelineEventTypeProperty', method: 'POST', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/create-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'listTimelineEventTypeProperties', method: 'GET', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/list-event-type-properties.ts', scopes: ['timeline'], auth: 'developerKeyOrToken', body: 'none', table: 'read' },
  { name: 'updateTimelineEventTypeProperty', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties',
    entry: 'functions/timeline/update-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'deleteTimelineEventTypeProperty', method: 'DELETE', path: '/integrations/v1/{appId}/timeline/event-types/{eventTypeId}/properties/{propertyId}',
    entry: 'functions/timeline/delete-event-type-property.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite' },
  { name: 'createTimelineEvent', method: 'POST', path: '/integrations/v1/{appId}/timeline/event',
    entry: 'functions/timeline/create-event.ts', scopes: ['timeline'], body: 'json', table: 'readwrite' },
  { name: 'putTimelineEvent', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event',
    entry: 'functions/timeline/put-event.ts', scopes: ['timeline'], body: 'json', table: 'readwrite' },
  { name: 'createTimelineEventBatch', method: 'POST', path: '/integrations/v1/{appId}/timeline/event/batch',
    entry: 'functions/timeline/create-event-batch.ts', scopes: ['timeline'], body: 'json', table: 'readwrite' },
  { name: 'putTimelineEventBatch', method: 'PUT', path: '/integrations/v1/{appId}/timeline/event/batch',
    entry: 'functions/timeline/put-event-batch.ts', scopes: ['timeline'], body: 'json', table: 'readwrite' },
  { name: 'getTimelineEvent', method: 'GET', path: '/integrations/v1/{appId}/timeline/event/{eventTypeId}/{eventId}',
    entry: 'functions/timeline/get-event.ts', scopes: ['timeline'], body: 'none', table: 'read' },

  // Webhooks v3: the app's target and subscriptions, managed with its developer's API key.
  { name: 'getWebhookSettings', method: 'GET', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/get-settings.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read' },
  { name: 'configureWebhookSettings', method: 'PUT', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/configure-settings.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'deleteWebhookSettings', method: 'DELETE', path: '/webhooks/v3/{appId}/settings',
    entry: 'functions/webhooks/delete-settings.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite' },
  { name: 'listWebhookSubscriptions', method: 'GET', path: '/webhooks/v3/{appId}/subscriptions',
    entry: 'functions/webhooks/list-subscriptions.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read' },
  { name: 'createWebhookSubscription', method: 'POST', path: '/webhooks/v3/{appId}/subscriptions',
    entry: 'functions/webhooks/create-subscription.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'getWebhookSubscription', method: 'GET', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/get-subscription.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read' },
  { name: 'updateWebhookSubscription', method: 'PATCH', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/update-subscription.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  { name: 'deleteWebhookSubscription', method: 'DELETE', path: '/webhooks/v3/{appId}/subscriptions/{subscriptionId}',
    entry: 'functions/webhooks/delete-subscription.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'readwrite' },
  { name: 'batchUpdateWebhookSubscriptions', method: 'POST', path: '/webhooks/v3/{appId}/subscriptions/batch/update',
    entry: 'functions/webhooks/batch-update-subscriptions.ts', scopes: [], auth: 'developerKey', body: 'json', table: 'readwrite' },
  // Ours, not HubSpot's: recent delivery attempts, so a developer can see why a delivery failed.
  { name: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/v3/{appId}/deliveries',
    entry: 'functions/webhooks/list-deliveries.ts', scopes: [], auth: 'developerKey', body: 'none', table: 'read' },

  // OAuth 2.0: install pages (browser) and token API
  { name: 'authorize', method: 'GET', path: '/oauth/authorize',
    entry: 'functions/oauth/authorize.ts', scopes: 'public', body: 'none', table: 'read',
    secrets: ['sessionSecret'], format: 'html' },
  { name: 'login', method: 'POST', path: '/oauth/authorize/login',
    entry: 'functions/oauth/login.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    secrets: ['sessionSecret'], format: 'html' },
  { name: 'decideConsent', method: 'POST', path: '/oauth/authorize/decision',
    entry: 'functions/oauth/decide-consent.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    secrets: ['sessionSecret'], format: 'html' },
  { name: 'demoCallback', method: 'GET', path: '/oauth/demo-callback',
    entry: 'functions/oauth/demo-callback.ts', scopes: 'public', body: 'none', table: 'none', format: 'html' },
  { name: 'issueToken', method: 'POST', path: '/oauth/v1/token',
    entry: 'functions/oauth/issue-token.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    secrets: ['signingKey'], format: 'oauth' },
  // OAuth 2026-03 token API (RFC 6749 token, RFC 7662 introspect, RFC 7009 revoke) and its v3 alias
  { name: 'issueToken202603', method: 'POST', path: '/oauth/2026-03/token',
    entry: 'functions/oauth/issue-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    secrets: ['signingKey'], format: 'oauth' },
  { name: 'introspectToken202603', method: 'POST', path: '/oauth/2026-03/token/introspect',
    entry: 'functions/oauth/introspect-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'read', format: 'oauth' },
  { name: 'revokeToken202603', method: 'POST', path: '/oauth/2026-03/token/revoke',
    entry: 'functions/oauth/revoke-token-2026-03.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite', format: 'oauth' },
  { name: 'issueTokenV3', method: 'POST', path: '/oauth/v3/token',
    entry: 'functions/oauth/issue-token-v3.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite',
    secrets: ['signingKey'], format: 'oauth' },
  { name: 'introspectTokenV3', method: 'POST', path: '/oauth/v3/token/introspect',
    entry: 'functions/oauth/introspect-token-v3.ts', scopes: 'public', body: 'urlencoded', table: 'read', format: 'oauth' },
  { name: 'revokeTokenV3', method: 'POST', path: '/oauth/v3/token/revoke',
    entry: 'functions/oauth/revoke-token-v3.ts', scopes: 'public', body: 'urlencoded', table: 'readwrite', format: 'oauth' },
  { name: 'getAccessTokenInfo', method: 'GET', path: '/oauth/v1/access-tokens/{token}',
    entry: 'functions/oauth/get-access-token-info.ts', scopes: 'public', body: 'none', table: 'read' },
  { name: 'getRefreshTokenInfo', method: 'GET', path: '/oauth/v1/refresh-tokens/{token}',
    entry: 'functions/oauth/get-refresh-token-info.ts', scopes: 'public', body: 'none', table: 'read' },
  { name: 'deleteRefreshToken', method: 'DELETE', path: '/oauth/v1/refresh-tokens/{token}',
    entry: 'functions/oauth/delete-refresh-token.ts', scopes: 'public', body: 'none', table: 'readwrite' },
  // App uninstall (ends the token's install): the 2026-03 path and its v3 alias, one handler module (functions/oauth/uninstall-app.ts).
  { name: 'uninstallApp202603', method: 'DELETE', path: '/appinstalls/2026-03/external-install',
    entry: 'functions/oauth/uninstall-app-2026-03.ts', scopes: ['oauth'], body: 'none', table: 'readwrite' },
  { name: 'uninstallAppV3', method: 'DELETE', path: '/appinstalls/v3/external-install',
    entry: 'functions/oauth/uninstall-app-v3.ts', scopes: ['oauth'], body: 'none', table: 'readwrite' },

  // CRM properties of companies
  { name: 'listCompanyProperties', method: 'GET', path: '/crm/v3/properties/companies',
    entry: 'functions/properties/list-company-properties.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read' },
  { name: 'getCompanyProperty', method: 'GET', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/get-company-property.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read' },
  { name: 'createCompanyProperty', method: 'POST', path: '/crm/v3/properties/companies',
    entry: 'functions/properties/create-company-property.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'updateCompanyProperty', method: 'PATCH', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/update-company-property.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'archiveCompanyProperty', method: 'DELETE', path: '/crm/v3/properties/companies/{propertyName}',
    entry: 'functions/properties/archive-company-property.ts', scopes: companyPropertyWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'batchReadCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/read',
    entry: 'functions/properties/batch-read-company-properties.ts', scopes: companyPropertyReadScopes, body: 'json', table: 'read' },
  { name: 'batchCreateCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/create',
    entry: 'functions/properties/batch-create-company-properties.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchArchiveCompanyProperties', method: 'POST', path: '/crm/v3/properties/companies/batch/archive',
    entry: 'functions/properties/batch-archive-company-properties.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'listPropertyGroups', method: 'GET', path: '/crm/v3/properties/companies/groups',
    entry: 'functions/properties/list-property-groups.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read' },
  { name: 'createPropertyGroup', method: 'POST', path: '/crm/v3/properties/companies/groups',
    entry: 'functions/properties/create-property-group.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'getPropertyGroup', method: 'GET', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/get-property-group.ts', scopes: companyPropertyReadScopes, body: 'none', table: 'read' },
  { name: 'updatePropertyGroup', method: 'PATCH', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/update-property-group.ts', scopes: companyPropertyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'archivePropertyGroup', method: 'DELETE', path: '/crm/v3/properties/companies/groups/{groupName}',
    entry: 'functions/properties/archive-property-group.ts', scopes: companyPropertyWriteScopes, body: 'none', table: 'readwrite' },

  // CRM company records
  { name: 'createCompany', method: 'POST', path: '/crm/v3/objects/companies',
    entry: 'functions/companies/create-company.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'listCompanies', method: 'GET', path: '/crm/v3/objects/companies',
    entry: 'functions/companies/list-companies.ts', scopes: companyReadScopes, body: 'none', table: 'read' },
  { name: 'getCompany', method: 'GET', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/get-company.ts', scopes: companyReadScopes, body: 'none', table: 'read' },
  { name: 'updateCompany', method: 'PATCH', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/update-company.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'archiveCompany', method: 'DELETE', path: '/crm/v3/objects/companies/{companyId}',
    entry: 'functions/companies/archive-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'searchCompanies', method: 'POST', path: '/crm/v3/objects/companies/search',
    entry: 'functions/companies/search-companies.ts', scopes: companyReadScopes, body: 'json', table: 'read', rateLimit: 'search' },
  { name: 'mergeCompanies', method: 'POST', path: '/crm/v3/objects/companies/merge',
    entry: 'functions/companies/merge-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchReadCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/read',
    entry: 'functions/companies/batch-read-companies.ts', scopes: companyReadScopes, body: 'json', table: 'read' },
  { name: 'batchCreateCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/create',
    entry: 'functions/companies/batch-create-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchUpdateCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/update',
    entry: 'functions/companies/batch-update-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchUpsertCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/upsert',
    entry: 'functions/companies/batch-upsert-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchArchiveCompanies', method: 'POST', path: '/crm/v3/objects/companies/batch/archive',
    entry: 'functions/companies/batch-archive-companies.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },

  // Company associations (v3 per record) and association labels (v4)
  { name: 'associateCompany', method: 'PUT', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}/{toObjectId}/{associationTypeId}',
    entry: 'functions/associations/associate-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'disassociateCompany', method: 'DELETE', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}/{toObjectId}/{associationTypeId}',
    entry: 'functions/associations/disassociate-company.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'listAssociationLabels', method: 'GET', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/list-association-labels.ts', scopes: labelReadScopes, body: 'none', table: 'read' },
  { name: 'createAssociationLabel', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/create-association-label.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'updateAssociationLabel', method: 'PUT', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/update-association-label.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'deleteAssociationLabel', method: 'DELETE', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/labels/{associationTypeId}',
    entry: 'functions/associations/delete-association-label.ts', scopes: labelWriteScopes, body: 'none', table: 'readwrite' },
  // The published spec's spelling of the label paths.
  { name: 'listAssociationLabelsSpecPath', method: 'GET', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/list-association-labels-spec-path.ts', scopes: labelReadScopes, body: 'none', table: 'read' },
  { name: 'createAssociationLabelSpecPath', method: 'POST', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/create-association-label-spec-path.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'updateAssociationLabelSpecPath', method: 'PUT', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels',
    entry: 'functions/associations/update-association-label-spec-path.ts', scopes: labelWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'deleteAssociationLabelSpecPath', method: 'DELETE', path: '/crm/associations/v4/{fromObjectType}/{toObjectType}/labels/{associationTypeId}',
    entry: 'functions/associations/delete-association-label-spec-path.ts', scopes: labelWriteScopes, body: 'none', table: 'readwrite' },

  // Record associations: v3 read of a company's associations, and v4 from or to a company (either side may be the company).
  { name: 'listCompanyAssociations', method: 'GET', path: '/crm/v3/objects/companies/{companyId}/associations/{toObjectType}',
    entry: 'functions/associations/list-company-associations.ts', scopes: companyReadScopes, body: 'none', table: 'read' },
  { name: 'getRecordAssociations', method: 'GET', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}',
    entry: 'functions/associations/get-record-associations.ts', scopes: companyReadScopes, body: 'none', table: 'read' },
  { name: 'putRecordAssociation', method: 'PUT', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/put-record-association.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'putDefaultAssociation', method: 'PUT', path: '/crm/v4/objects/{objectType}/{objectId}/associations/default/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/put-default-association.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'deleteRecordAssociation', method: 'DELETE', path: '/crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}',
    entry: 'functions/associations/delete-record-association.ts', scopes: companyWriteScopes, body: 'none', table: 'readwrite' },

  // v4 association batches between two object types (one of them companies).
  { name: 'batchCreateAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/create',
    entry: 'functions/associations/batch-create-associations.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchReadAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read',
    entry: 'functions/associations/batch-read-associations.ts', scopes: companyReadScopes, body: 'json', table: 'read' },
  { name: 'batchArchiveAssociations', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/archive',
    entry: 'functions/associations/batch-archive-associations.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchArchiveAssociationLabels', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/labels/archive',
    entry: 'functions/associations/batch-archive-association-labels.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'batchAssociateDefault', method: 'POST', path: '/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/associate/default',
    entry: 'functions/associations/batch-associate-default.ts', scopes: companyWriteScopes, body: 'json', table: 'readwrite' },

  // CRM pipelines of deals and tickets ({pipelineObjectType}: deals, 0-3, tickets, 0-5). A row asks for
  // any type's scope; the handler then requires the scope of the path's type (shared/pipelines/pipeline-scopes.ts).
  { name: 'listPipelines', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}',
    entry: 'functions/pipelines/list-pipelines.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },
  { name: 'createPipeline', method: 'POST', path: '/crm/v3/pipelines/{pipelineObjectType}',
    entry: 'functions/pipelines/create-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'getPipeline', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/get-pipeline.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },
  { name: 'replacePipeline', method: 'PUT', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/replace-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'updatePipeline', method: 'PATCH', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/update-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'archivePipeline', method: 'DELETE', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}',
    entry: 'functions/pipelines/archive-pipeline.ts', scopes: anyPipelineWriteScopes, body: 'none', table: 'readwrite' },
  { name: 'getPipelineAudit', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/audit',
    entry: 'functions/pipelines/get-pipeline-audit.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },
  { name: 'listPipelineStages', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages',
    entry: 'functions/pipelines/list-pipeline-stages.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },
  { name: 'createPipelineStage', method: 'POST', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages',
    entry: 'functions/pipelines/create-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'getPipelineStage', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/get-pipeline-stage.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },
  { name: 'replacePipelineStage', method: 'PUT', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/replace-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'updatePipelineStage', method: 'PATCH', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/update-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'json', table: 'readwrite' },
  { name: 'archivePipelineStage', method: 'DELETE', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}',
    entry: 'functions/pipelines/archive-pipeline-stage.ts', scopes: anyPipelineWriteScopes, body: 'none', table: 'readwrite' },
  // The official SDK 14 sends {pipelineId} unfilled here (%7BpipelineId%7D): the stage is then found in any pipeline of the type.
  { name: 'getPipelineStageAudit', method: 'GET', path: '/crm/v3/pipelines/{pipelineObjectType}/{pipelineId}/stages/{stageId}/audit',
    entry: 'functions/pipelines/get-pipeline-stage-audit.ts', scopes: anyPipelineReadScopes, body: 'none', table: 'read' },

  // CRM owners: the account's users (shared/owners). The SDK adds a slash when it sends a query
  // (/crm/v3/owners/?limit=10): API Gateway, and the local gateway, route that here too.
  { name: 'listOwners', method: 'GET', path: '/crm/v3/owners',
    entry: 'functions/owners/list-owners.ts', scopes: ownerReadScopes, body: 'none', table: 'read' },
  { name: 'getOwner', method: 'GET', path: '/crm/v3/owners/{ownerId}',
    entry: 'functions/owners/get-owner.ts', scopes: ownerReadScopes, body: 'none', table: 'read' },
] as const satisfies readonly Route[];

export type RouteName = (typeof routes)[number]['name'];
export type RouteByName<N extends RouteName> = Extract<(typeof routes)[number], { name: N }>;

export function findRoute(name: RouteName): Route {
  const route = routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}
