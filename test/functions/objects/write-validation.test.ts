import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { installRecorder, recordCommands } from '../../../bench/dynamo-recorder';
import { install, unique, useTestGateway } from '../../support/harness';
import { tokenCall, useSandboxDeveloper, type ControlAnswer } from '../../support/sandbox-control';
import { newUserEnvironment } from '../../support/synthesized-platform';

/**
 * HubSpot's 2026-09 write-validation enforcement (docs/versions.md, "2026-09 write validation"):
 * a test account's rules, set through the control (or the admin CLI), refuse 2026-09 creates and
 * updates that leave a required property unset, before anything is written; v3 and 2026-03 writes
 * are never checked.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);
let hubId: number;
let token: string;

type Body = Record<string, unknown>;
const api = <T = Body>(method: string, apiPath: string, body?: unknown): Promise<ControlAnswer<T>> =>
  tokenCall<T>(gateway, token, method, apiPath, body);
const rulesPath = (objectType: string, hub = hubId) => `/test-accounts/${hub}/write-validation/${objectType}`;

const closedWonRule = { propertyName: 'closedate', whenProperty: 'dealstage', whenClosedWon: true };

async function dealsNamed(dealname: string): Promise<number> {
  const found = await api<{ total: number }>('POST', '/crm/v3/objects/deals/search', {
    filterGroups: [{ filters: [{ propertyName: 'dealname', operator: 'EQ', value: dealname }] }],
  });
  expect(found.status).toBe(200);
  return found.body.total;
}

/** The error body of a write missing these properties (each with its message), correlation id aside. */
function missingPropertiesBody(missing: readonly { name: string; message: string }[]): Body {
  const summary = missing.map(({ name, message }) => ({ isValid: false, message, error: 'REQUIRED_PROPERTY', name }));
  return {
    status: 'error',
    message: `Property values were not valid: ${JSON.stringify(summary)}`,
    correlationId: expect.any(String),
    errors: missing.map(({ name, message }) => ({
      message,
      code: 'REQUIRED_PROPERTY',
      in: name,
      context: { propertyName: [name] },
    })),
    context: { properties: missing.map(({ name }) => name) },
    category: 'VALIDATION_ERROR',
  };
}

const closedateMissing = { name: 'closedate', message: 'closedate is required when dealstage is a closed won stage' };
const phoneMissing = { name: 'phone', message: 'phone is required to create a contact' };

/** The rules' reads among a request's DynamoDB commands (their key's sort key names them). */
const rulesReads = (commands: readonly { input: Record<string, unknown> }[]): number =>
  commands.filter((command) =>
    String((command.input.Key as { sk?: unknown } | undefined)?.sk).startsWith('WRITE_VALIDATION#'),
  ).length;
/** A request's write commands but the rate limiter's (its counters are in their own partitions, `LIMIT#…`). */
const writes = (commands: readonly { commandClass: { name: string }; input: Record<string, unknown> }[]): string[] =>
  commands
    .filter((command) => !String((command.input.Key as { pk?: unknown } | undefined)?.pk).startsWith('LIMIT#'))
    .map((command) => command.commandClass.name)
    .filter((name) => /Transact|Put|Update|BatchWrite/.test(name));

beforeAll(async () => {
  installRecorder();
  hubId = await sandbox.newTestAccount();
  const installed = await sandbox.control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
    appId: sandbox.developer.appId,
    scopes: [
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.deals.read',
      'crm.objects.deals.write',
      'crm.schemas.deals.write',
      'tickets',
    ],
  });
  expect(installed.status).toBe(201);
  token = installed.body.access_token;
  expect((await sandbox.control('PUT', rulesPath('deals'), { conditionalRequirements: [closedWonRule] })).status).toBe(
    200,
  );
  expect((await sandbox.control('PUT', rulesPath('contacts'), { requiredOnCreate: ['phone'] })).status).toBe(200);
});

