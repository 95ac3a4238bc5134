import { pipelines as dealPipelines, stageMetadata as dealStageMetadata } from '../../../shared/objects/types/deals';
import {
  pipelines as ticketPipelines,
  stageMetadata as ticketStageMetadata,
} from '../../../shared/objects/types/tickets';
import {
  findPipelineObjectType,
  requirePipelineObjectType,
  stageMetadataRuleOf,
} from '../../../shared/pipelines/pipeline-object-types';
import { anyPipelineReadScopes, anyPipelineWriteScopes } from '../../../shared/pipelines/pipeline-scopes';
import { findRoute } from '../../../shared/routes';

describe('pipeline object types', () => {
  it('are deals and tickets, by plural name or type id, in any case', () => {
    expect(
      ['deals', '0-3', 'DeAlS', 'tickets', '0-5', 'TICKETS'].map((token) => findPipelineObjectType(token)?.name),
    ).toEqual(['deals', 'deals', 'deals', 'tickets', 'tickets', 'tickets']);
    expect(['companies', 'contacts', 'deal', '0-2', '', 'deals '].map(findPipelineObjectType)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuse any other token with a ValidationError naming it', () => {
    expect(() => requirePipelineObjectType('widgets')).toThrow(
      expect.objectContaining({ status: 400, category: 'VALIDATION_ERROR', context: { objectType: ['widgets'] } }),
    );
  });

  it("let a route row ask for any type's scope: the union of theirs", () => {
    expect(new Set(findRoute('listPipelines').scopes)).toEqual(
      new Set([...dealPipelines.scopes.read, ...ticketPipelines.scopes.read]),
    );
    expect(new Set(findRoute('createPipeline').scopes)).toEqual(
      new Set([...dealPipelines.scopes.write, ...ticketPipelines.scopes.write]),
    );
    expect([...anyPipelineReadScopes, ...anyPipelineWriteScopes].length).toBeGreaterThan(0);
  });
});

describe('deal stage metadata', () => {
  it('needs a probability from 0.0 to 1.0, and closes won (1.0) and lost (0.0) stages unless told', () => {
    expect(dealStageMetadata({ probability: '0.4' })).toEqual({
      probability: '0.4',
      isClosed: 'false',
    });
    expect(dealStageMetadata({ probability: '1.0' })).toEqual({
      probability: '1.0',
      isClosed: 'true',
    });
    expect(dealStageMetadata({ probability: '0' })).toEqual({ probability: '0', isClosed: 'true' });
    expect(dealStageMetadata({ probability: '1', isClosed: 'false' })).toEqual({
      probability: '1',
      isClosed: 'false',
    });
  });

  it('refuses a missing, empty, non-numeric or out-of-range probability, naming metadata.probability', () => {
    const metadatas: Record<string, string>[] = [
      {},
      { probability: '' },
      { probability: 'high' },
      { probability: '-0.1' },
      { probability: '1.01' },
      { probability: 'NaN' },
    ];
    for (const metadata of metadatas) {
      expect(() => dealStageMetadata(metadata)).toThrow(
        expect.objectContaining({ status: 400, context: { 'metadata.probability': [metadata.probability ?? ''] } }),
      );
    }
  });

  it('refuses an isClosed other than "true" or "false"', () => {
    expect(() => dealStageMetadata({ probability: '0.5', isClosed: 'yes' })).toThrow(
      expect.objectContaining({ context: { 'metadata.isClosed': ['yes'] } }),
    );
  });
});

describe('ticket stage metadata', () => {
  it('takes ticketState OPEN or CLOSED, or none, and closes the CLOSED stages', () => {
    expect(ticketStageMetadata({})).toEqual({ isClosed: 'false' });
    expect(ticketStageMetadata({ ticketState: 'OPEN' })).toEqual({
      ticketState: 'OPEN',
      isClosed: 'false',
    });
    expect(ticketStageMetadata({ ticketState: 'CLOSED' })).toEqual({
      ticketState: 'CLOSED',
      isClosed: 'true',
    });
    expect(() => ticketStageMetadata({ ticketState: 'open' })).toThrow(
      expect.objectContaining({ context: { 'metadata.ticketState': ['open'] } }),
    );
  });
});

describe('default pipelines', () => {
  it("ship each type one pipeline whose stages satisfy the type's own metadata rule", () => {
    for (const type of [dealPipelines, ticketPipelines]) {
      for (const stage of type.defaults.flatMap((pipeline) => pipeline.stages))
        expect(stageMetadataRuleOf(type)(stage.metadata)).toEqual(stage.metadata);
    }
    expect([
      dealPipelines.defaults.map((pipeline) => pipeline.id),
      ticketPipelines.defaults.map((pipeline) => pipeline.id),
    ]).toEqual([['default'], ['0']]);
  });
});
