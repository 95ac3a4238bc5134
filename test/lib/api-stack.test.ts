import { type App, NestedStack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { journalRetentionDays } from '../../shared/webhooks-journal/journal-limits';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { tableReadActions, tableWriteActions } from '../../lib/api-stack';
import { maxIntegrationsPerApi, maxRoutesPerApi, planApis } from '../../lib/api-shards';
import { reservedConcurrencyPerFunction, type ReservedConcurrencySetting } from '../../lib/route-limits';
import { loginAttemptsKey, partitions, recordListsItemPrefix, userKey } from '../../shared/db/keys';
import { tableDefinition } from '../../shared/db/table';
import {
  isRateLimited,
  routeKeyOf,
  spellingsOf,
  takesAccessTokens,
  type Route,
  type RouteSpelling,
} from '../../shared/base/route-types';
import { routeSpellings, routes as routeTable } from '../../shared/routes';
import { synthesisTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';
import { unbundledPlatform } from '../support/unbundled-platform';

/** The key prefixes of the stored standard types' record items, in type-id order: what the stream filters name. */
const storedKeyPrefixes = [
  'CONTACT',
  'COMPANY',
  'DEAL',
  'TICKET',
  'PRODUCT',
  'LINEITEM',
  'TASK',
  'NOTE',
  'MEETING',
  'CALL',
  'EMAIL',
];

/** Widened to the row type: rows differ in their optional fields. One function each. */
const routes: readonly Route[] = routeTable;
/** Every spelling of every row: one HTTP API route each. */
const spellings: readonly RouteSpelling[] = routeSpellings;

interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
  Condition?: Record<string, Record<string, string | string[]>>;
}

let api: Template;
let data: Template;
let apiResources: Record<string, CfnResource>;
/** Nested stack parameter -> the value the API stack passes it. */
let nestedParameters: Map<string, unknown>;
/** Logical id of each resource in a nested stack -> the logical id of that nested stack in the API stack. */
let nestedStackOf: Map<string, string>;
let context: Record<string, unknown>;
let stageName: string;
let synthOutput: string;

beforeAll(async () => {
  const platform = await synthesizedPlatform();
  api = Template.fromJSON(platform.template('api'));
  data = Template.fromJSON(platform.template('data'));
  apiResources = (platform.template('api') as { Resources: Record<string, CfnResource> }).Resources;
  nestedParameters = new Map();
  nestedStackOf = new Map();
  const stackTemplates = platform.apiStackTemplates();
  const [root] = stackTemplates.values();
  for (const [stackId, resource] of Object.entries(root?.Resources ?? {})) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    for (const [name, value] of Object.entries((resource.Properties?.Parameters ?? {}) as Record<string, unknown>))
      nestedParameters.set(name, value);
    const nested = stackTemplates.get(String(resource.Metadata?.['aws:asset:path']));
    for (const id of Object.keys(nested?.Resources ?? {})) nestedStackOf.set(id, stackId);
  }
  context = platform.context;
  stageName = String(platform.context.stage);
  synthOutput = platform.output;
}, synthesisTimeoutMs);

/** The resource a Ref or GetAtt names, through the parameters the API stack passes its nested stacks. */
function refOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { Ref?: unknown; 'Fn::GetAtt'?: unknown };
  if (typeof record.Ref === 'string')
    return nestedParameters.has(record.Ref) ? refOf(nestedParameters.get(record.Ref)) : record.Ref;
  const getAtt = record['Fn::GetAtt'];
  return Array.isArray(getAtt) && typeof getAtt[0] === 'string' ? getAtt[0] : undefined;
}

