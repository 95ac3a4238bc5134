import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spellingsOf, type Route } from '../../shared/base/route-types';
import { deployedRoutes } from '../../lib/platform-stacks';
import { routes as routeTable } from '../../shared/routes';
import { bothSynthesesTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';

/** What `sam local start-api -t cdk.out/<stack>.template.json` and `sam local invoke` rely on. */
// The sam local template is a stage without the sandbox controls (one stack of at most 500 resources
// holds every function there: with the controls it would hold 505).
const routes: readonly Route[] = deployedRoutes(routeTable, false);
const routeSpellings = routes.flatMap((route) => spellingsOf(route));

interface FunctionResource {
  Type: string;
  Properties: {
    Handler: string;
    Runtime: string;
    Description?: string;
    Environment: { Variables: Record<string, unknown> };
  };
  Metadata?: Record<string, unknown>;
}

/** The Lambda functions of an API stack's resources (nested stacks' included). */
function functionsOf(resources: Record<string, FunctionResource>): [string, FunctionResource][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
}

let samOutdir: string;
/** The API stack of `npm run synth:sam`: what `sam local start-api -t cdk.out/HubspotSlice-prod-Api.template.json` reads. */
let samResources: Record<string, FunctionResource>;
let samFunctions: [string, FunctionResource][];
/** The API stack of `npx cdk synth`, as deployed. */
let deployedResources: Record<string, FunctionResource>;
let deployedOutdir: string;
let nestedStacks: [string, { Metadata?: Record<string, unknown> }][];

beforeAll(async () => {
  const [forSam, deployed] = await Promise.all([synthesizedPlatform('synth:sam'), synthesizedPlatform('cdk synth')]);
  samOutdir = forSam.outdir;
  samResources = (forSam.template('api') as { Resources: Record<string, FunctionResource> }).Resources;
  samFunctions = functionsOf(samResources);
  deployedOutdir = deployed.outdir;
  deployedResources = (deployed.template('api') as { Resources: Record<string, FunctionResource> }).Resources;
  const [root] = deployed.apiStackTemplates().values();
  nestedStacks = Object.entries(root?.Resources ?? {}).filter(
    ([, resource]) => resource.Type === 'AWS::CloudFormation::Stack',
  );
}, bothSynthesesTimeoutMs);

describe('sam local', () => {
  it("finds every function's code through its aws:asset:path metadata, handler file included", () => {
    // Every route's function and the secrets provisioner; the webhook pipeline's functions are not served by sam local (README, Webhooks).
    expect(samFunctions.length).toBe(routes.length + 1);
    for (const [id, resource] of samFunctions) {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      const moduleName = resource.Properties.Handler.slice(0, resource.Properties.Handler.lastIndexOf('.'));

      expect([id, resource.Metadata?.['aws:asset:property']]).toEqual([id, 'Code']);
      expect([id, typeof assetPath]).toEqual([id, 'string']);
      expect([id, existsSync(path.join(samOutdir, String(assetPath), `${moduleName}.mjs`))]).toEqual([id, true]);
    }
  });

  it('finds every nested stack of the deployed template through its aws:asset:path metadata, as it finds function code', () => {
    expect(nestedStacks.length).toBeGreaterThan(1);
    for (const [id, resource] of nestedStacks) {
      const templateFile = resource.Metadata?.['aws:asset:path'];

      expect([id, resource.Metadata?.['aws:asset:property']]).toEqual([id, 'TemplateURL']);
      expect([id, typeof templateFile === 'string' && existsSync(path.join(deployedOutdir, templateFile))]).toEqual([
        id,
        true,
      ]);
    }
  });

  it('keeps every route and function in the one samLocal template: sam local start-api serves no route of a nested stack', () => {
    const typeCount = (type: string) => Object.values(samResources).filter((resource) => resource.Type === type).length;

    expect(typeCount('AWS::CloudFormation::Stack')).toBe(0);
    // One API route per spelling of each row's path, one function per row.
    expect(typeCount('AWS::ApiGatewayV2::Route')).toBe(routeSpellings.length);
    expect(typeCount('AWS::Lambda::Function')).toBe(routes.length + 1);
  });

  it('uses a runtime sam has an emulation image for', () => {
    for (const [, resource] of samFunctions) expect(resource.Properties.Runtime).toBe('nodejs22.x');
  });

  it('declares DYNAMODB_ENDPOINT and, where a row reads a secret, SECRETS_JSON only in the samLocal template', () => {
    const declared = (resources: Record<string, FunctionResource>, name: string) =>
      functionsOf(resources).filter(([, resource]) => name in resource.Properties.Environment.Variables).length;

    expect(declared(deployedResources, 'DYNAMODB_ENDPOINT')).toBe(0);
    expect(declared(deployedResources, 'SECRETS_JSON')).toBe(0);
    expect(declared(samResources, 'DYNAMODB_ENDPOINT')).toBe(routes.length);
    expect(declared(samResources, 'SECRETS_JSON')).toBe(routes.filter((route) => route.secrets?.length).length);
  });

  it('gets a local value from the env-vars file for every variable resolved at deploy time', () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'sam-env-vars-'));
    try {
      const file = path.join(stateDir, 'env.json');
      const run = spawnSync(
        path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx'),
        ['bin/sam-env-vars.ts', '--data-dir', stateDir, '--out', file],
        { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' },
      );
      expect(run.status).toBe(0);
      const parameters = (JSON.parse(readFileSync(file, 'utf8')) as { Parameters: Record<string, string> }).Parameters;

      for (const [, resource] of samFunctions) {
        const deployTimeNames = Object.entries(resource.Properties.Environment.Variables)
          .filter(([, value]) => typeof value !== 'string')
          .map(([name]) => name)
          // SECRETS_JSON stands in for the secret ARNs (shared/oauth/key-material.ts reads it first).
          .filter((name) => !name.endsWith('_SECRET_ARN'));
        for (const name of deployTimeNames) expect([name, typeof parameters[name]]).toEqual([name, 'string']);
      }
      expect(JSON.parse(parameters.SECRETS_JSON ?? '{}')).toMatchObject({
        signingKeys: [expect.objectContaining({ kid: expect.any(String) })],
        sessionSecret: expect.any(String),
      });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
