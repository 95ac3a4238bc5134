import type { RunningGateway } from '../../../local/local-gateway';
import type { Scope } from '../../../shared/oauth/scopes';
import { registerStageUsageLookup, restoreStageUsageLookup } from '../../../shared/pipelines/stage-usage';
import { crmClient, type CrmClient } from '../../support/crm-client';
import {
  install,
  signTestAccessToken,
  startTestGateway,
  unique,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';

interface StageJson {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

interface PipelineJson {
  id: string;
  label: string;
  displayOrder: number;
  stages: StageJson[];
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

interface AuditJson {
  portalId: number;
  identifier: string;
  action: string;
  timestamp: string;
  message: string;
  rawObject: unknown;
  fromUserId: number;
}

let gateway: RunningGateway;
let installed: InstalledTokens;

beforeAll(async () => {
  gateway = await startTestGateway();
  installed = await install(gateway);
});

afterAll(async () => {
  await gateway.close();
});

/** An account of its own per test: its pipelines start as the defaults. */
async function freshAccount(): Promise<{ api: CrmClient; account: InstalledTokens }> {
  const account = await install(gateway);
  return { api: crmClient(gateway, account.accessToken), account };
}

function tokenWith(account: InstalledTokens, scopes: Scope[]): CrmClient {
  return crmClient(
    gateway,
    signTestAccessToken({ appId: account.appId, hubId: account.hubId, userId: account.userId, scopes }),
  );
}

const dealStage = (label: string, displayOrder: number, probability: string) => ({
  label,
  displayOrder,
  metadata: { probability },
});
const dealPipeline = (label: string) => ({
  label,
  displayOrder: 3,
  stages: [dealStage('Prospect', 0, '0.1'), dealStage('Signed', 1, '1.0')],
});

async function createDealPipeline(api: CrmClient, label = unique('Pipeline')): Promise<PipelineJson> {
  const response = await api.post<PipelineJson>('/crm/v3/pipelines/deals', dealPipeline(label));
  if (response.status !== 201) throw new Error(`pipeline create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

describe('default pipelines', () => {
  it('gives every account the deal pipeline "default" with its seven stages and probabilities, created at epoch 0', async () => {
    const { api } = await freshAccount();

    const response = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');

    expect(response.status).toBe(200);
    expect(response.body.results).toHaveLength(1);
    const [pipeline] = response.body.results;
    expect(pipeline).toMatchObject({
      id: 'default',
      label: 'Sales Pipeline',
      displayOrder: 0,
      archived: false,
      createdAt: '1970-01-01T00:00:00.000Z',
    });
    expect(
      pipeline?.stages.map((stage) => [
        stage.id,
        stage.label,
        stage.displayOrder,
        stage.metadata.probability,
        stage.metadata.isClosed,
      ]),
    ).toEqual([
      ['appointmentscheduled', 'Appointment Scheduled', 0, '0.2', 'false'],
      ['qualifiedtobuy', 'Qualified To Buy', 1, '0.4', 'false'],
      ['presentationscheduled', 'Presentation Scheduled', 2, '0.6', 'false'],
      ['decisionmakerboughtin', 'Decision Maker Bought-In', 3, '0.8', 'false'],
      ['contractsent', 'Contract Sent', 4, '0.9', 'false'],
      ['closedwon', 'Closed Won', 5, '1.0', 'true'],
      ['closedlost', 'Closed Lost', 6, '0.0', 'true'],
    ]);
    expect(
      pipeline?.stages.every((stage) => stage.createdAt === '1970-01-01T00:00:00.000Z' && stage.archived === false),
    ).toBe(true);
  });

  it('gives every account the ticket pipeline "0" with stages 1 to 4 and their ticket states', async () => {
    const { api } = await freshAccount();

    const response = await api.get<PipelineJson>('/crm/v3/pipelines/tickets/0');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: '0', label: 'Support Pipeline', displayOrder: 0 });
    expect(
      response.body.stages.map((stage) => [stage.id, stage.label, stage.metadata.ticketState, stage.metadata.isClosed]),
    ).toEqual([
      ['1', 'New', 'OPEN', 'false'],
      ['2', 'Waiting on contact', 'OPEN', 'false'],
      ['3', 'Waiting on us', 'OPEN', 'false'],
      ['4', 'Closed', 'CLOSED', 'true'],
    ]);
  });

  it('takes the type by name or id, in any case', async () => {
    const api = crmClient(gateway, installed.accessToken);

    const answers = await Promise.all(
      ['deals', '0-3', 'DEALS', 'Deals', 'tickets', '0-5', 'TICKETS'].map((token) =>
        api.get<{ results: PipelineJson[] }>(`/crm/v3/pipelines/${token}`),
      ),
    );

    expect(answers.map((answer) => `${answer.status} ${answer.body.results[0]?.id}`)).toEqual([
      '200 default',
      '200 default',
      '200 default',
      '200 default',
      '200 0',
      '200 0',
      '200 0',
    ]);
  });

  it('answers 400 VALIDATION_ERROR naming the token for a type without pipelines', async () => {
    const api = crmClient(gateway, installed.accessToken);

    const answers = await Promise.all(
      ['companies', 'contacts', '0-2', 'deal', 'nope'].map((token) => api.get<ErrorJson>(`/crm/v3/pipelines/${token}`)),
    );

    for (const [index, token] of ['companies', 'contacts', '0-2', 'deal', 'nope'].entries()) {
      expect(answers[index]?.status).toBe(400);
      expect(answers[index]?.body).toMatchObject({
        status: 'error',
        category: 'VALIDATION_ERROR',
        message: expect.stringContaining(token),
        context: { objectType: [token] },
        correlationId: expect.any(String),
      });
    }
  });

  it('stores the defaults with the first change, in the same write, so a renamed default keeps its stages', async () => {
    const { api } = await freshAccount();

    const renamed = await api.patch<PipelineJson>('/crm/v3/pipelines/deals/default', { label: 'Direct sales' });
    const created = await createDealPipeline(api, 'Partner sales');
    const list = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');

    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 'default', label: 'Direct sales', createdAt: '1970-01-01T00:00:00.000Z' });
    expect(renamed.body.stages).toHaveLength(7);
    expect(list.body.results.map((pipeline) => [pipeline.id, pipeline.label])).toEqual([
      ['default', 'Direct sales'],
      [created.id, 'Partner sales'],
    ]);
  });

  it("changes a default stored by another pipeline's create (the first change) like any stored pipeline", async () => {
    const { api } = await freshAccount();
    await createDealPipeline(api, 'First change');

    const renamed = await api.patch<PipelineJson>('/crm/v3/pipelines/deals/default', { label: 'Renamed after' });
    const stage = await api.post<StageJson>(
      '/crm/v3/pipelines/deals/default/stages',
      dealStage('Added after', 8, '0.5'),
    );

    expect([renamed.status, renamed.body.label, stage.status]).toEqual([200, 'Renamed after', 201]);
  });

  it('loses no change when first changes of an account race', async () => {
    const { api } = await freshAccount();

    const answers = await Promise.all([
      api.patch('/crm/v3/pipelines/deals/default', { displayOrder: 7 }),
      api.post('/crm/v3/pipelines/deals/default/stages', dealStage('Raced stage', 9, '0.5')),
      api.post('/crm/v3/pipelines/deals', dealPipeline('Raced A')),
      api.post('/crm/v3/pipelines/deals', dealPipeline('Raced B')),
    ]);
    const list = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');

    expect(answers.map((answer) => answer.status)).toEqual([200, 201, 201, 201]);
    const byLabel = new Map(list.body.results.map((pipeline) => [pipeline.label, pipeline]));
    expect([...byLabel.keys()].sort()).toEqual(['Raced A', 'Raced B', 'Sales Pipeline']);
    expect(byLabel.get('Sales Pipeline')).toMatchObject({ displayOrder: 7 });
    expect(byLabel.get('Sales Pipeline')?.stages.map((stage) => stage.label)).toContain('Raced stage');
  });
});

describe('pipelines', () => {
  it('creates a pipeline (201) that get and list then return, its stages in display order', async () => {
    const api = crmClient(gateway, installed.accessToken);

    const created = await api.post<PipelineJson>('/crm/v3/pipelines/deals', {
      label: 'Enterprise',
      displayOrder: 2,
      stages: [
        dealStage('Won', 2, '1.0'),
        dealStage('Lead', 0, '0.1'),
        dealStage('Trial', 1, 0.5 as unknown as string),
      ],
    });
    const read = await api.get<PipelineJson>(`/crm/v3/pipelines/deals/${created.body.id}`);
    const list = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/0-3');

    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9]+$/);
    expect(
      created.body.stages.map((stage) => [stage.label, stage.metadata.probability, stage.metadata.isClosed]),
    ).toEqual([
      ['Lead', '0.1', 'false'],
      ['Trial', '0.5', 'false'],
      ['Won', '1.0', 'true'],
    ]);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(list.body.results.map((pipeline) => pipeline.id)).toContain(created.body.id);
  });

  it('takes a pipeline id and stage ids the client chooses, and answers 409 for a pipeline id taken', async () => {
    const { api } = await freshAccount();
    const body = {
      pipelineId: 'renewals',
      label: 'Renewals',
      displayOrder: 1,
      stages: [{ ...dealStage('Due', 0, '0.5'), stageId: 'renewal_due' }],
    };

    const created = await api.post<PipelineJson>('/crm/v3/pipelines/deals', body);
    const again = await api.post<ErrorJson>('/crm/v3/pipelines/deals', { ...body, label: 'Other' });
    const defaultTaken = await api.post<ErrorJson>('/crm/v3/pipelines/deals', { ...body, pipelineId: 'default' });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'renewals', stages: [{ id: 'renewal_due' }] });
    expect([again.status, again.body.category, again.body.context]).toEqual([
      409,
      'OBJECT_ALREADY_EXISTS',
      { pipelineId: ['renewals'] },
    ]);
    expect(defaultTaken.status).toBe(409);
  });

  it('answers 400 naming metadata.probability for a deal stage without a probability between 0 and 1, and writes nothing', async () => {
    const { api } = await freshAccount();

    const missing = await api.post<ErrorJson>('/crm/v3/pipelines/deals', {
      label: 'No probability',
      displayOrder: 0,
      stages: [{ label: 'A', displayOrder: 0 }],
    });
    const tooHigh = await api.post<ErrorJson>('/crm/v3/pipelines/deals', {
      label: 'Too high',
      displayOrder: 0,
      stages: [dealStage('A', 0, '1.5')],
    });
    const notNumber = await api.post<ErrorJson>('/crm/v3/pipelines/deals/default/stages', dealStage('B', 9, 'likely'));
    const list = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');

    for (const answer of [missing, tooHigh, notNumber]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        status: 'error',
        category: 'VALIDATION_ERROR',
        context: { 'metadata.probability': expect.any(Array) },
      });
    }
    expect(list.body.results.map((pipeline) => pipeline.id)).toEqual(['default']);
    expect(list.body.results[0]?.stages).toHaveLength(7);
  });

  it('answers 400 for stage labels used twice in a pipeline, compared case-insensitively, and writes nothing', async () => {
    const { api } = await freshAccount();

    const created = await api.post<ErrorJson>('/crm/v3/pipelines/deals', {
      label: 'Twins',
      displayOrder: 0,
      stages: [dealStage('Open', 0, '0.1'), dealStage(' open ', 1, '0.2')],
    });
    const added = await api.post<ErrorJson>(
      '/crm/v3/pipelines/deals/default/stages',
      dealStage('Closed Won', 9, '1.0'),
    );
    const renamed = await api.patch<ErrorJson>('/crm/v3/pipelines/deals/default/stages/qualifiedtobuy', {
      label: 'CONTRACT SENT',
    });
    const list = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');

    for (const answer of [created, added, renamed]) {
      expect([answer.status, answer.body.category]).toEqual([400, 'VALIDATION_ERROR']);
      expect(answer.body.message).toContain('unique');
    }
    expect(list.body.results.map((pipeline) => [pipeline.id, pipeline.stages.length])).toEqual([['default', 7]]);
  });

  it("checks a ticket stage's ticketState and closes the CLOSED ones", async () => {
    const { api } = await freshAccount();

    const bad = await api.post<ErrorJson>('/crm/v3/pipelines/tickets/0/stages', {
      label: 'Parked',
      displayOrder: 4,
      metadata: { ticketState: 'PARKED' },
    });
    const closed = await api.post<StageJson>('/crm/v3/pipelines/tickets/0/stages', {
      label: 'Resolved',
      displayOrder: 4,
      metadata: { ticketState: 'CLOSED' },
    });
    const plain = await api.post<StageJson>('/crm/v3/pipelines/tickets/0/stages', {
      label: 'Escalated',
      displayOrder: 5,
      metadata: {},
    });

    expect([bad.status, bad.body.category, bad.body.context]).toEqual([
      400,
      'VALIDATION_ERROR',
      { 'metadata.ticketState': ['PARKED'] },
    ]);
    expect([closed.status, closed.body.metadata]).toEqual([201, { ticketState: 'CLOSED', isClosed: 'true' }]);
    expect([plain.status, plain.body.metadata]).toEqual([201, { isClosed: 'false' }]);
  });

  it('answers 400 naming the field for a body that is not a pipeline', async () => {
    const api = crmClient(gateway, installed.accessToken);

    const noStages = await api.post<ErrorJson>('/crm/v3/pipelines/deals', { label: 'x', displayOrder: 0 });
    const badId = await api.post<ErrorJson>('/crm/v3/pipelines/deals', { ...dealPipeline('x'), pipelineId: 'a#b' });

    expect([noStages.status, noStages.body.category, noStages.body.context]).toEqual([
      400,
      'VALIDATION_ERROR',
      { field: ['body.stages'] },
    ]);
    expect([badId.status, badId.body.context]).toEqual([400, { field: ['body.pipelineId'] }]);
  });

  it('replaces a pipeline (PUT), keeping the stages it names again by id or label', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    const [prospect] = pipeline.stages;

    const replaced = await api.put<PipelineJson>(`/crm/v3/pipelines/deals/${pipeline.id}`, {
      label: 'Replaced',
      displayOrder: 9,
      stages: [dealStage('Prospect', 0, '0.2'), dealStage('Negotiation', 1, '0.6')],
    });

    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: pipeline.id,
      label: 'Replaced',
      displayOrder: 9,
      createdAt: pipeline.createdAt,
    });
    expect(replaced.body.stages.map((stage) => stage.label)).toEqual(['Prospect', 'Negotiation']);
    expect(replaced.body.stages[0]).toMatchObject({
      id: prospect?.id,
      createdAt: prospect?.createdAt,
      metadata: { probability: '0.2' },
    });
  });

  it('archives a pipeline (204): get answers 404, the list leaves it out, and PATCH archived=false restores it', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);

    const archived = await api.delete(`/crm/v3/pipelines/deals/${pipeline.id}`);
    const read = await api.get<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`);
    const listed = await api.get<{ results: PipelineJson[] }>('/crm/v3/pipelines/deals');
    const again = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`);
    const restored = await api.patch<PipelineJson>(`/crm/v3/pipelines/deals/${pipeline.id}`, { archived: false });

    expect(archived.status).toBe(204);
    expect(archived.body).toBeUndefined();
    expect([read.status, read.body.category, read.body.context]).toEqual([
      404,
      'OBJECT_NOT_FOUND',
      { pipelineId: [pipeline.id] },
    ]);
    expect(listed.body.results.map((entry) => entry.id)).not.toContain(pipeline.id);
    expect(again.status).toBe(404);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: pipeline.id, archived: false, stages: pipeline.stages });
    expect(restored.body.archivedAt).toBeUndefined();
  });

  it('answers 400 to archived in a PATCH of a live pipeline', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);

    const answer = await api.patch<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`, { archived: true });

    expect([answer.status, answer.body.category, answer.body.context]).toEqual([
      400,
      'VALIDATION_ERROR',
      { archived: ['true'] },
    ]);
  });

  it("answers 404 OBJECT_NOT_FOUND for an unknown pipeline or stage, and for another account's pipeline", async () => {
    const api = crmClient(gateway, installed.accessToken);
    const { api: other } = await freshAccount();
    const theirs = await createDealPipeline(other);

    const answers = await Promise.all([
      api.get<ErrorJson>('/crm/v3/pipelines/deals/999999999'),
      api.get<ErrorJson>(`/crm/v3/pipelines/deals/${theirs.id}`),
      api.get<ErrorJson>('/crm/v3/pipelines/tickets/default'),
      api.get<ErrorJson>('/crm/v3/pipelines/deals/default/stages/nope'),
      api.patch<ErrorJson>(`/crm/v3/pipelines/deals/${theirs.id}`, { label: 'Hijacked' }),
      api.get<ErrorJson>('/crm/v3/pipelines/deals/default/audit'.replace('default', theirs.id)),
    ]);

    expect(answers.map((answer) => `${answer.status} ${answer.body.category}`)).toEqual(
      Array(6).fill('404 OBJECT_NOT_FOUND'),
    );
    expect(answers[3]?.body.context).toEqual({ pipelineId: ['default'], stageId: ['nope'] });
    expect((await other.get<PipelineJson>(`/crm/v3/pipelines/deals/${theirs.id}`)).body.label).toBe(theirs.label);
  });
});