/** API route -> integration -> function: the function that really serves a route of the table (on a spelling's path, for a spelling). */
function functionServing(route: Route): { id: string; resource: CfnResource } {
  const apiRoutes = Object.values(apiResources).filter(
    (resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === routeKeyOf(route),
  );
  // A path is a route of one HTTP API; `$default` is a route of each (lib/api-shards.ts), all to one function.
  expect(apiRoutes.length).toBe(route.path === '$default' ? httpApiIds().length : 1);
  expect(new Set(apiRoutes.map((apiRoute) => refOf(apiRoute.Properties.ApiId))).size).toBe(apiRoutes.length);
  const functionIds = apiRoutes.map((apiRoute) => {
    const target = JSON.stringify(apiRoute.Properties.Target);
    const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(target)?.[1] ?? '';
    const integration = apiResources[integrationId];
    expect(integration?.Type).toBe('AWS::ApiGatewayV2::Integration');
    expect(integration?.Properties.PayloadFormatVersion).toBe('2.0');
    return refOf(integration?.Properties.IntegrationUri) ?? '';
  });
  expect(new Set(functionIds).size).toBe(1);
  const functionId = functionIds[0] ?? '';
  const resource = apiResources[functionId];
  if (resource?.Type !== 'AWS::Lambda::Function') throw new Error(`route ${route.name} is not served by a function`);
  return { id: functionId, resource };
}

/** The HTTP APIs as the stack plans them: no custom domain here, so further APIs sit behind the root's proxy routes. */
const plannedApis = () =>
  planApis(routeTable, { routes: maxRoutesPerApi, integrations: maxIntegrationsPerApi }, 'proxy');

/** The logical ids of the HTTP APIs the table is served from (one while it fits one API's quotas). */
function httpApiIds(): string[] {
  return Object.keys(apiResources).filter((id) => apiResources[id]?.Type === 'AWS::ApiGatewayV2::Api');
}

/** Every role with every statement of its inline policies and of the policies attached to it. */
function rolePolicies(): Map<string, Statement[]> {
  const roles = new Map<string, Statement[]>();
  for (const [id, resource] of Object.entries(apiResources)) {
    if (resource.Type !== 'AWS::IAM::Role') continue;
    const inline = (resource.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[];
    roles.set(
      id,
      inline.flatMap((policy) => policy.PolicyDocument.Statement),
    );
  }
  for (const resource of Object.values(apiResources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    for (const role of resource.Properties.Roles as unknown[]) {
      const id = refOf(role) ?? '';
      roles.set(id, [
        ...(roles.get(id) ?? []),
        ...(resource.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
      ]);
    }
  }
  return roles;
}

/** Every statement of every policy of the role of the function. */
function statementsOf(functionResource: CfnResource): Statement[] {
  return rolePolicies().get(refOf(functionResource.Properties.Role) ?? '') ?? [];
}

/** IAM's StringLike: `*` any run of characters, `?` any one. */
function isStringLike(value: string, pattern: string): boolean {
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's').test(value);
}

/** The LeadingKeys patterns of a statement; undefined when it has no such condition. */
function leadingKeysOf(statement: Statement): string[] | undefined {
  const patterns = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
  return patterns === undefined ? undefined : [patterns].flat();
}

function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
}

function secretIdOf(descriptionStart: string): string {
  const id = Object.keys(apiResources).find(
    (key) =>
      apiResources[key]?.Type === 'AWS::SecretsManager::Secret' &&
      String(apiResources[key]?.Properties.Description).startsWith(descriptionStart),
  );
  if (!id) throw new Error(`no secret described as ${descriptionStart}`);
  return id;
}

const writeActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
];

describe('API stack: one function per row of the route table, one route per spelling of its path', () => {
  it.each(spellings.map((route) => [route.spelling, route] as const))(
    "serves %s with exactly one API route and its row's function",
    (_name, route) => {
      const served = functionServing(route);

      expect(served.resource.Properties.Description).toMatch(new RegExp(`^${route.name}: `));
      expect(served.id).toBe(functionServing(routes.find((row) => row.name === route.name) as Route).id);
    },
  );

  it('has one function per row plus the secrets provisioner, the two webhook functions, the association limit tracker and the job runner, and no function serves two rows', () => {
    const served = new Set(routes.map((route) => functionServing(route).id));

    expect(served.size).toBe(routes.length);
    expect(new Set(spellings.map((route) => functionServing(route).id))).toEqual(served);
    api.resourceCountIs('AWS::Lambda::Function', routes.length + 5);
    // Besides the spellings: each further API's `$default` route, and the root's proxy route per forwarded key.
    const plans = plannedApis();
    expect(httpApiIds()).toHaveLength(plans.length);
    api.resourceCountIs(
      'AWS::ApiGatewayV2::Route',
      spellings.length + (plans.length - 1) + plans.reduce((sum, plan) => sum + plan.proxiedKeys.length, 0),
    );
  });

  it('costs an alias its API route and nothing more: one integration and one invoke permission per function on each API serving it', () => {
    const functionIds = new Set(routes.map((route) => functionServing(route).id));
    const permissions = Object.values(apiResources).filter(
      (resource) =>
        resource.Type === 'AWS::Lambda::Permission' && functionIds.has(refOf(resource.Properties.FunctionName) ?? ''),
    );
    const plans = plannedApis();
    // The rows each API serves (an API serves a row when it has a spelling of it), and its proxy routes' integrations.
    const integrations = plans.reduce(
      (sum, plan) => sum + new Set(plan.spellings.map((placed) => placed.spelling.name)).size + plan.proxiedKeys.length,
      0,
    );
    const rowsServed = plans.reduce(
      (sum, plan) => sum + new Set(plan.spellings.map((placed) => placed.spelling.name)).size,
      0,
    );

    expect(spellings.length).toBeGreaterThan(routes.length);
    expect(rowsServed).toBeLessThan(spellings.length);
    api.resourceCountIs('AWS::ApiGatewayV2::Integration', integrations);
    expect(permissions).toHaveLength(rowsServed);
  });

  it.each(routes.filter((route) => (route.aliases ?? []).length > 0).map((route) => [route.name, route] as const))(
    'lets API Gateway invoke %s on every spelling of its path',
    (_name, route) => {
      const functionId = functionServing(route).id;
      const permissions = Object.values(apiResources).filter(
        (resource) =>
          resource.Type === 'AWS::Lambda::Permission' && refOf(resource.Properties.FunctionName) === functionId,
      );
      // arn:...:execute-api:<region>:<account>:<api id>/*/*<path pattern>, built with Fn::Join: one per API serving the row.
      const patterns = permissions.map(
        (permission) => /\/\*\/\*(\/[^"]*)"\]\]\}$/.exec(JSON.stringify(permission.Properties.SourceArn))?.[1] ?? '',
      );

      expect(patterns.length).toBeGreaterThan(0);
      for (const spelling of spellingsOf(route))
        expect([spelling.path, patterns.some((pattern) => isStringLike(spelling.path, pattern))]).toEqual([
          spelling.path,
          true,
        ]);
    },
  );

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    'runs %s on nodejs22.x arm64 as an ES module bundle with the table, public keys and secure cookies',
    (_name, route) => {
      const { Properties } = functionServing(route).resource;
      const variables = (Properties.Environment as { Variables: Record<string, unknown> }).Variables;

      expect(Properties.Runtime).toBe('nodejs22.x');
      expect(Properties.Architectures).toEqual(['arm64']);
      expect(Properties.Handler).toBe('index.handler');
      expect(JSON.stringify(variables.TABLE_NAME)).toMatch(/Fn::ImportValue.*Table/);
      expect(refOf(variables.TOKEN_PUBLIC_KEYS)).toMatch(/^SecretsValues/);
      expect(JSON.stringify(nestedParameters.get((variables.TOKEN_PUBLIC_KEYS as { Ref: string }).Ref))).toContain(
        'PublicKeys',
      );
      expect(variables.COOKIE_SECURE).toBe('true');
      expect(variables.LOG_LEVEL).toEqual(expect.any(String));
    },
  );

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    "gives %s the API's own execute-api URL as PUBLIC_BASE_URL, for links no Host header can change",
    (_name, route) => {
      const variables = (
        functionServing(route).resource.Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;

      const joined = JSON.stringify(variables.PUBLIC_BASE_URL);
      expect(joined).toMatch(/^\{"Fn::Join":/);
      expect(joined).toContain('https://');
      expect(joined).toContain('.execute-api.');
      const apiRef = /"Ref":"([^"]*HttpApi[^"]*)"/.exec(joined)?.[1] ?? '';
      expect(refOf({ Ref: apiRef })).toMatch(/^HttpApi[0-9A-F]*$/);
    },
  );

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    'gives %s the secret ARNs its row lists and no other',
    (_name, route) => {
      const variables = (
        functionServing(route).resource.Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      const secrets = route.secrets ?? [];

      expect(refOf(variables.SIGNING_KEY_SECRET_ARN)).toBe(
        secrets.includes('signingKey') ? secretIdOf('Ed25519') : undefined,
      );
      expect(refOf(variables.SESSION_SECRET_ARN)).toBe(
        secrets.includes('sessionSecret') ? secretIdOf('HMAC') : undefined,
      );
    },
  );
});