describe('the write-validation control', () => {
  it('answers the rules it set, and empty rules for a type with none', async () => {
    const deals = await sandbox.control('GET', rulesPath('deals'));
    const tickets = await sandbox.control('GET', rulesPath('0-5'));

    expect(deals).toMatchObject({
      status: 200,
      body: {
        objectTypeId: '0-3',
        objectType: 'deals',
        requiredOnCreate: [],
        conditionalRequirements: [closedWonRule],
        updatedAt: expect.any(String),
      },
    });
    expect(tickets.body).toEqual({
      objectTypeId: '0-5',
      objectType: 'tickets',
      requiredOnCreate: [],
      conditionalRequirements: [],
      updatedAt: null,
    });
  });

  it('refuses properties the type does not have, read-only ones and a closed won condition off the stage property, naming each', async () => {
    const refused = await sandbox.control('PUT', rulesPath('contacts'), {
      requiredOnCreate: ['phone', 'no_such_property', 'hs_object_id'],
      conditionalRequirements: [{ propertyName: 'phone', whenProperty: 'lifecyclestage', whenClosedWon: true }],
    });

    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: {
        requiredOnCreate: ['no_such_property', 'hs_object_id'],
        'conditionalRequirements[0].whenClosedWon': ['lifecyclestage'],
      },
    });
    // The rules before stay.
    expect((await sandbox.control('GET', rulesPath('contacts'))).body).toMatchObject({ requiredOnCreate: ['phone'] });
  });

  it('refuses a requirement with no condition, or with two', async () => {
    const refused = await sandbox.control('PUT', rulesPath('deals'), {
      conditionalRequirements: [
        { propertyName: 'amount', whenProperty: 'dealstage' },
        { propertyName: 'amount', whenProperty: 'dealstage', whenValues: ['closedwon'], whenClosedWon: true },
      ],
    });

    expect(refused).toMatchObject({
      status: 400,
      body: { context: { 'conditionalRequirements[0]': ['amount'], 'conditionalRequirements[1]': ['amount'] } },
    });
  });

  it('answers 404 for an account that is not a test account of the developer', async () => {
    const answer = await sandbox.control('PUT', rulesPath('deals', 999999997), { requiredOnCreate: ['dealname'] });

    expect(answer).toMatchObject({ status: 404, body: { context: { hubId: ['999999997'] } } });
  });
});

describe('2026-09 creates', () => {
  it('refuse a deal in a closed won stage without closedate, naming it, and write nothing', async () => {
    const dealname = unique('won-no-date');

    const refused = await api('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname, dealstage: 'closedwon' },
    });

    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(missingPropertiesBody([closedateMissing]));
    expect(await dealsNamed(dealname)).toBe(0);
  });

  it('take a deal in a closed won stage with closedate, and one in an open stage without', async () => {
    const won = await api('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('won'), dealstage: 'closedwon', closedate: '2026-09-30T00:00:00Z' },
    });
    const open = await api('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('open'), dealstage: 'contractsent' },
    });

    expect([won.status, open.status]).toEqual([201, 201]);
  });

  it('know a closed won stage of a custom pipeline by its metadata', async () => {
    const pipeline = await api<{ id: string; stages: { id: string; label: string }[] }>(
      'POST',
      '/crm/v3/pipelines/deals',
      {
        label: unique('Renewals'),
        displayOrder: 1,
        stages: [
          { label: 'Renewing', displayOrder: 0, metadata: { probability: '0.5' } },
          { label: 'Renewed', displayOrder: 1, metadata: { probability: '1.0' } },
        ],
      },
    );
    expect(pipeline.status).toBe(201);
    const stageOf = (label: string) => pipeline.body.stages.find((stage) => stage.label === label)?.id;

    const renewed = await api('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('renewed'), pipeline: pipeline.body.id, dealstage: stageOf('Renewed') },
    });
    const renewing = await api('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('renewing'), pipeline: pipeline.body.id, dealstage: stageOf('Renewing') },
    });

    expect(renewed).toMatchObject({ status: 400, body: missingPropertiesBody([closedateMissing]) });
    expect(renewing.status).toBe(201);
  });

  it('refuse a contact without a required property, naming it; with it, the contact is made', async () => {
    const email = `${unique('no-phone')}@example.com`;

    const refused = await api('POST', '/crm/objects/2026-09/contacts', { properties: { email } });
    const made = await api('POST', '/crm/objects/2026-09/contacts', { properties: { email, phone: '+1 555 0100' } });

    expect(refused).toMatchObject({ status: 400, body: missingPropertiesBody([phoneMissing]) });
    expect(made.status).toBe(201);
  });

  it('count an empty value as unset', async () => {
    const refused = await api('POST', '/crm/objects/2026-09/contacts', {
      properties: { email: `${unique('empty-phone')}@example.com`, phone: '' },
    });

    expect(refused).toMatchObject({ status: 400, body: { errors: [{ in: 'phone' }] } });
  });
});

