import { Template } from 'aws-cdk-lib/assertions';
import { deployedRoutes } from '../../lib/platform-stacks';
import { routes } from '../../shared/routes';
import { unbundledPlatform } from '../support/unbundled-platform';

/**
 * The test-account controls exist in a deployment only with the CDK context `sandboxControls`
 * (bin/cdk-app.ts): without it the stage has no `/sandbox/v1` route and no function may touch the
 * faults' partition. Synthesized in-process without bundling (the shared assembly of the other
 * tests is a test stage's, with the controls on).
 */
function synthesized(sandboxControls: boolean | undefined): string {
  const { stacks } = unbundledPlatform(sandboxControls === undefined ? {} : { sandboxControls });
  return stacks.map((stack) => JSON.stringify(Template.fromStack(stack).toJSON())).join('\n');
}

describe('the sandbox controls in a deployment', () => {
  it('are the rows marked sandbox, and only those are left out by default', () => {
    const sandboxRows = routes.filter((route) => 'sandbox' in route && route.sandbox).map((route) => route.name);
    expect(sandboxRows.length).toBe(13);
    expect(deployedRoutes(routes, true).length).toBe(routes.length);
    expect(deployedRoutes(routes, false).map((route) => route.name)).toEqual(
      routes.map((route) => route.name).filter((name) => !sandboxRows.includes(name)),
    );
  });

  it('do not exist without the context: no route, no function, no grant on the faults', () => {
    const template = synthesized(undefined);
    expect(template).not.toContain('/sandbox/v1');
    expect(template).not.toContain('FAULTS#');
    expect(template).not.toContain('FlushTestAccountWebhooks');
    // The webhook generator does not look for test accounts (no read per stream batch).
    expect(template).not.toContain('SANDBOX_CONTROLS');
  });

  it('exist with it, and every function taking access tokens may read the faults', () => {
    const template = synthesized(true);
    expect(template).toContain('POST /sandbox/v1/test-accounts/{hubId}/faults');
    expect(template).toContain('FAULTS#*');
    expect(template).toContain('"SANDBOX_CONTROLS":"true"');
  });
});