describe('API stack: least privilege', () => {
  it('grants no wildcard action in any policy', () => {
    const actions = [...rolePolicies().values()].flatMap((statements) => actionsOf(statements));

    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it("attaches no managed policy to any role, and keeps each role's permissions inline (no separate policy resource)", () => {
    const roles = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::IAM::Role');

    expect(roles.length).toBeGreaterThan(routes.length);
    expect(roles.filter((role) => role.Properties.ManagedPolicyArns !== undefined)).toEqual([]);
    api.resourceCountIs('AWS::IAM::Policy', 0);
  });

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    'grants %s exactly the table access of its row',
    (_name, route) => {
      const dynamoActions = actionsOf(statementsOf(functionServing(route).resource)).filter((action) =>
        action.startsWith('dynamodb:'),
      );

      if (route.table === 'none') expect(dynamoActions).toEqual([]);
      if (route.table === 'read') {
        expect(dynamoActions).toEqual(
          expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']),
        );
        const writes = statementsOf(functionServing(route).resource).filter((statement) =>
          actionsOf([statement]).some((action) => writeActions.includes(action)),
        );
        // A token-authenticated read may only count its call (UpdateItem on the limiter's LIMIT# partitions)
        // and, with the sandbox controls deployed (this assembly), take a test account's injected fault.
        expect(
          writes.map((statement) => ({ actions: actionsOf([statement]), condition: statement.Condition })),
        ).toEqual([
          ...(takesAccessTokens(route) ? [faultsStatement] : []),
          ...(isRateLimited(route) ? [limiterStatement] : []),
        ]);
      }
      if (route.table === 'readwrite')
        expect(dynamoActions).toEqual(
          expect.arrayContaining([
            'dynamodb:GetItem',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
          ]),
        );
    },
  );

  const limiterStatement = {
    actions: ['dynamodb:UpdateItem'],
    condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LIMIT#*'] } },
  };
  const faultsStatement = {
    actions: ['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
    condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FAULTS#*'] } },
  };

  it.each(spellings.map((route) => [route.spelling, route] as const))(
    "lets %s read and count injected faults, and check the account's write hold, exactly when it takes access tokens (controls deployed)",
    (_name, route) => {
      const faults = statementsOf(functionServing(route).resource).filter(
        (statement) => JSON.stringify(leadingKeysOf(statement)) === JSON.stringify([partitions.faults]),
      );
      expect(faults.map((statement) => ({ actions: actionsOf([statement]), condition: statement.Condition }))).toEqual(
        takesAccessTokens(route) ? [faultsStatement] : [],
      );
    },
  );

  it.each(spellings.filter((route) => route.table !== 'none').map((route) => [route.spelling, route] as const))(
    'lets %s count its calls in the rate limiter exactly when its row is limited',
    (_name, route) => {
      const limiter = statementsOf(functionServing(route).resource)
        .filter((statement) => JSON.stringify(leadingKeysOf(statement)) === JSON.stringify([partitions.rateLimits]))
        .map((statement) => ({ actions: actionsOf([statement]), condition: statement.Condition }));

      expect(limiter).toEqual(isRateLimited(route) ? [limiterStatement] : []);
    },
  );

  const installStateStatement = {
    actions: ['dynamodb:GetItem'],
    condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['INSTALL_STATE#*'] } },
  };

  it.each(spellings.filter((route) => route.table !== 'none').map((route) => [route.spelling, route] as const))(
    'lets %s read the install states exactly when its row takes access tokens',
    (_name, route) => {
      const reads = statementsOf(functionServing(route).resource)
        .filter((statement) => JSON.stringify(leadingKeysOf(statement)) === JSON.stringify([partitions.installStates]))
        .map((statement) => ({ actions: actionsOf([statement]), condition: statement.Condition }));

      expect(reads).toEqual(takesAccessTokens(route) ? [installStateStatement] : []);
    },
  );

  it.each(spellings.filter((route) => route.table !== 'none').map((route) => [route.spelling, route] as const))(
    'lets %s reach only the table partitions of its row (dynamodb:LeadingKeys)',
    (_name, route) => {
      const byRule = [[partitions.rateLimits], [partitions.installStates], [partitions.faults]].map((keys) =>
        JSON.stringify(keys),
      );
      const dynamoStatements = statementsOf(functionServing(route).resource)
        .filter((statement) => actionsOf([statement]).some((action) => action.startsWith('dynamodb:')))
        .filter((statement) => !byRule.includes(JSON.stringify(leadingKeysOf(statement))));
      const expected = route.partitions.map((name) => partitions[name as keyof typeof partitions]);

      expect(expected.length).toBeGreaterThan(0);
      expect(dynamoStatements.length).toBeGreaterThan(0);
      for (const statement of dynamoStatements) {
        expect(leadingKeysOf(statement)?.slice().sort()).toEqual([...expected].sort());
        // The table itself, never an index: the table has none, and a new one must be a deliberate grant.
        expect(JSON.stringify(statement.Resource)).not.toContain('/index/');
      }
    },
  );

  it.each(['getAccessTokenInfo', 'getRefreshTokenInfo', 'deleteRefreshToken'])(
    'keeps the public token-metadata function %s away from users, their password hashes and login attempts',
    (name) => {
      const route = routes.find((candidate) => candidate.name === name);
      if (!route) throw new Error(`no route ${name}`);
      const patterns = statementsOf(functionServing(route).resource).flatMap(
        (statement) =>
          leadingKeysOf(statement) ??
          (actionsOf([statement]).some((action) => action.startsWith('dynamodb:')) ? ['*'] : []),
      );

      expect(patterns.length).toBeGreaterThan(0);
      for (const pk of [userKey('someone@example.com').pk, loginAttemptsKey('someone@example.com').pk]) {
        expect([pk, patterns.filter((pattern) => isStringLike(pk, pattern))]).toEqual([pk, []]);
      }
    },
  );

  it('grants an action for every DynamoDB command the repositories send', () => {
    // What IAM checks for each lib-dynamodb / client-dynamodb command (transactions are checked per item).
    const actionsOfCommand: Record<string, string[]> = {
      Get: ['dynamodb:GetItem'],
      BatchGet: ['dynamodb:BatchGetItem'],
      Query: ['dynamodb:Query'],
      TransactGet: ['dynamodb:GetItem'],
      Put: ['dynamodb:PutItem'],
      Update: ['dynamodb:UpdateItem'],
      Delete: ['dynamodb:DeleteItem'],
      BatchWrite: ['dynamodb:BatchWriteItem'],
      TransactWrite: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
      GetItem: ['dynamodb:GetItem'],
      PutItem: ['dynamodb:PutItem'],
      UpdateItem: ['dynamodb:UpdateItem'],
      DeleteItem: ['dynamodb:DeleteItem'],
      BatchGetItem: ['dynamodb:BatchGetItem'],
      BatchWriteItem: ['dynamodb:BatchWriteItem'],
      TransactGetItems: ['dynamodb:GetItem'],
      TransactWriteItems: [
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ],
    };
    const dbDirectory = path.join(__dirname, '..', '..', 'shared', 'db');
    const commands = new Set(
      readdirSync(dbDirectory)
        .filter((file) => file.endsWith('.ts'))
        .flatMap((file) =>
          [...readFileSync(path.join(dbDirectory, file), 'utf8').matchAll(/new (\w+)Command\(/g)].map(
            (match) => match[1] ?? '',
          ),
        ),
    );
    const granted = new Set([...tableReadActions, ...tableWriteActions]);

    expect(commands.size).toBeGreaterThan(0);
    for (const command of commands) {
      // An unknown command (Scan, ExecuteStatement, ...) must be a deliberate addition to the grants.
      expect([command, actionsOfCommand[command]?.every((action) => granted.has(action)) ?? false]).toEqual([
        command,
        true,
      ]);
    }
  });

  it('lets only the token endpoints, the install without the browser (and the provisioner that writes it) read the signing key', () => {
    const signingKeyId = secretIdOf('Ed25519');
    const readers = [...rolePolicies()]
      .filter(([, statements]) =>
        statements.some(
          (statement) =>
            actionsOf([statement]).includes('secretsmanager:GetSecretValue') &&
            [statement.Resource].flat().some((resource) => refOf(resource) === signingKeyId),
        ),
      )
      .map(([roleId]) => roleId);
    const expectedReaders = routes
      .filter((route) => route.secrets?.includes('signingKey'))
      .map((route) => refOf(functionServing(route).resource.Properties.Role));

    expect(
      spellings
        .filter((route) => route.secrets?.includes('signingKey'))
        .map((route) => route.path)
        .sort(),
    ).toEqual([
      '/oauth/2026-03/token',
      '/oauth/v1/token',
      '/oauth/v3/token',
      '/sandbox/v1/test-accounts/{hubId}/installs',
    ]);
    expect(readers.sort()).toEqual([...expectedReaders, expect.stringMatching(/^SecretsProvisionerRole/)].sort());
  });

  it('updates the signing function after every other route function, so a rotated key is signed with only once all verifiers list it', () => {
    const signers = routes.filter((route) => route.secrets?.includes('signingKey'));
    const verifierIds = routes.filter((route) => !signers.includes(route)).map((route) => functionServing(route).id);

    const dependsOn = (id: string) => (apiResources[id] as CfnResource & { DependsOn?: string[] }).DependsOn ?? [];

    expect(signers.length).toBeGreaterThan(0);
    for (const signer of signers) {
      const signerId = functionServing(signer).id;
      const signerStack = nestedStackOf.get(signerId) ?? '';
      for (const verifierId of verifierIds) {
        // In the same nested stack the function waits; across stacks the signer's stack waits for the verifier's.
        const verifierStack = nestedStackOf.get(verifierId) ?? '';
        const waitsFor =
          verifierStack === signerStack
            ? dependsOn(signerId).includes(verifierId)
            : dependsOn(signerStack).includes(verifierStack);
        expect([verifierId, waitsFor]).toEqual([verifierId, true]);
      }
    }
  });

  it('puts no secret value in the template: Secrets Manager and the custom resource make them', () => {
    const secrets = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::SecretsManager::Secret');

    // Signing key, session secret, and the webhook seal key (generated by Secrets Manager itself).
    expect(secrets).toHaveLength(3);
    for (const secret of secrets) expect(secret.Properties.SecretString).toBeUndefined();
    expect(JSON.stringify(apiResources)).not.toMatch(/privateKey"\s*:|PRIVATE KEY|MC4CAQAwBQYDK2Vw/);
  });
});

describe('API stack: operations', () => {
  it('serves one stage named by the CDK context on each HTTP API, with access logs and default throttling', () => {
    const stages = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Stage');

    expect(new Set(stages.map((stage) => refOf(stage.Properties.ApiId))).size).toBe(httpApiIds().length);
    expect(stages).toHaveLength(httpApiIds().length);
    for (const stage of stages)
      expect(stage.Properties).toMatchObject({
        StageName: stageName,
        AutoDeploy: true,
        AccessLogSettings: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.requestId') },
        DefaultRouteSettings: {
          ThrottlingRateLimit: context.throttleRateLimit,
          ThrottlingBurstLimit: context.throttleBurstLimit,
        },
      });
  });

  it('throttles the login and token routes on their own (on every spelling), apart from the stage default shared by every other route', () => {
    const stages = Object.entries(apiResources).filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Stage');
    /** The stage of the API whose route a key is. */
    const stageOf = (routeKey: string) => {
      const apiRoute = Object.values(apiResources).find(
        (resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === routeKey,
      );
      const stage = stages.find(
        ([, resource]) => refOf(resource.Properties.ApiId) === refOf(apiRoute?.Properties.ApiId),
      );
      if (!stage) throw new Error(`no stage serves ${routeKey}`);
      return stage;
    };
    // Each stage names only its own API's routes.
    const settings = Object.fromEntries(
      stages.flatMap(([id, resource]) =>
        Object.entries(
          (resource.Properties.RouteSettings ?? {}) as Record<
            string,
            { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
          >,
        ).map(([routeKey, setting]) => {
          expect([routeKey, stageOf(routeKey)[0]]).toEqual([routeKey, id]);
          return [routeKey, setting];
        }),
      ),
    );
    const throttled = spellings.filter((route) => route.throttle !== undefined);
    const expected = Object.fromEntries(
      throttled.map((route) => [
        routeKeyOf(route),
        { ThrottlingRateLimit: route.throttle?.rateLimit, ThrottlingBurstLimit: route.throttle?.burstLimit },
      ]),
    );

    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining([
        'POST /oauth/authorize/login',
        'POST /oauth/v1/token',
        'POST /oauth/2026-03/token',
        'POST /oauth/v3/token',
      ]),
    );
    expect(settings).toEqual(expected);
    for (const route of throttled) expect(route.throttle?.rateLimit).toBeLessThan(Number(context.throttleRateLimit));
    // The stage may name a route key only once the nested stack that creates the route exists.
    for (const routeKey of Object.keys(expected)) {
      const route = spellings.find((candidate) => routeKeyOf(candidate) === routeKey);
      if (!route) throw new Error(`no route ${routeKey}`);
      expect((stageOf(routeKey)[1] as CfnResource & { DependsOn?: string[] }).DependsOn).toContain(
        nestedStackOf.get(functionServing(route).id),
      );
    }
  });

  it("reserves concurrency for every route function as the context says, within the account's limit", () => {
    const expected = reservedConcurrencyPerFunction(
      context.reservedConcurrency as ReservedConcurrencySetting,
      Number(context.accountConcurrency),
      routes.length,
    );
    const reserved = spellings.map((route) => functionServing(route).resource.Properties.ReservedConcurrentExecutions);

    expect(expected).toBeGreaterThan(0);
    expect(new Set(reserved)).toEqual(new Set([expected]));
    expect((expected ?? 0) * routes.length).toBeLessThanOrEqual(Number(context.accountConcurrency) - 100);
  });

  it('logs the route key, never the raw path that can carry a token, on every stage', () => {
    const stages = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Stage');

    expect(stages.length).toBeGreaterThan(0);
    for (const stage of stages) {
      const format = String((stage.Properties.AccessLogSettings as { Format: string }).Format);
      expect(format).toContain('$context.routeKey');
      expect(format).not.toMatch(/\$context\.(path|rawPath)/);
    }
  });

  it('gives every function a log group with a retention', () => {
    const functions = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    const retainedGroups = new Set(
      Object.entries(apiResources)
        .filter(
          ([, resource]) =>
            resource.Type === 'AWS::Logs::LogGroup' && typeof resource.Properties.RetentionInDays === 'number',
        )
        .map(([id]) => id),
    );

    for (const fn of functions) {
      expect(retainedGroups.has(refOf((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup) ?? '')).toBe(
        true,
      );
    }
  });

  it('removes its log groups with the stack: retention, not the stack, bounds what is kept', () => {
    const logGroups = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::Logs::LogGroup');

    // Routes, the secrets provisioner, the access logs, the two webhook functions, the association limit tracker and the job runner.
    expect(logGroups.length).toBe(routes.length + 6);
    for (const logGroup of logGroups) expect(logGroup.DeletionPolicy).toBe('Delete');
  });

  it('alarms on throttles of every route function', () => {
    const throttleAlarms = Object.values(apiResources).filter(
      (resource) => resource.Type === 'AWS::CloudWatch::Alarm' && resource.Properties.MetricName === 'Throttles',
    );
    const watched = new Set(
      throttleAlarms.map((alarm) => refOf((alarm.Properties.Dimensions as { Value: unknown }[])[0]?.Value)),
    );

    for (const route of spellings) expect(watched.has(functionServing(route).id)).toBe(true);
  });

  it('alarms on the 5xx rate of the API', () => {
    api.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: Match.stringLikeRegexp('errors / requests') }),
        Match.objectLike({
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({ MetricName: '5xx', Namespace: 'AWS/ApiGateway' }),
          }),
        }),
      ]),
    });
  });

  it('outputs the API URL and the table name', () => {
    api.hasOutput('ApiUrl', { Value: Match.anyValue() });
    api.hasOutput('TableName', { Value: Match.anyValue() });
    data.hasOutput('TableName', { Value: Match.anyValue() });
  });
});

