import { request as httpRequest } from 'node:http';
import type { RunningGateway } from '../../local/local-gateway';
import { clientCredentialsToken, unique, type InstalledTokens } from './harness';
import { schemaBody, type World } from './route-fixtures';

/**
 * The records the table-driven tests (test/functions/route-table-auth.test.ts,
 * test/functions/dated-twins.test.ts) create in an owner's account before using the fixtures of
 * test/support/route-fixtures.ts, through the gateway as a client would.
 */

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Any method with any body (fetch refuses a body on GET), over HTTP to the local gateway. */
export function sendRaw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl}${path}`);
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An Authorization header, a developer API key (`?hapikey=`), both or neither. */
export interface Credential {
  header?: string;
  hapikey?: string;
}

/**
 * The owner's records of one world (and one company of the stranger), and what only the owner's
 * records carry. The owner's app lists the journal scopes (harness journalAppScopes): the world holds
 * a journal subscription and filter of it.
 */
export async function buildWorld(
  gateway: RunningGateway,
  owner: InstalledTokens,
  stranger: InstalledTokens,
): Promise<{ world: World; ownerOnly: string[] }> {
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    sendRaw(gateway.baseUrl, method, path, headers, body);
  async function postOwner(
    path: string,
    body: unknown,
    credential: Credential = { header: `Bearer ${owner.accessToken}` },
  ): Promise<Record<string, unknown>> {
    const query = credential.hapikey === undefined ? '' : `?hapikey=${encodeURIComponent(credential.hapikey)}`;
    const response = await send(
      'POST',
      `${path}${query}`,
      { ...(credential.header ? { authorization: credential.header } : {}), 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    if (response.status >= 300) throw new Error(`fixture ${path}: ${response.status} ${response.text}`);
    return response.text === '' ? {} : (JSON.parse(response.text) as Record<string, unknown>);
  }
  const fresh = unique('iso')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const companyDomain = `owned-${fresh}.example`;
  const company = await postOwner('/crm/v3/objects/companies', {
    properties: { name: `Owned ${fresh}`, domain: companyDomain },
  });
  const ownerDomains = {
    createObject: `create-owned-${fresh}.example`,
    batchCreateObjects: `batch-owned-${fresh}.example`,
    batchUpsertObjects: `upsert-owned-${fresh}.example`,
  };
  const others = await Promise.all(
    Object.values(ownerDomains).map((domain) =>
      postOwner('/crm/v3/objects/companies', { properties: { name: `Owned ${fresh}`, domain } }),
    ),
  );
  const strangerCompany = await postOwner(
    '/crm/v3/objects/companies',
    { properties: { name: 'Stranger' } },
    { header: `Bearer ${stranger.accessToken}` },
  );
  const customPropertyName = `owned_${fresh}`;
  await postOwner('/crm/v3/properties/companies', {
    name: customPropertyName,
    label: `Owned property ${fresh}`,
    type: 'string',
    fieldType: 'text',
    groupName: 'companyinformation',
  });
  const labelName = `owned_label_${fresh}`;
  const label = await postOwner('/crm/v4/associations/companies/contacts/labels', {
    name: labelName,
    label: `Owned label ${fresh}`,
  });
  const labelTypeId = Number((label.results as { typeId: number }[])[0]?.typeId);
  const groupName = `owned_group_${fresh}`;
  await postOwner('/crm/v3/properties/companies/groups', { name: groupName, label: `Owned group ${fresh}` });
  const key = { hapikey: owner.developerApiKey };
  const timeline = `/integrations/v1/${owner.appId}/timeline`;
  const eventType = await postOwner(`${timeline}/event-types`, { name: 'Owned type', objectType: 'COMPANY' }, key);
  const eventTypeId = Number(eventType.id);
  const property = await postOwner(
    `${timeline}/event-types/${eventTypeId}/properties`,
    { name: 'level', label: 'Level', propertyType: 'String' },
    key,
  );
  const eventId = `owned-event-${fresh}`;
  const ownerEventIds = {
    createTimelineEvent: `${eventId}-create`,
    putTimelineEvent: `${eventId}-put`,
    createTimelineEventBatch: `${eventId}-batch`,
    putTimelineEventBatch: `${eventId}-put-batch`,
  };
  for (const id of [eventId, ...Object.values(ownerEventIds)])
    await postOwner(`${timeline}/event`, { id, eventTypeId, objectId: Number(company.id), level: 'high' });
  const subscription = await postOwner(
    `/webhooks/v3/${owner.appId}/subscriptions`,
    { eventType: 'company.creation' },
    key,
  );
  const pipeline = await postOwner('/crm/v3/pipelines/deals', {
    label: `Owned pipeline ${fresh}`,
    displayOrder: 5,
    stages: [{ label: `Owned stage ${fresh}`, displayOrder: 0, metadata: { probability: '0.5' } }],
  });
  const schema = await postOwner('/crm-object-schemas/v3/schemas', schemaBody(`owned_schema_${fresh}`));
  const owners = JSON.parse(
    (await send('GET', '/crm/v3/owners', { authorization: `Bearer ${owner.accessToken}` })).text,
  ) as { results: { id: string }[] };
  const testAccount = await postOwner('/sandbox/v1/test-accounts', { name: `Owned test account ${fresh}` }, key);
  const fault = await postOwner(
    `/sandbox/v1/test-accounts/${String(testAccount.hubId)}/faults`,
    { path: '/crm/v3/objects/deals', status: 503, count: 1000 },
    key,
  );
  const listName = `Owned list ${fresh}`;
  const list = (await postOwner('/crm/v3/lists', { name: listName, objectTypeId: '0-2', processingType: 'MANUAL' }))
    .list as { listId: string };
  const sourceList = (
    await postOwner('/crm/v3/lists', {
      name: `Owned source list ${fresh}`,
      objectTypeId: '0-2',
      processingType: 'MANUAL',
    })
  ).list as { listId: string };
  const folder = (await postOwner('/crm/v3/lists/folders', { name: `Owned folder ${fresh}` })).folder as { id: string };
  const added = await send(
    'PUT',
    `/crm/v3/lists/${list.listId}/memberships/add`,
    { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' },
    JSON.stringify([String(company.id)]),
  );
  if (added.status !== 200) throw new Error(`fixture list membership: ${added.status} ${added.text}`);
  const appToken = await clientCredentialsToken(gateway, owner);
  const journalProperty = `owned_journal_${fresh}`;
  const journal = (path: string, body: unknown) =>
    postOwner(`/webhooks-journal/subscriptions/2026-03${path}`, body, {
      header: `Bearer ${appToken}`,
    });
  const journalSubscription = await journal('', {
    subscriptionType: 'OBJECT',
    objectTypeId: '0-1',
    portalId: owner.hubId,
    actions: ['CREATE'],
    properties: [journalProperty],
  });
  const journalFilter = await journal('/filters', {
    subscriptionId: journalSubscription.id,
    filter: {
      conditions: [{ filterType: 'CRM_OBJECT_PROPERTY', property: journalProperty, operator: 'IS_NOT_EMPTY' }],
    },
  });
  const world: World = {
    journalSubscriptionId: String(journalSubscription.id),
    journalFilterId: String(journalFilter.filterId),
    journalPortalId: String(owner.hubId),
    journalProperty,
    appToken,
    listId: list.listId,
    listName,
    sourceListId: sourceList.listId,
    folderId: folder.id,
    appId: owner.appId,
    companyId: String(company.id),
    companyDomain,
    eventTypeId,
    propertyId: Number(property.id),
    eventId,
    subscriptionId: String(subscription.id),
    ownerDomains,
    ownerEventIds,
    customPropertyName,
    labelName,
    groupName,
    labelTypeId,
    strangerCompanyId: String(strangerCompany.id),
    fresh,
    refreshToken: owner.refreshToken,
    accessToken: owner.accessToken,
    clientId: owner.clientId,
    clientSecret: owner.clientSecret,
    userEmail: owner.userEmail,
    password: owner.password,
    ownerId: owners.results[0]?.id ?? '',
    ownerUserId: String(owner.userId),
    schemaType: String(schema.objectTypeId),
    schemaAssociationId: String((schema.associations as { id: string }[])[0]?.id),
    pipelineId: String(pipeline.id),
    stageId: String((pipeline.stages as { id: string }[])[0]?.id),
    testAccountHubId: String(testAccount.hubId),
    faultId: String(fault.id),
  };
  // What only the owner's records carry: a stranger's answer mentions none of it.
  const ownerOnly = [
    world.companyId,
    world.listId,
    world.sourceListId,
    ...others.map((other) => String(other.id)),
    `Owned ${fresh}`,
    `Owned property ${fresh}`,
    `Owned label ${fresh}`,
    `Owned group ${fresh}`,
    `Owned pipeline ${fresh}`,
    `Owned list ${fresh}`,
    `Owned source list ${fresh}`,
    `Owned folder ${fresh}`,
    `Owned stage ${fresh}`,
    owner.userEmail,
    `Owned test account ${fresh}`,
    String(testAccount.domain),
    journalProperty,
  ];
  return { world, ownerOnly };
}
