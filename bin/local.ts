/**
 * `npm start`: DynamoDB Local (in memory, or --data-dir DIR to persist), the table, the demo
 * seed on first run, and every route on http://127.0.0.1:3000. PORT and DYNAMODB_PORT change the
 * ports (0: any free one). While it runs, .local/running.json tells the admin CLI where it is.
 */
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTable, findFreePort, startDynamoDbLocal, type RunningDynamoDb } from '../local/dynamodb-local';
import {
  applyLocalEnvironment,
  localDefaults,
  removeRunningLocal,
  shellExports,
  writeRunningLocal,
} from '../local/local-env';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : undefined;
  const stateDir = dataDir ?? localDefaults.stateDir;
  mkdirSync(stateDir, { recursive: true });
  const port = Number(process.env.PORT ?? localDefaults.port);
  const tableName = process.env.TABLE_NAME ?? localDefaults.tableName;

  let dynamo: RunningDynamoDb | undefined;
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    const dynamodbPort = Number(process.env.DYNAMODB_PORT ?? localDefaults.dynamodbPort);
    dynamo = await startDynamoDbLocal({ port: dynamodbPort === 0 ? await findFreePort() : dynamodbPort, dataDir });
    endpoint = dynamo.endpoint;
  }
  const secretsFile = path.join(stateDir, 'secrets.json');
  applyLocalEnvironment({ endpoint, tableName, secretsFile });
  const created = await ensureTable(endpoint, tableName);

  const { startGateway } = await import('../local/local-gateway');
  const { seedDemo, installUrl, withDemoDeveloper, demoShellVariables } = await import('../shared/admin/seed-demo');
  const gateway = await startGateway(port);
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  // Webhooks and the association limit tracker: the stream of DynamoDB Local, the same handlers, an
  // in-process queue. Its files live beside the data with --data-dir (a restart goes on where it
  // stopped); in memory, they start empty.
  const webhookStateDir = dataDir ?? path.join(stateDir, 'webhooks-in-memory');
  if (!dataDir) rmSync(webhookStateDir, { recursive: true, force: true });
  const { startLocalWebhooks } = await import('../local/local-webhooks');
  const webhooks = await startLocalWebhooks({ endpoint, tableName, stateDir: webhookStateDir });
  const demoFile = path.join(stateDir, 'demo.json');
  const demo =
    created === 'created' || !existsSync(demoFile)
      ? await seedDemo(baseUrl)
      : await withDemoDeveloper(JSON.parse(readFileSync(demoFile, 'utf8')) as Awaited<ReturnType<typeof seedDemo>>);
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
  const exports = shellExports(demoShellVariables(baseUrl, demo));
  writeRunningLocal({ pid: process.pid, baseUrl, endpoint, tableName, secretsFile, exports, webhookStateDir });

  console.log(`
HubSpot-style platform slice listening on ${baseUrl}
  DynamoDB:      ${endpoint} (table ${tableName}${dataDir ? `, data in ${dataDir}` : ', in memory'})

Demo app      app id:        ${demo.appId}
              client id:     ${demo.clientId}
              client secret: ${demo.clientSecret}
Demo developer API key:      ${demo.developerApiKey} (developer account ${demo.developerId}; manages the app's timeline event types and webhooks as ?hapikey=)
Webhooks:                    on (the table's stream is polled; deliveries go to the target set with PUT /webhooks/v3/{appId}/settings)
Demo user     email:         ${demo.userEmail}
              password:      ${demo.userPassword}
Demo account  hub id:        ${demo.hubId} (${demo.hubDomain})${demo.companyId ? `\nDemo company  id:            ${demo.companyId} (Acme Widgets)` : ''}${demo.contactId ? `\nDemo contact  id:            ${demo.contactId} (Jane Doe, jane.doe@acme-widgets.example)` : ''}${demo.dealId ? `\nDemo deal     id:            ${demo.dealId} (Acme Widgets renewal, Appointment Scheduled)` : ''}${demo.ticketId ? `\nDemo ticket   id:            ${demo.ticketId} (Printer on fire, New)` : ''}

Install the app (open in a browser, log in, choose the account, click "Connect app"):
  ${installUrl(baseUrl, demo)}

Paste this line in a second terminal (or run eval "$(npm run -s admin -- demo env)" there):
${exports}
`);
  const recordReads = (
    [
      ['companies', demo.companyId],
      ['contacts', demo.contactId],
      ['deals', demo.dealId],
      ['tickets', demo.ticketId],
    ] as const
  ).flatMap(([type, id]) =>
    id === undefined ? [] : [`  curl -H "Authorization: Bearer $TOKEN" ${baseUrl}/crm/v3/objects/${type}/${id}`],
  );
  if (recordReads.length > 0) {
    console.log(`CRM records (with TOKEN set to the demo install's access token):
${recordReads.join('\n')}
`);
  }
  if (demo.timeline) {
    const timelineBase = `${baseUrl}/integrations/v1/${demo.appId}/timeline`;
    console.log(`Timeline (with TOKEN set to the demo install's access token; event types also by the developer API key):
  curl -H "Authorization: Bearer $TOKEN" ${timelineBase}/event/${demo.timeline.eventTypeId}/${demo.timeline.eventId}
  curl -H "Authorization: Bearer $TOKEN" ${timelineBase}/event-types/${demo.timeline.eventTypeId}
  curl "${timelineBase}/event-types/${demo.timeline.eventTypeId}?hapikey=$HAPIKEY"
`);
  }

  const shutdown = async () => {
    removeRunningLocal(process.pid);
    await webhooks.stop();
    await gateway.close();
    await dynamo?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