describe('data stack', () => {
  it('builds the table from shared/db/table.ts: keys, TTL, on demand, and no index nothing writes', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: Match.absent(),
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    });
  });

  it('protects the table: point-in-time recovery, deletion protection, retained on delete and replace', () => {
    data.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('has the webhooks journal files bucket: private, encrypted, TLS only, files expiring after the three days of the journal', () => {
    data.resourceCountIs('AWS::S3::Bucket', 1);
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: {
        Rules: [Match.objectLike({ ExpirationInDays: journalRetentionDays, Status: 'Enabled' })],
      },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      }),
    });
    data.hasOutput('JournalFilesBucket', { Value: Match.anyValue() });
  });
});

describe('synthesis', () => {
  it('bundles every function with the local esbuild, printing no warning and never turning to Docker', () => {
    expect(synthOutput.match(/^Bundling asset /gm)).toHaveLength(routes.length + 5);
    expect(synthOutput).not.toMatch(/warn|docker/i);
  });
});

describe('a row added to the route table', () => {
  it('gets its own function, route, role and alarm in the nested stack of its folder, without any change in lib/', () => {
    const added: Route = {
      name: 'findCompaniesByExample',
      method: 'POST',
      path: '/crm/v3/objects/{objectType}/by-example',
      entry: 'functions/objects/list-objects.ts',
      scopes: ['crm.objects.companies.read'],
      body: 'json',
      table: 'read',
      partitions: ['hubs'],
    };
    const { api: stack } = unbundledPlatform({ routes: [...routes, added] });
    const objects = stack.routeGroups.get('objects');
    if (!(objects instanceof NestedStack)) throw new Error('functions/objects/ has no nested stack');
    const template = Template.fromStack(objects);

    expect(stack.functions.get('findCompaniesByExample')?.node.scope).toBe(objects);
    template.resourceCountIs(
      'AWS::Lambda::Function',
      routes.filter((route) => route.entry.startsWith('functions/objects/')).length + 1,
    );
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'POST /crm/v3/objects/{objectType}/by-example',
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^findCompaniesByExample: POST '),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('findCompaniesByExample'),
    });
  });
});