describe('an account without rules', () => {
  it('takes a 2026-09 deal in a closed won stage without closedate: the rule is off until set', async () => {
    const fresh = await sandbox.newTestAccount();
    const installed = await sandbox.control<{ access_token: string }>('POST', `/test-accounts/${fresh}/installs`, {
      appId: sandbox.developer.appId,
      scopes: ['crm.objects.deals.write'],
    });

    const created = await tokenCall(gateway, installed.body.access_token, 'POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('fresh-won'), dealstage: 'closedwon' },
    });

    expect(created.status).toBe(201);
  });
});

describe('v3 and 2026-03 writes', () => {
  it.each(['/crm/v3/objects', '/crm/objects/2026-03'])('are not checked on %s', async (prefix) => {
    const deal = await api<{ id: string }>('POST', `${prefix}/deals`, {
      properties: { dealname: unique('unchecked'), dealstage: 'closedwon' },
    });
    const contact = await api('POST', `${prefix}/contacts`, {
      properties: { email: `${unique('unchecked')}@example.com` },
    });
    const open = await api<{ id: string }>('POST', `${prefix}/deals`, {
      properties: { dealname: unique('unchecked-open'), dealstage: 'contractsent' },
    });
    const moved = await api('PATCH', `${prefix}/deals/${open.body.id}`, { properties: { dealstage: 'closedwon' } });
    const batch = await api('POST', `${prefix}/deals/batch/create`, {
      inputs: [{ properties: { dealname: unique('unchecked-batch'), dealstage: 'closedwon' } }],
    });

    expect([deal.status, contact.status, open.status, moved.status, batch.status]).toEqual([201, 201, 201, 200, 201]);
  });
});

describe('2026-09 updates', () => {
  async function openDeal(): Promise<string> {
    const created = await api<{ id: string }>('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('moving'), dealstage: 'contractsent' },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('refuse moving a deal into closed won without closedate, and leave the deal as it was', async () => {
    const id = await openDeal();

    const refused = await api('PATCH', `/crm/objects/2026-09/deals/${id}`, { properties: { dealstage: 'closedwon' } });
    const after = await api<{ properties: Body }>('GET', `/crm/v3/objects/deals/${id}?properties=dealstage,closedate`);

    expect(refused).toMatchObject({ status: 400, body: missingPropertiesBody([closedateMissing]) });
    expect(after.body.properties).toMatchObject({ dealstage: 'contractsent', closedate: null });
  });

  it('take the move when the update or the record holds closedate, and refuse clearing it after', async () => {
    const id = await openDeal();
    expect(
      (await api('PATCH', `/crm/objects/2026-09/deals/${id}`, { properties: { closedate: '2026-10-01T00:00:00Z' } }))
        .status,
    ).toBe(200);

    const moved = await api('PATCH', `/crm/objects/2026-09/deals/${id}`, { properties: { dealstage: 'closedwon' } });
    const cleared = await api('PATCH', `/crm/objects/2026-09/deals/${id}`, { properties: { closedate: '' } });
    const withDate = await api('PATCH', `/crm/objects/2026-09/deals/${await openDeal()}`, {
      properties: { dealstage: 'closedwon', closedate: '2026-10-02T00:00:00Z' },
    });

    expect([moved.status, cleared.status, withDate.status]).toEqual([200, 400, 200]);
    expect(cleared.body).toMatchObject({ errors: [{ in: 'closedate' }] });
  });

  it('do not ask an update for the properties only a create requires', async () => {
    const created = await api<{ id: string }>('POST', '/crm/v3/objects/contacts', {
      properties: { email: `${unique('later')}@example.com` },
    });

    const updated = await api('PATCH', `/crm/objects/2026-09/contacts/${created.body.id}`, {
      properties: { firstname: 'Later' },
    });

    expect(updated.status).toBe(200);
  });
});

