import { matchRoute } from '../../local/local-gateway';

/** API Gateway's HTTP APIs route a path with one trailing slash as the path without it; the SDK's owner pages depend on it. */
describe('local gateway route matching, trailing slash', () => {
  it('routes /crm/v3/owners/ (the SDK adds the slash with a query) to the owners list', () => {
    expect(matchRoute('GET', '/crm/v3/owners/')?.route.name).toBe('listOwners');
    expect(matchRoute('GET', '/crm/v3/owners')?.route.name).toBe('listOwners');
  });

  it('keeps the path parameters of a route matched without the slash', () => {
    expect(matchRoute('GET', '/crm/v3/pipelines/deals/default/')).toMatchObject({
      route: { name: 'getPipeline' },
      pathParameters: { pipelineObjectType: 'deals', pipelineId: 'default' },
    });
  });

  it('strips one slash only, and leaves paths that match no route to the catch-all', () => {
    expect(matchRoute('GET', '/crm/v3/owners//')?.route.name).toBe('notFound');
    expect(matchRoute('GET', '/no/such/path/')?.route.name).toBe('notFound');
    expect(matchRoute('GET', '/')?.route.name).toBe('notFound');
  });

  it("decodes the SDK's unfilled {pipelineId} of the stage audit path", () => {
    expect(matchRoute('GET', '/crm/v3/pipelines/deals/%7BpipelineId%7D/stages/closedwon/audit')).toMatchObject({
      route: { name: 'getPipelineStageAudit' },
      pathParameters: { pipelineId: '{pipelineId}', stageId: 'closedwon' },
    });
  });
});