describe('stages', () => {
  it('lists (200), creates (201), reads (200), replaces (200), updates (200) and archives (204) a stage', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    const base = `/crm/v3/pipelines/deals/${pipeline.id}/stages`;

    const created = await api.post<StageJson>(base, { ...dealStage('Demo', 5, '0.3'), stageId: 'demo' });
    const read = await api.get<StageJson>(`${base}/demo`);
    const replaced = await api.put<StageJson>(`${base}/demo`, {
      label: 'Demo booked',
      displayOrder: 0,
      metadata: { probability: '0.35' },
    });
    const updated = await api.patch<StageJson>(`${base}/demo`, { metadata: { probability: '0.45' } });
    const listed = await api.get<{ results: StageJson[] }>(base);
    const archived = await api.delete(`${base}/demo`);
    const after = await api.get<{ results: StageJson[] }>(base);
    const gone = await api.get<ErrorJson>(`${base}/demo`);

    expect([
      created.status,
      read.status,
      replaced.status,
      updated.status,
      listed.status,
      archived.status,
      gone.status,
    ]).toEqual([201, 200, 200, 200, 200, 204, 404]);
    expect(created.body).toMatchObject({
      id: 'demo',
      label: 'Demo',
      displayOrder: 5,
      metadata: { probability: '0.3', isClosed: 'false' },
      archived: false,
    });
    expect(read.body).toEqual(created.body);
    expect(replaced.body).toMatchObject({
      id: 'demo',
      label: 'Demo booked',
      displayOrder: 0,
      metadata: { probability: '0.35' },
      createdAt: created.body.createdAt,
    });
    expect(updated.body).toMatchObject({ label: 'Demo booked', metadata: { probability: '0.45', isClosed: 'false' } });
    expect(listed.body.results.map((stage) => stage.label)).toEqual(['Prospect', 'Demo booked', 'Signed']);
    expect(after.body.results.map((stage) => stage.label)).toEqual(['Prospect', 'Signed']);
  });

  it("answers 409 for a stage id the pipeline has, and 400 to archiving a pipeline's last stage", async () => {
    const { api } = await freshAccount();
    const pipeline = await api.post<PipelineJson>('/crm/v3/pipelines/deals', {
      label: 'One stage',
      displayOrder: 0,
      stages: [{ ...dealStage('Only', 0, '0.5'), stageId: 'only' }],
    });

    const taken = await api.post<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.body.id}/stages`, {
      ...dealStage('Other', 1, '0.5'),
      stageId: 'only',
    });
    const last = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.body.id}/stages/only`);

    expect([taken.status, taken.body.category]).toEqual([409, 'OBJECT_ALREADY_EXISTS']);
    expect([last.status, last.body.category]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('holds a pipeline to 100 stages', async () => {
    const { api } = await freshAccount();
    const stages = Array.from({ length: 100 }, (_, index) => dealStage(`Stage ${index}`, index, '0.5'));
    const full = await api.post<PipelineJson>('/crm/v3/pipelines/deals', { label: 'Full', displayOrder: 0, stages });

    const oneMore = await api.post<ErrorJson>(
      `/crm/v3/pipelines/deals/${full.body.id}/stages`,
      dealStage('Stage 100', 100, '0.5'),
    );
    const tooMany = await api.post<ErrorJson>('/crm/v3/pipelines/deals', {
      label: 'Too full',
      displayOrder: 0,
      stages: [...stages, dealStage('Stage 100', 100, '0.5')],
    });

    expect(full.status).toBe(201);
    expect(full.body.stages).toHaveLength(100);
    expect([oneMore.status, oneMore.body.category, oneMore.body.message]).toEqual([
      400,
      'VALIDATION_ERROR',
      expect.stringContaining('100 stages'),
    ]);
    expect([tooMany.status, tooMany.body.category]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('stages in use', () => {
  afterEach(() => {
    restoreStageUsageLookup('0-3');
  });

  it('answers 400 PipelineError.STAGE_ID_IN_USE to deleting a stage or pipeline a record stands in, and deletes nothing', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    const [prospect] = pipeline.stages;
    // Stands in for the record engine's lookup: one deal in "Prospect".
    registerStageUsageLookup('0-3', async (hubId, pipelineId, stageIds) => {
      const used =
        hubId === installed.hubId && pipelineId === pipeline.id ? stageIds.filter((id) => id === prospect?.id) : [];
      return { stageIds: used, objectIds: used.length > 0 ? ['22901690010'] : [] };
    });

    const stage = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}/stages/${prospect?.id}`);
    const whole = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`);
    const replaced = await api.put<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`, {
      label: 'x',
      displayOrder: 0,
      stages: [dealStage('Fresh', 0, '0.5')],
    });
    const after = await api.get<PipelineJson>(`/crm/v3/pipelines/deals/${pipeline.id}`);

    for (const answer of [stage, whole, replaced]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status: 'error',
        message: `Stage IDs: [${prospect?.id}] are being referenced by object IDs: [22901690010]`,
        correlationId: expect.any(String),
        context: { stageIds: [`[${prospect?.id}]`], objectIds: ['[22901690010]'] },
        category: 'VALIDATION_ERROR',
        subCategory: 'PipelineError.STAGE_ID_IN_USE',
      });
    }
    expect(after.body).toEqual(pipeline);
  });

  it('deletes a stage in use when the client turns the check off (validateReferencesBeforeDelete=false)', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    registerStageUsageLookup('0-3', async (_hubId, _pipelineId, stageIds) => ({
      stageIds: [...stageIds],
      objectIds: ['1'],
    }));

    const archived = await api.delete(`/crm/v3/pipelines/deals/${pipeline.id}?validateReferencesBeforeDelete=false`);

    expect(archived.status).toBe(204);
  });

  it('finds no stage in use when no deal stands in it', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);

    expect((await api.delete(`/crm/v3/pipelines/deals/${pipeline.id}/stages/${pipeline.stages[0]?.id}`)).status).toBe(
      204,
    );
  });

  it('refuses to delete the stage a real deal stands in, and its pipeline, naming the deal; archived deals do not count', async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    const [first, second] = pipeline.stages;
    const deal = await api.post<{ id: string }>('/crm/v3/objects/deals', {
      properties: { dealname: 'Standing', pipeline: pipeline.id, dealstage: first?.id ?? '' },
    });
    const archivedDeal = await api.post<{ id: string }>('/crm/v3/objects/deals', {
      properties: { dealname: 'Gone', pipeline: pipeline.id, dealstage: second?.id ?? '' },
    });
    await api.delete(`/crm/v3/objects/deals/${archivedDeal.body.id}`);

    const stage = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}/stages/${first?.id}`);
    const whole = await api.delete<ErrorJson>(`/crm/v3/pipelines/deals/${pipeline.id}`);
    const free = await api.delete(`/crm/v3/pipelines/deals/${pipeline.id}/stages/${second?.id}`);

    expect(deal.status).toBe(201);
    for (const answer of [stage, whole]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        message: `Stage IDs: [${first?.id}] are being referenced by object IDs: [${deal.body.id}]`,
        subCategory: 'PipelineError.STAGE_ID_IN_USE',
      });
    }
    expect(free.status).toBe(204);
  });
});