const resourcesOf = (type: string) => Object.entries(apiResources).filter(([, resource]) => resource.Type === type);
/** The description of the function an event-source mapping feeds. */
const functionDescriptionOf = (mapping: Record<string, unknown>): string =>
  String(apiResources[refOf(mapping.FunctionName) ?? '']?.Properties.Description ?? '');

describe('the job pipeline', () => {
  const jobRows = routes.filter((route) => route.startsJobs);
  const queueId = (): string => {
    const entry = resourcesOf('AWS::SQS::Queue').find(
      ([id, resource]) => id.startsWith('Jobs') && resource.Properties.RedrivePolicy !== undefined,
    );
    if (!entry) throw new Error('no job queue');
    return entry[0];
  };

  it('has a job queue with a dead-letter queue after 5 failed runs and an alarm on its first message', () => {
    const queues = resourcesOf('AWS::SQS::Queue').filter(([id]) => id.startsWith('Jobs'));

    expect(queues).toHaveLength(2);
    expect(resourcesOf('AWS::SQS::Queue').find(([id]) => id === queueId())?.[1].Properties.RedrivePolicy).toMatchObject(
      {
        maxReceiveCount: 5,
      },
    );
    expect(
      resourcesOf('AWS::CloudWatch::Alarm').some(([, alarm]) =>
        String(alarm.Properties.AlarmDescription).startsWith('Job chunks reached the dead-letter queue'),
      ),
    ).toBe(true);
  });

  it('feeds the queue one chunk at a time to the job runner, which reaches only hub partitions of the table', () => {
    const runner = resourcesOf('AWS::Lambda::Function').find(([, resource]) =>
      String(resource.Properties.Description).startsWith('jobs:'),
    );
    if (!runner) throw new Error('no job runner');
    const mapping = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, resource]) => resource.Properties)
      .find((properties) => functionDescriptionOf(properties).startsWith('jobs:'));

    expect(mapping).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(JSON.stringify(mapping?.EventSourceArn)).toContain(queueId());
    const dynamo = statementsOf(runner[1]).filter((statement) =>
      actionsOf([statement]).some((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamo.length).toBeGreaterThan(0);
    for (const statement of dynamo) expect(leadingKeysOf(statement)).toEqual([partitions.hubs]);
  });

  it('gives the rows that start jobs, and only those, the queue URL and SendMessage on the queue', () => {
    expect(jobRows.map((route) => route.name).sort()).toEqual(['createList', 'restoreList', 'updateListFilters']);
    for (const route of routes) {
      const served = functionServing(route).resource;
      const variables = (served.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      // Route functions sit in nested stacks: the job queue's ARN reaches them as a parameter named after it.
      const sends = statementsOf(served).some(
        (statement) =>
          actionsOf([statement]).includes('sqs:SendMessage') &&
          JSON.stringify(statement.Resource).includes('JobsChunks'),
      );
      expect([route.name, 'JOB_QUEUE_URL' in variables, sends]).toEqual([
        route.name,
        route.startsJobs === true,
        route.startsJobs === true,
      ]);
    }
  });
});