describe('what a checked write reads and writes', () => {
  it('reads the rules once for a batch of several inputs', async () => {
    const inputs = [1, 2, 3].map((index) => ({
      properties: { dealname: unique(`once-${index}`), dealstage: 'closedwon', closedate: '2026-09-30T00:00:00Z' },
    }));

    const { result, commands } = await recordCommands(() =>
      api('POST', '/crm/objects/2026-09/deals/batch/create', { inputs }),
    );

    expect(result.status).toBe(201);
    expect(rulesReads(commands)).toBe(1);
  });

  it('writes nothing for a refused create or update', async () => {
    const open = await api<{ id: string }>('POST', '/crm/objects/2026-09/deals', {
      properties: { dealname: unique('refused-writes'), dealstage: 'contractsent' },
    });

    const create = await recordCommands(() =>
      api('POST', '/crm/objects/2026-09/deals', { properties: { dealname: unique('x'), dealstage: 'closedwon' } }),
    );
    const update = await recordCommands(() =>
      api('PATCH', `/crm/objects/2026-09/deals/${open.body.id}`, { properties: { dealstage: 'closedwon' } }),
    );

    expect([create.result.status, update.result.status]).toEqual([400, 400]);
    expect([writes(create.commands), writes(update.commands)]).toEqual([[], []]);
  });

  it('reads no rules on v3 and 2026-03', async () => {
    const { commands } = await recordCommands(async () => {
      for (const prefix of ['/crm/v3/objects', '/crm/objects/2026-03'])
        await api('POST', `${prefix}/deals`, { properties: { dealname: unique('no-read'), dealstage: 'closedwon' } });
    });

    expect(rulesReads(commands)).toBe(0);
  });
});

describe('2026-09 batches', () => {
  it('refuse a batch create with one bad input, naming the input and the property, and write none of it', async () => {
    const good = unique('batch-good');
    const bad = unique('batch-bad');

    const refused = await api('POST', '/crm/objects/2026-09/deals/batch/create', {
      inputs: [
        { properties: { dealname: good, dealstage: 'closedwon', closedate: '2026-09-30T00:00:00Z' } },
        { properties: { dealname: bad, dealstage: 'closedwon' } },
      ],
    });

    expect(refused).toMatchObject({
      status: 400,
      body: {
        category: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^inputs\[1\]: Property values were not valid: /),
        context: { properties: ['closedate'], input: ['1'] },
        errors: [{ code: 'REQUIRED_PROPERTY', in: 'closedate', context: { propertyName: ['closedate'] } }],
      },
    });
    expect([await dealsNamed(good), await dealsNamed(bad)]).toEqual([0, 0]);
  });

  it('answer a batch update input that would leave closedate unset as its own error (207), and write the others', async () => {
    const ids: string[] = [];
    for (const name of ['first', 'second']) {
      const created = await api<{ id: string }>('POST', '/crm/objects/2026-09/deals', {
        properties: { dealname: unique(name), dealstage: 'contractsent' },
      });
      ids.push(created.body.id);
    }

    const answer = await api<{ results: { id: string }[]; errors: Body[] }>(
      'POST',
      '/crm/objects/2026-09/deals/batch/update',
      {
        inputs: [
          { id: ids[0], properties: { dealstage: 'closedwon', closedate: '2026-09-30T00:00:00Z' } },
          { id: ids[1], properties: { dealstage: 'closedwon' } },
        ],
      },
    );
    const second = await api<{ properties: Body }>('GET', `/crm/v3/objects/deals/${ids[1]}?properties=dealstage`);

    expect(answer.status).toBe(207);
    expect(answer.body.results.map((result) => result.id)).toEqual([ids[0]]);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        status: 'error',
        category: 'VALIDATION_ERROR',
        context: { properties: ['closedate'] },
        errors: [expect.objectContaining({ in: 'closedate', context: { propertyName: ['closedate'] } })],
      }),
    ]);
    expect(second.body.properties.dealstage).toBe('contractsent');
  });

  it('answer a batch upsert input whose create lacks a required property as its own error (207)', async () => {
    const withPhone = `${unique('upsert-phone')}@example.com`;
    const withoutPhone = `${unique('upsert-none')}@example.com`;

    const answer = await api<{ results: { properties: Body }[]; errors: Body[] }>(
      'POST',
      '/crm/objects/2026-09/contacts/batch/upsert',
      {
        inputs: [
          { id: withPhone, idProperty: 'email', properties: { phone: '+1 555 0101' } },
          { id: withoutPhone, idProperty: 'email', properties: { firstname: 'None' } },
        ],
      },
    );

    expect(answer.status).toBe(207);
    expect(answer.body.results.map((result) => result.properties.email)).toEqual([withPhone]);
    expect(answer.body.errors).toEqual([expect.objectContaining({ context: { properties: ['phone'] } })]);
  });
});

