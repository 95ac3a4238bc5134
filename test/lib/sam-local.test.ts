import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { addPlatformStacks } from '../../lib/platform-stacks';
import type { Route } from '../../shared/route-types';
import { routes as routeTable } from '../../shared/routes';
import { synthesisTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';

/** What `sam local start-api -t cdk.out/<stack>.template.json` and `sam local invoke` rely on. */
const routes: readonly Route[] = routeTable;

interface FunctionResource {
  Type: string;
  Properties: { Handler: string; Runtime: string; Environment: { Variables: Record<string, unknown> } };
  Metadata?: Record<string, unknown>;
}

let outdir: string;
let functions: [string, FunctionResource][];
let nestedStacks: [string, { Metadata?: Record<string, unknown> }][];

beforeAll(async () => {
  const platform = await synthesizedPlatform();
  outdir = platform.outdir;
  const resources = (platform.template('api') as { Resources: Record<string, FunctionResource> }).Resources;
  functions = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
  const [root] = platform.apiStackTemplates().values();
  nestedStacks = Object.entries(root?.Resources ?? {}).filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack');
}, synthesisTimeoutMs);

/** The API stack's resources and its nested stacks' (none in the samLocal template). */
function unbundledApiTemplate(declareSamLocalVariables: boolean): Record<string, FunctionResource> {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { api } = addPlatformStacks(app, {
    routes, stageName: 'prod', logRetention: 30 as RetentionDays, logLevel: 'INFO', signingKeyGeneration: 1,
    throttle: { rateLimit: 100, burstLimit: 200 }, declareSamLocalVariables,
  });
  const stacks = [api, ...api.node.findAll().filter((construct): construct is NestedStack => construct instanceof NestedStack)];
  return Object.assign({}, ...stacks.map((stack) => (Template.fromStack(stack).toJSON() as { Resources: Record<string, FunctionResource> }).Resources)) as Record<string, FunctionResource>;
}

describe('sam local', () => {
  it('finds every function\'s code through its aws:asset:path metadata, handler file included', () => {
    expect(functions.length).toBe(routes.length + 1);
    for (const [id, resource] of functions) {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      const moduleName = resource.Properties.Handler.slice(0, resource.Properties.Handler.lastIndexOf('.'));

      expect([id, resource.Metadata?.['aws:asset:property']]).toEqual([id, 'Code']);
      expect([id, typeof assetPath]).toEqual([id, 'string']);
      expect([id, existsSync(path.join(outdir, String(assetPath), `${moduleName}.mjs`))]).toEqual([id, true]);
    }
  });

  it('finds every nested stack of route functions through its aws:asset:path metadata, as it finds function code', () => {
    expect(nestedStacks.length).toBeGreaterThan(1);
    for (const [id, resource] of nestedStacks) {
      const templateFile = resource.Metadata?.['aws:asset:path'];

      expect([id, resource.Metadata?.['aws:asset:property']]).toEqual([id, 'TemplateURL']);
      expect([id, typeof templateFile === 'string' && existsSync(path.join(outdir, templateFile))]).toEqual([id, true]);
    }
  });

  it('keeps every route and function in the one samLocal template: sam local start-api serves no route of a nested stack', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const { api } = addPlatformStacks(app, {
      routes, stageName: 'prod', logRetention: 30 as RetentionDays, logLevel: 'INFO', signingKeyGeneration: 1,
      throttle: { rateLimit: 100, burstLimit: 200 }, declareSamLocalVariables: true,
    });
    const template = Template.fromStack(api);

    template.resourceCountIs('AWS::CloudFormation::Stack', 0);
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    template.resourceCountIs('AWS::Lambda::Function', routes.length + 1);
  });

  it('uses a runtime sam has an emulation image for', () => {
    for (const [, resource] of functions) expect(resource.Properties.Runtime).toBe('nodejs22.x');
  });

  it('declares DYNAMODB_ENDPOINT and, where a row reads a secret, SECRETS_JSON only in the samLocal template', () => {
    const deployed = unbundledApiTemplate(false);
    const forSam = unbundledApiTemplate(true);
    const declared = (resources: Record<string, FunctionResource>, name: string) => Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function' && name in resource.Properties.Environment.Variables).length;

    expect(declared(deployed, 'DYNAMODB_ENDPOINT')).toBe(0);
    expect(declared(deployed, 'SECRETS_JSON')).toBe(0);
    expect(declared(forSam, 'DYNAMODB_ENDPOINT')).toBe(routes.length);
    expect(declared(forSam, 'SECRETS_JSON')).toBe(routes.filter((route) => route.secrets?.length).length);
  });

  it('gets a local value from the env-vars file for every variable resolved at deploy time', () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'sam-env-vars-'));
    try {
      const file = path.join(stateDir, 'env.json');
      const run = spawnSync(path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx'), ['bin/sam-env-vars.ts', '--data-dir', stateDir, '--out', file], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' });
      expect(run.status).toBe(0);
      const parameters = (JSON.parse(readFileSync(file, 'utf8')) as { Parameters: Record<string, string> }).Parameters;

      for (const [, resource] of functions) {
        const deployTimeNames = Object.entries(resource.Properties.Environment.Variables)
          .filter(([, value]) => typeof value !== 'string').map(([name]) => name)
          // SECRETS_JSON stands in for the secret ARNs (shared/oauth/key-material.ts reads it first).
          .filter((name) => !name.endsWith('_SECRET_ARN'));
        for (const name of deployTimeNames) expect([name, typeof parameters[name]]).toEqual([name, 'string']);
      }
      expect(JSON.parse(parameters.SECRETS_JSON ?? '{}')).toMatchObject({ signingKeys: [expect.objectContaining({ kid: expect.any(String) })], sessionSecret: expect.any(String) });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