describe('the webhook pipeline', () => {
  it('turns the table stream on, with the item before and after every change', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('feeds only company items of the stream to the event function, and the queue to the delivery function with partial batch failures', () => {
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, resource]) => resource.Properties)
      .filter((mapping) => functionDescriptionOf(mapping).startsWith('webhooks:'));

    expect(mappings).toHaveLength(2);
    expect(JSON.stringify(mappings)).toContain('COMPANY#');
    expect(
      mappings.some((mapping) => JSON.stringify(mapping.FunctionResponseTypes) === '["ReportBatchItemFailures"]'),
    ).toBe(true);
  });

  it("feeds the record items of every stored type and every custom type, active and archived, and the lists' reverse membership items to the event function through one filter", () => {
    const streamMapping = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, resource]) => resource.Properties)
      .find(
        (mapping) => mapping.FilterCriteria !== undefined && functionDescriptionOf(mapping).startsWith('webhooks:'),
      ) as {
      FilterCriteria: { Filters: { Pattern: string }[] };
    };
    const filters = streamMapping.FilterCriteria.Filters;

    expect(filters).toHaveLength(1);
    // Lambda's limit for one filter pattern is 4,096 characters.
    expect((filters[0]?.Pattern ?? '').length).toBeLessThan(4096);
    expect(JSON.parse(filters[0]?.Pattern ?? '{}')).toEqual({
      dynamodb: {
        Keys: {
          sk: {
            S: storedKeyPrefixes
              .flatMap((prefix) => [{ prefix: `${prefix}#` }, { prefix: `ARCHIVED_${prefix}#` }])
              .concat([{ prefix: 'CUSTOM' }, { prefix: 'ARCHIVED_CUSTOM' }, { prefix: 'LIST_OF#' }]),
          },
        },
      },
    });
  });

  it('has a dead-letter queue for the delivery queue and an alarm on its first message', () => {
    const queues = resourcesOf('AWS::SQS::Queue')
      .filter(([id]) => id.startsWith('Webhooks'))
      .map(([id, resource]) => ({ id, properties: resource.Properties }));
    const main = queues.find((queue) => queue.properties.RedrivePolicy !== undefined);

    expect(queues).toHaveLength(2);
    expect(main?.properties.RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
    expect(
      resourcesOf('AWS::CloudWatch::Alarm').some(([, alarm]) =>
        String(alarm.Properties.AlarmDescription).startsWith('Webhook batches reached the dead-letter queue'),
      ),
    ).toBe(true);
  });

  it("lets the webhook functions reach only the hub and app partitions, test accounts' pending batches and the journal's entries (they write only in app partitions, the pending batches and the journal's entries)", () => {
    const webhookFunctions = resourcesOf('AWS::Lambda::Function').filter(([, resource]) =>
      String(resource.Properties.Description).startsWith('webhooks:'),
    );

    expect(webhookFunctions).toHaveLength(2);
    for (const [, resource] of webhookFunctions) {
      const dynamo = statementsOf(resource).filter((statement) =>
        actionsOf([statement]).some((action) => action.startsWith('dynamodb:') && !action.includes('Stream')),
      );
      expect(dynamo.length).toBeGreaterThan(0);
      for (const statement of dynamo) {
        const patterns = leadingKeysOf(statement) ?? [];
        expect(
          patterns.every((pattern) =>
            [partitions.hubs, partitions.apps, partitions.webhookPending, partitions.journalEntries].includes(
              pattern as never,
            ),
          ),
        ).toBe(true);
        if (actionsOf([statement]).some((action) => writeActions.includes(action)))
          expect([[partitions.apps], [partitions.webhookPending], [partitions.journalEntries]]).toContainEqual(
            patterns,
          );
      }
    }
  });
});

