import { unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

/**
 * crm.pipelines through the official SDK, unchanged but for the base URL: each call checks the
 * exact status (the SDK throws on any other) and that its models parse the answer (dates as Date).
 */
const sdk = useSdkClient();

const dealStage = (label: string, displayOrder: number, probability: string) => ({
  label,
  displayOrder,
  metadata: { probability },
});

describe('crm.pipelines.pipelinesApi', () => {
  it('getAll (200) lists the default deal pipeline, with createdAt at epoch 0', async () => {
    const all = await sdk.client.crm.pipelines.pipelinesApi.getAllWithHttpInfo('deals');

    expect(all.httpStatusCode).toBe(200);
    const pipeline = all.data.results.find((entry) => entry.id === 'default');
    expect(pipeline?.label).toBe('Sales Pipeline');
    expect(pipeline?.createdAt).toEqual(new Date(0));
    expect(pipeline?.stages.map((stage) => stage.id)).toEqual([
      'appointmentscheduled',
      'qualifiedtobuy',
      'presentationscheduled',
      'decisionmakerboughtin',
      'contractsent',
      'closedwon',
      'closedlost',
    ]);
  });

  it('create (201), getById (200), replace (200), update (200), archive (204)', async () => {
    const api = sdk.client.crm.pipelines.pipelinesApi;
    const label = unique('SDK pipeline');

    const created = await api.createWithHttpInfo('deals', {
      label,
      displayOrder: 4,
      stages: [dealStage('Lead', 0, '0.1'), dealStage('Won', 1, '1.0')],
    });
    const read = await api.getByIdWithHttpInfo('0-3', created.data.id);
    const replaced = await api.replaceWithHttpInfo('deals', created.data.id, {
      label: `${label} replaced`,
      displayOrder: 5,
      stages: [dealStage('Lead', 0, '0.2')],
    });
    const updated = await api.updateWithHttpInfo('deals', created.data.id, { label: `${label} updated` });
    const archived = await api.archiveWithHttpInfo('deals', created.data.id);
    const all = await api.getAll('deals');

    expect([
      created.httpStatusCode,
      read.httpStatusCode,
      replaced.httpStatusCode,
      updated.httpStatusCode,
      archived.httpStatusCode,
    ]).toEqual([201, 200, 200, 200, 204]);
    expect(created.data).toMatchObject({ label, displayOrder: 4, archived: false });
    expect(created.data.createdAt).toBeInstanceOf(Date);
    expect(created.data.stages[1]?.metadata).toEqual({ probability: '1.0', isClosed: 'true' });
    expect(read.data.id).toBe(created.data.id);
    expect(replaced.data.stages.map((stage) => [stage.label, stage.metadata?.probability])).toEqual([['Lead', '0.2']]);
    expect(updated.data.label).toBe(`${label} updated`);
    expect(all.results.map((pipeline) => pipeline.id)).not.toContain(created.data.id);
  });

  it('throws ApiException 404 with the error body for an unknown pipeline, and 400 for a type without pipelines', async () => {
    const missing = await sdk.client.crm.pipelines.pipelinesApi
      .getById('deals', 'no-such-pipeline')
      .catch((error: unknown) => error);
    const wrongType = await sdk.client.crm.pipelines.pipelinesApi.getAll('companies').catch((error: unknown) => error);

    expect(missing).toMatchObject({
      code: 404,
      body: { status: 'error', category: 'OBJECT_NOT_FOUND', context: { pipelineId: ['no-such-pipeline'] } },
    });
    expect(wrongType).toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { objectType: ['companies'] } },
    });
  });
});

describe('crm.pipelines.pipelineStagesApi', () => {
  it('create (201), getAll (200), getById (200), replace (200), update (200), archive (204)', async () => {
    const api = sdk.client.crm.pipelines.pipelineStagesApi;
    const pipeline = await sdk.client.crm.pipelines.pipelinesApi.create('tickets', {
      label: unique('SDK tickets'),
      displayOrder: 1,
      stages: [{ label: 'Open', displayOrder: 0, metadata: { ticketState: 'OPEN' } }],
    });

    const created = await api.createWithHttpInfo('tickets', pipeline.id, {
      label: 'Done',
      displayOrder: 1,
      metadata: { ticketState: 'CLOSED' },
    });
    const all = await api.getAllWithHttpInfo('0-5', pipeline.id);
    const read = await api.getByIdWithHttpInfo('tickets', pipeline.id, created.data.id);
    const replaced = await api.replaceWithHttpInfo('tickets', pipeline.id, created.data.id, {
      label: 'Solved',
      displayOrder: 2,
      metadata: { ticketState: 'CLOSED' },
    });
    const updated = await api.updateWithHttpInfo('tickets', pipeline.id, created.data.id, {
      label: 'Resolved',
      metadata: {},
    });
    const archived = await api.archiveWithHttpInfo('tickets', pipeline.id, created.data.id);

    expect([
      created.httpStatusCode,
      all.httpStatusCode,
      read.httpStatusCode,
      replaced.httpStatusCode,
      updated.httpStatusCode,
      archived.httpStatusCode,
    ]).toEqual([201, 200, 200, 200, 200, 204]);
    expect(created.data).toMatchObject({
      label: 'Done',
      archived: false,
      metadata: { ticketState: 'CLOSED', isClosed: 'true' },
    });
    expect(created.data.updatedAt).toBeInstanceOf(Date);
    expect(all.data.results.map((stage) => stage.label)).toEqual(['Open', 'Done']);
    expect(read.data.id).toBe(created.data.id);
    expect(replaced.data.label).toBe('Solved');
    expect(updated.data).toMatchObject({ label: 'Resolved', metadata: { ticketState: 'CLOSED', isClosed: 'true' } });
  });
});

describe('crm.pipelines audits', () => {
  it('pipelineAuditsApi.getAudit (200) and pipelineStageAuditsApi.getAudit (200, sent with its unfilled {pipelineId})', async () => {
    const pipeline = await sdk.client.crm.pipelines.pipelinesApi.create('deals', {
      label: unique('SDK audited'),
      displayOrder: 6,
      stages: [dealStage('Lead', 0, '0.1')],
    });
    const stage = await sdk.client.crm.pipelines.pipelineStagesApi.create(
      'deals',
      pipeline.id,
      dealStage('Call', 1, '0.3'),
    );

    const audit = await sdk.client.crm.pipelines.pipelineAuditsApi.getAuditWithHttpInfo('deals', pipeline.id);
    const stageAudit = await sdk.client.crm.pipelines.pipelineStageAuditsApi.getAuditWithHttpInfo('deals', stage.id);

    expect(audit.httpStatusCode).toBe(200);
    expect(audit.data.results.map((entry) => entry.action)).toEqual(['CREATE', 'CREATE']);
    expect(audit.data.results[0]).toMatchObject({
      identifier: pipeline.id,
      portalId: expect.any(Number),
      fromUserId: expect.any(Number),
    });
    expect(audit.data.results[0]?.timestamp).toBeInstanceOf(Date);
    expect(stageAudit.httpStatusCode).toBe(200);
    expect(stageAudit.data.results.map((entry) => [entry.identifier, entry.action])).toEqual([[stage.id, 'CREATE']]);
  });
});