describe('the admin CLI', () => {
  const root = path.resolve(__dirname, '..', '..', '..');
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(path.join(tmpdir(), 'write-validation-home-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /**
   * `npm run admin -- …` as a new user runs it (their PATH and an empty HOME), pointed at the test
   * run's DynamoDB as docs/admin-cli.md says (DYNAMODB_ENDPOINT, TABLE_NAME), its state folder in the home.
   */
  async function admin(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
    const env = {
      ...newUserEnvironment(home),
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      TABLE_NAME: process.env.TABLE_NAME,
      LOCAL_STATE_DIR: path.join(home, '.local'),
    };
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bin/admin.ts', ...args],
        { cwd: root, env },
      );
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failed = error as { stdout: string; stderr: string; code: number };
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
    }
  }

  it('sets a type’s write validation that 2026-09 creates then meet', async () => {
    const command = [
      'test-account',
      'write-validation',
      '--developer-id',
      String(sandbox.developer.developerId),
      '--hub',
      String(hubId),
      '--object-type',
      'tickets',
    ];

    const set = await admin(...command, '--rules', '{"requiredOnCreate":["hs_ticket_priority"]}');
    const printed = await admin(...command);
    const ticket = { subject: unique('ticket'), hs_pipeline_stage: '1' };
    const refused = await api('POST', '/crm/objects/2026-09/tickets', { properties: ticket });
    const unchecked = await api('POST', '/crm/objects/2026-03/tickets', { properties: ticket });

    expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(set.stdout)).toMatchObject({ objectTypeId: '0-5', requiredOnCreate: ['hs_ticket_priority'] });
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(set.stdout));
    expect(refused).toMatchObject({ status: 400, body: { errors: [{ in: 'hs_ticket_priority' }] } });
    expect(unchecked.status).toBe(201);
  });

  it("sets any account's write validation by hub id", async () => {
    const standard = await install(gateway);

    const set = await admin(
      'account',
      'write-validation',
      '--hub',
      String(standard.hubId),
      '--object-type',
      'contacts',
      '--rules',
      '{"requiredOnCreate":["phone"]}',
    );
    const refused = await tokenCall(gateway, standard.accessToken, 'POST', '/crm/objects/2026-09/contacts', {
      properties: { email: `${unique('standard')}@example.com` },
    });
    const missing = await admin('account', 'write-validation', '--hub', '999999996', '--object-type', 'contacts');

    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ objectTypeId: '0-1', requiredOnCreate: ['phone'] });
    expect(refused).toMatchObject({ status: 400, body: missingPropertiesBody([phoneMissing]) });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).message).toBe('no account with hub id 999999996');
  });

  it('refuses rules the control refuses, naming the field', async () => {
    const refused = await admin(
      'test-account',
      'write-validation',
      '--developer-id',
      String(sandbox.developer.developerId),
      '--hub',
      String(hubId),
      '--object-type',
      'tickets',
      '--rules',
      '{"requiredOnCreate":"subject"}',
    );

    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({
      status: 'error',
      context: { field: ['body.requiredOnCreate'] },
    });
  });
});