describe('the association limit tracker and list sync', () => {
  const tracker = () => {
    const found = resourcesOf('AWS::Lambda::Function').filter(([, resource]) =>
      String(resource.Properties.Description).startsWith('limits tracking and list sync:'),
    );
    expect(found).toHaveLength(1);
    return found[0] as (typeof found)[number];
  };

  it("is the stream's second consumer, fed the active record items of every stored type and every custom type, and the list memberships", () => {
    const [id] = tracker();
    const mappings = resourcesOf('AWS::Lambda::EventSourceMapping')
      .map(([, resource]) => resource.Properties)
      .filter((mapping) => JSON.stringify(mapping.EventSourceArn).includes('StreamArn'));
    const own = mappings.find((mapping) => refOf(mapping.FunctionName) === id) as {
      FilterCriteria: { Filters: { Pattern: string }[] };
    };

    expect(mappings).toHaveLength(2);
    expect(JSON.parse(own.FilterCriteria.Filters[0]?.Pattern ?? '{}')).toEqual({
      dynamodb: {
        Keys: {
          sk: {
            S: [
              ...storedKeyPrefixes.map((prefix) => ({ prefix: `${prefix}#` })),
              { prefix: 'CUSTOM' },
              { prefix: recordListsItemPrefix },
            ],
          },
        },
      },
    });
  });

  it("reads and writes only the association limit partition and the accounts' partitions", () => {
    const [, resource] = tracker();
    // Every statement on the table's items (the stream's own actions aside).
    const itemActions = [...tableReadActions, ...tableWriteActions, 'dynamodb:Scan'];
    const dynamo = statementsOf(resource).filter((statement) =>
      actionsOf([statement]).some((action) => itemActions.includes(action)),
    );

    expect(dynamo.length).toBeGreaterThan(0);
    const granted = new Set<string>();
    for (const statement of dynamo) {
      const patterns = leadingKeysOf(statement) ?? [];
      expect(patterns.length).toBeGreaterThan(0);
      for (const pattern of patterns) {
        expect([partitions.associationLimits, partitions.hubs]).toContain(pattern);
        granted.add(pattern);
      }
      expect(actionsOf([statement])).not.toContain('dynamodb:Scan');
    }
    expect([...granted].sort()).toEqual([partitions.associationLimits, partitions.hubs].sort());
  });
});

describe('cdk-nag AwsSolutions', () => {
  /** The same stacks in-process (bundling skipped: nag reads the construct tree, not the bundles). */
  function unbundledApp(): App {
    const { app } = unbundledPlatform({ alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:alarms' });
    app.synth();
    return app;
  }

  let app: App;
  beforeAll(() => {
    app = unbundledApp();
  }, synthesisTimeoutMs);

  it('reports no unacknowledged finding', () => {
    const result = new AwsSolutionsChecks().validateScope(app);

    expect(
      result.violations.map(
        (violation) =>
          `${violation.ruleName} ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
      ),
    ).toEqual([]);
  });

  it('says why for every acknowledged rule', () => {
    const acknowledgments = app.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, unknown>));

    expect(acknowledgments.length).toBeGreaterThan(0);
    for (const [rule, detail] of acknowledgments) {
      expect([rule, JSON.stringify(detail)]).toEqual([rule, expect.stringMatching(/.{40,}/)]);
    }
  });
});
