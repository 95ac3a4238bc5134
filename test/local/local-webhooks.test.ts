import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import type { RunningGateway } from '../../local/local-gateway';
import { startLocalWebhooks } from '../../local/local-webhooks';
import { install, startTestGateway, unique } from '../support/harness';
import { crmClient, type CrmClient } from '../support/crm-client';

/**
 * Where the local webhook runtime starts reading the shared table's stream. The stream calls go to
 * DynamoDB Local unchanged; a spy on the streams client only keeps what GetRecords handed out.
 */
let gateway: RunningGateway;
let crm: CrmClient;
let hubId: number;
/** The records every GetRecords call of this file handed out, as JSON. */
let handedOut: string[] = [];

beforeAll(async () => {
  const send = DynamoDBStreamsClient.prototype.send as (
    this: DynamoDBStreamsClient,
    command: unknown,
  ) => Promise<unknown>;
  jest.spyOn(DynamoDBStreamsClient.prototype, 'send').mockImplementation(async function (
    this: DynamoDBStreamsClient,
    command: Parameters<DynamoDBStreamsClient['send']>[0],
  ) {
    const output = await send.call(this, command);
    if (command instanceof GetRecordsCommand) {
      const records = (output as { Records?: unknown[] }).Records ?? [];
      handedOut.push(...records.map((record) => JSON.stringify(record)));
    }
    return output;
  } as DynamoDBStreamsClient['send']);
  gateway = await startTestGateway();
  const app = await install(gateway);
  hubId = app.hubId;
  crm = crmClient(gateway, app.accessToken);
});

afterAll(async () => {
  jest.restoreAllMocks();
  await gateway.close();
});

beforeEach(() => {
  handedOut = [];
});

async function createCompany(name: string): Promise<void> {
  expect((await crm.post('/crm/v3/objects/companies', { properties: { name } })).status).toBe(201);
}

const start = (stateDir: string) =>
  startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    pollIntervalMs: 50,
    stateDir,
    acceptsHub: (hub) => hub === hubId,
    startAtTip: true,
  });

const wasHandedOut = (name: string) => handedOut.some((record) => record.includes(name));

describe('startAtTip with a state folder', () => {
  it('reads no record written before the start when the folder is new, and the records written after', async () => {
    const before = unique('before-start');
    const after = unique('after-start');
    await createCompany(before);
    const webhooks = await start(mkdtempSync(path.join(tmpdir(), 'webhooks-tip-')));
    try {
      await createCompany(after);
      await webhooks.settle();

      expect({ before: wasHandedOut(before), after: wasHandedOut(after) }).toEqual({ before: false, after: true });
    } finally {
      await webhooks.stop();
    }
  });

  it('resumes at the saved position on a restart: a change made while stopped is read', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'webhooks-resume-'));
    const seen = unique('seen-before-stop');
    const whileStopped = unique('while-stopped');
    const first = await start(stateDir);
    try {
      await createCompany(seen);
      await first.settle();
    } finally {
      await first.stop();
    }
    expect(wasHandedOut(seen)).toBe(true);
    await createCompany(whileStopped);
    handedOut = [];

    const second = await start(stateDir);
    try {
      await second.settle();

      expect({ seen: wasHandedOut(seen), whileStopped: wasHandedOut(whileStopped) }).toEqual({
        seen: false,
        whileStopped: true,
      });
    } finally {
      await second.stop();
    }
  });
});