describe('audit', () => {
  it("lists a pipeline's changes and its stages' changes, newest first, with who made them", async () => {
    const api = crmClient(gateway, installed.accessToken);
    const pipeline = await createDealPipeline(api);
    await api.patch(`/crm/v3/pipelines/deals/${pipeline.id}`, { label: 'Audited' });
    const stage = await api.post<StageJson>(
      `/crm/v3/pipelines/deals/${pipeline.id}/stages`,
      dealStage('Audited stage', 4, '0.5'),
    );
    await api.patch(`/crm/v3/pipelines/deals/${pipeline.id}/stages/${stage.body.id}`, { label: 'Audited stage 2' });

    const audit = await api.get<{ results: AuditJson[] }>(`/crm/v3/pipelines/deals/${pipeline.id}/audit`);
    const stageAudit = await api.get<{ results: AuditJson[] }>(
      `/crm/v3/pipelines/deals/${pipeline.id}/stages/${stage.body.id}/audit`,
    );
    // What the official SDK 14 sends: the {pipelineId} of the path template, percent-encoded, never filled in.
    const sdkPath = await api.get<{ results: AuditJson[] }>(
      `/crm/v3/pipelines/deals/%7BpipelineId%7D/stages/${stage.body.id}/audit`,
    );

    expect(audit.status).toBe(200);
    expect(audit.body.results.map((entry) => [entry.action, entry.message])).toEqual([
      ['UPDATE', 'Stage Audited stage 2 updated'],
      ['CREATE', 'Stage Audited stage created'],
      ['UPDATE', 'Pipeline Audited updated'],
      ['CREATE', `Pipeline ${pipeline.label} created`],
    ]);
    expect(audit.body.results[0]).toMatchObject({
      portalId: installed.hubId,
      identifier: pipeline.id,
      fromUserId: installed.userId,
      timestamp: expect.stringMatching(/^\d{4}-/),
    });
    expect(audit.body.results[3]?.rawObject).toEqual(pipeline);
    expect(stageAudit.status).toBe(200);
    expect(stageAudit.body.results.map((entry) => [entry.identifier, entry.action])).toEqual([
      [stage.body.id, 'UPDATE'],
      [stage.body.id, 'CREATE'],
    ]);
    expect(sdkPath.status).toBe(200);
    expect(sdkPath.body).toEqual(stageAudit.body);
  });

  it('answers an empty audit for a default pipeline no one changed, and 404 for an unknown stage', async () => {
    const { api } = await freshAccount();

    const audit = await api.get<{ results: AuditJson[] }>('/crm/v3/pipelines/deals/default/audit');
    const stageAudit = await api.get<{ results: AuditJson[] }>(
      '/crm/v3/pipelines/deals/%7BpipelineId%7D/stages/closedwon/audit',
    );
    const unknown = await api.get<ErrorJson>('/crm/v3/pipelines/deals/%7BpipelineId%7D/stages/nope/audit');

    expect([audit.status, audit.body.results]).toEqual([200, []]);
    expect([stageAudit.status, stageAudit.body.results]).toEqual([200, []]);
    expect([unknown.status, unknown.body.category]).toEqual([404, 'OBJECT_NOT_FOUND']);
  });
});

describe('pipeline scopes', () => {
  it("reads deal pipelines with crm.objects.deals.read, and answers 403 MISSING_SCOPES with the type's alternatives for the rest", async () => {
    const api = tokenWith(installed, ['crm.objects.deals.read']);

    const deals = await api.get('/crm/v3/pipelines/deals');
    const tickets = await api.get<ErrorJson>('/crm/v3/pipelines/tickets');
    const create = await api.post<ErrorJson>('/crm/v3/pipelines/deals', dealPipeline('Refused'));

    expect(deals.status).toBe(200);
    expect([tickets.status, tickets.body.category]).toEqual([403, 'MISSING_SCOPES']);
    expect(tickets.body.errors?.[0]?.context).toEqual({
      requiredGranularScopes: ['tickets', 'crm.objects.tickets.read', 'crm.schemas.tickets.read'],
    });
    // Without any pipeline write scope the row refuses first, listing every type's (the generic spec's union).
    expect([create.status, create.body.category]).toEqual([403, 'MISSING_SCOPES']);
    expect(create.body.errors?.[0]?.context).toEqual({
      requiredGranularScopes: ['crm.schemas.deals.write', 'tickets', 'crm.schemas.tickets.write'],
    });
  });

  it('answers 403 listing the deal write scope to a token that may change ticket pipelines only', async () => {
    const api = tokenWith(installed, ['tickets', 'crm.objects.deals.read']);

    const create = await api.post<ErrorJson>('/crm/v3/pipelines/deals', dealPipeline('Refused'));
    const archive = await api.delete<ErrorJson>('/crm/v3/pipelines/deals/default');

    for (const answer of [create, archive]) {
      expect([answer.status, answer.body.category]).toEqual([403, 'MISSING_SCOPES']);
      expect(answer.body.errors?.[0]?.context).toEqual({ requiredGranularScopes: ['crm.schemas.deals.write'] });
    }
  });

  it('reads and changes ticket pipelines with tickets alone, and not deal pipelines', async () => {
    const api = tokenWith(installed, ['tickets']);

    const created = await api.post<PipelineJson>('/crm/v3/pipelines/tickets', {
      label: unique('Support'),
      displayOrder: 1,
      stages: [{ label: 'Open', displayOrder: 0, metadata: { ticketState: 'OPEN' } }],
    });
    const ticketRead = await tokenWith(installed, ['crm.objects.tickets.read']).get(
      `/crm/v3/pipelines/0-5/${created.body.id}`,
    );
    const deals = await api.get<ErrorJson>('/crm/v3/pipelines/deals');

    expect(created.status).toBe(201);
    expect(ticketRead.status).toBe(200);
    expect([deals.status, deals.body.category]).toEqual([403, 'MISSING_SCOPES']);
  });
});
