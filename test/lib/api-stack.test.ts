import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isRateLimitedRead, tableReadActions, tableWriteActions } from '../../lib/api-stack';
import { addPlatformStacks } from '../../lib/platform-stacks';
import { tableDefinition } from '../../shared/db/table';
import type { Route } from '../../shared/route-types';
import { routes as routeTable } from '../../shared/routes';
import { synthesisTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';

/** Widened to the row type: rows differ in their optional fields. */
const routes: readonly Route[] = routeTable;

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
  Condition?: unknown;
}

let api: Template;
let data: Template;
let apiResources: Record<string, CfnResource>;
let stageName: string;
let synthOutput: string;

beforeAll(async () => {
  const platform = await synthesizedPlatform();
  api = Template.fromJSON(platform.template('api'));
  data = Template.fromJSON(platform.template('data'));
  apiResources = (platform.template('api') as { Resources: Record<string, CfnResource> }).Resources;
  stageName = String(platform.context.stage);
  synthOutput = platform.output;
}, synthesisTimeoutMs);

function routeKeyOf(route: Route): string {
  return route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
}

function refOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { Ref?: unknown; 'Fn::GetAtt'?: unknown };
  if (typeof record.Ref === 'string') return record.Ref;
  const getAtt = record['Fn::GetAtt'];
  return Array.isArray(getAtt) && typeof getAtt[0] === 'string' ? getAtt[0] : undefined;
}

/** API route -> integration -> function: the function that really serves a route of the table. */
function functionServing(route: Route): { id: string; resource: CfnResource } {
  const apiRoutes = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === routeKeyOf(route));
  expect(apiRoutes).toHaveLength(1);
  const target = JSON.stringify(apiRoutes[0]?.Properties.Target);
  const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(target)?.[1] ?? '';
  const integration = apiResources[integrationId];
  expect(integration?.Type).toBe('AWS::ApiGatewayV2::Integration');
  expect(integration?.Properties.PayloadFormatVersion).toBe('2.0');
  const functionId = refOf(integration?.Properties.IntegrationUri) ?? '';
  const resource = apiResources[functionId];
  if (!resource || resource.Type !== 'AWS::Lambda::Function') throw new Error(`route ${route.name} is not served by a function`);
  return { id: functionId, resource };
}

/** Every statement of every policy attached to the role of the function. */
function statementsOf(functionResource: CfnResource): Statement[] {
  const roleId = refOf(functionResource.Properties.Role);
  return Object.values(apiResources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && (resource.Properties.Roles as unknown[]).some((role) => refOf(role) === roleId))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
}

function secretIdOf(descriptionStart: string): string {
  const id = Object.keys(apiResources).find((key) => apiResources[key]?.Type === 'AWS::SecretsManager::Secret'
    && String(apiResources[key]?.Properties.Description).startsWith(descriptionStart));
  if (!id) throw new Error(`no secret described as ${descriptionStart}`);
  return id;
}

const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:TransactWriteItems'];

describe('API stack: one function and one route per row of the route table', () => {
  it.each(routes.map((route) => [route.name, route] as const))('serves %s with exactly one API route and its own function', (_name, route) => {
    const served = functionServing(route);

    expect(served.resource.Properties.Description).toContain(route.name);
  });

  it('has one function per route plus the secrets provisioner, and no function serves two routes', () => {
    const served = new Set(routes.map((route) => functionServing(route).id));

    expect(served.size).toBe(routes.length);
    api.resourceCountIs('AWS::Lambda::Function', routes.length + 1);
    api.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
  });

  it.each(routes.map((route) => [route.name, route] as const))('runs %s on nodejs22.x arm64 as an ES module bundle with the table, public keys and secure cookies', (_name, route) => {
    const { Properties } = functionServing(route).resource;
    const variables = (Properties.Environment as { Variables: Record<string, unknown> }).Variables;

    expect(Properties.Runtime).toBe('nodejs22.x');
    expect(Properties.Architectures).toEqual(['arm64']);
    expect(Properties.Handler).toBe('index.handler');
    expect(JSON.stringify(variables.TABLE_NAME)).toMatch(/Fn::ImportValue.*Table/);
    expect(refOf(variables.TOKEN_PUBLIC_KEYS)).toMatch(/^SecretsValues/);
    expect(variables.COOKIE_SECURE).toBe('true');
    expect(variables.LOG_LEVEL).toEqual(expect.any(String));
  });

  it.each(routes.map((route) => [route.name, route] as const))('gives %s the secret ARNs its row lists and no other', (_name, route) => {
    const variables = (functionServing(route).resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const secrets = route.secrets ?? [];

    expect(refOf(variables.SIGNING_KEY_SECRET_ARN)).toBe(secrets.includes('signingKey') ? secretIdOf('Ed25519') : undefined);
    expect(refOf(variables.SESSION_SECRET_ARN)).toBe(secrets.includes('sessionSecret') ? secretIdOf('HMAC') : undefined);
  });
});

describe('API stack: least privilege', () => {
  it('grants no wildcard action in any policy', () => {
    const actions = Object.values(apiResources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy')
      .flatMap((policy) => actionsOf((policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement));

    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it('attaches no managed policy to any role', () => {
    const roles = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::IAM::Role');

    expect(roles.length).toBeGreaterThan(routes.length);
    expect(roles.filter((role) => role.Properties.ManagedPolicyArns !== undefined)).toEqual([]);
  });

  it.each(routes.map((route) => [route.name, route] as const))('grants %s exactly the table access of its row', (_name, route) => {
    const dynamoActions = actionsOf(statementsOf(functionServing(route).resource)).filter((action) => action.startsWith('dynamodb:'));

    if (route.table === 'none') expect(dynamoActions).toEqual([]);
    if (route.table === 'read') {
      expect(dynamoActions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']));
      const writes = statementsOf(functionServing(route).resource).filter((statement) => actionsOf([statement]).some((action) => writeActions.includes(action)));
      // A token-authenticated read may only count its call: UpdateItem on the limiter's LIMIT# partitions.
      expect(writes.map((statement) => ({ actions: actionsOf([statement]), condition: statement.Condition })))
        .toEqual(isRateLimitedRead(route) ? [{ actions: ['dynamodb:UpdateItem'], condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LIMIT#*'] } } }] : []);
    }
    if (route.table === 'readwrite') expect(dynamoActions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
  });

  it.each(routes.filter((route) => route.table !== 'none').map((route) => [route.name, route] as const))('lets %s query the table\'s indexes by name', (_name, route) => {
    const queryStatement = statementsOf(functionServing(route).resource).find((statement) => actionsOf([statement]).includes('dynamodb:Query'));
    const resources = JSON.stringify(queryStatement?.Resource);

    for (const index of tableDefinition.globalSecondaryIndexes) expect(resources).toContain(`/index/${index.indexName}`);
  });

  it('grants an action for every DynamoDB command the repositories send', () => {
    // What IAM checks for each lib-dynamodb / client-dynamodb command (transactions are checked per item).
    const actionsOfCommand: Record<string, string[]> = {
      Get: ['dynamodb:GetItem'], BatchGet: ['dynamodb:BatchGetItem'], Query: ['dynamodb:Query'], TransactGet: ['dynamodb:GetItem'],
      Put: ['dynamodb:PutItem'], Update: ['dynamodb:UpdateItem'], Delete: ['dynamodb:DeleteItem'], BatchWrite: ['dynamodb:BatchWriteItem'],
      TransactWrite: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
      GetItem: ['dynamodb:GetItem'], PutItem: ['dynamodb:PutItem'], UpdateItem: ['dynamodb:UpdateItem'], DeleteItem: ['dynamodb:DeleteItem'],
      BatchGetItem: ['dynamodb:BatchGetItem'], BatchWriteItem: ['dynamodb:BatchWriteItem'],
      TransactGetItems: ['dynamodb:GetItem'], TransactWriteItems: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
    };
    const dbDirectory = path.join(__dirname, '..', '..', 'shared', 'db');
    const commands = new Set(readdirSync(dbDirectory).filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(path.join(dbDirectory, file), 'utf8').matchAll(/new (\w+)Command\(/g)].map((match) => match[1] ?? '')));
    const granted = new Set([...tableReadActions, ...tableWriteActions]);

    expect(commands.size).toBeGreaterThan(0);
    for (const command of commands) {
      // An unknown command (Scan, ExecuteStatement, ...) must be a deliberate addition to the grants.
      expect([command, actionsOfCommand[command]?.every((action) => granted.has(action)) ?? false]).toEqual([command, true]);
    }
  });

  it('lets only the token route (and the provisioner that writes it) read the signing key', () => {
    const signingKeyId = secretIdOf('Ed25519');
    const readers = Object.entries(apiResources)
      .filter(([, resource]) => resource.Type === 'AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement
        .some((statement) => actionsOf([statement]).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource).includes(`"${signingKeyId}"`)))
      .flatMap(([, policy]) => (policy.Properties.Roles as unknown[]).map((role) => refOf(role)));
    const expectedReaders = routes.filter((route) => route.secrets?.includes('signingKey'))
      .map((route) => refOf(functionServing(route).resource.Properties.Role));

    expect(expectedReaders).toHaveLength(1);
    expect(readers.sort()).toEqual([...expectedReaders, expect.stringMatching(/^SecretsProvisionerRole/)].sort());
  });

  it('updates the signing function after every other route function, so a rotated key is signed with only once all verifiers list it', () => {
    const signers = routes.filter((route) => route.secrets?.includes('signingKey'));
    const verifierIds = routes.filter((route) => !signers.includes(route)).map((route) => functionServing(route).id);

    expect(signers.length).toBeGreaterThan(0);
    for (const signer of signers) {
      const dependsOn = (apiResources[functionServing(signer).id] as CfnResource & { DependsOn?: string[] }).DependsOn ?? [];
      expect(dependsOn).toEqual(expect.arrayContaining(verifierIds));
    }
  });

  it('puts no secret value in the template: Secrets Manager and the custom resource make them', () => {
    const secrets = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::SecretsManager::Secret');

    expect(secrets).toHaveLength(2);
    for (const secret of secrets) expect(secret.Properties.SecretString).toBeUndefined();
    expect(JSON.stringify(apiResources)).not.toMatch(/privateKey"\s*:|PRIVATE KEY|MC4CAQAwBQYDK2Vw/);
  });
});

describe('API stack: operations', () => {
  it('serves one stage named by the CDK context, with access logs and default throttling', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: stageName,
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it('logs the route key, never the raw path that can carry a token', () => {
    const stage = Object.values(apiResources).find((resource) => resource.Type === 'AWS::ApiGatewayV2::Stage');
    const format = String((stage?.Properties.AccessLogSettings as { Format: string }).Format);

    expect(format).toContain('$context.routeKey');
    expect(format).not.toMatch(/\$context\.(path|rawPath)/);
  });

  it('gives every function a log group with a retention', () => {
    const functions = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    const retainedGroups = new Set(Object.entries(apiResources)
      .filter(([, resource]) => resource.Type === 'AWS::Logs::LogGroup' && typeof resource.Properties.RetentionInDays === 'number')
      .map(([id]) => id));

    for (const fn of functions) {
      expect(retainedGroups.has(refOf((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup) ?? '')).toBe(true);
    }
  });

  it('removes its log groups with the stack: retention, not the stack, bounds what is kept', () => {
    const logGroups = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::Logs::LogGroup');

    expect(logGroups.length).toBe(routes.length + 2);
    for (const logGroup of logGroups) expect(logGroup.DeletionPolicy).toBe('Delete');
  });

  it('alarms on throttles of every route function', () => {
    const throttleAlarms = Object.values(apiResources).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm' && resource.Properties.MetricName === 'Throttles');
    const watched = new Set(throttleAlarms.map((alarm) => refOf((alarm.Properties.Dimensions as { Value: unknown }[])[0]?.Value)));

    for (const route of routes) expect(watched.has(functionServing(route).id)).toBe(true);
  });

  it('alarms on the 5xx rate of the API', () => {
    api.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: Match.stringLikeRegexp('errors / requests') }),
        Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: '5xx', Namespace: 'AWS/ApiGateway' }) }) }),
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
  it('builds the table from shared/db/table.ts: keys, indexes, TTL, on demand', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => Match.objectLike({
        IndexName: index.indexName,
        KeySchema: [{ AttributeName: index.partitionKey, KeyType: 'HASH' }, { AttributeName: index.sortKey, KeyType: 'RANGE' }],
      })),
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    });
  });

  it('protects the table: point-in-time recovery, deletion protection, retained on delete and replace', () => {
    data.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });
});

describe('synthesis', () => {
  it('bundles every function with the local esbuild, printing no warning and never turning to Docker', () => {
    // npx (which CDK runs esbuild through) complains about the machine's own npm configuration; that is not the project's.
    const output = synthOutput.split('\n').filter((line) => !/^npm warn Unknown (env|user) config/.test(line)).join('\n');

    expect(output).toMatch(/Bundling asset/);
    expect(output).not.toMatch(/warn|docker/i);
  });
});

describe('stack limits', () => {
  it('stays within CloudFormation\'s 500 resources per stack (about 8 per route)', () => {
    const perRoute = Object.keys(apiResources).length / routes.length;

    expect(Object.keys(apiResources).length).toBeLessThan(500);
    expect(perRoute).toBeLessThan(10);
  });
});

describe('a row added to the route table', () => {
  it('gets its own function, route, role and alarm without any change in lib/', () => {
    const added: Route = {
      name: 'updateCompanyExample', method: 'PATCH', path: '/crm/v3/objects/companies/{companyId}',
      entry: 'functions/not-found.ts', scopes: ['crm.objects.companies.write'], body: 'json', table: 'read',
    };
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const { api: stack } = addPlatformStacks(app, {
      routes: [...routes, added], stageName: 'prod', logRetention: 30 as RetentionDays, logLevel: 'INFO', signingKeyGeneration: 1,
      throttle: { rateLimit: 100, burstLimit: 200 },
    });
    const template = Template.fromStack(stack);

    template.resourceCountIs('AWS::Lambda::Function', routes.length + 2);
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'PATCH /crm/v3/objects/companies/{companyId}' });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^updateCompanyExample: PATCH ') });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmDescription: Match.stringLikeRegexp('updateCompanyExample') });
  });
});

describe('cdk-nag AwsSolutions', () => {
  /** The same stacks in-process (bundling skipped: nag reads the construct tree, not the bundles). */
  function unbundledApp(): App {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    addPlatformStacks(app, {
      routes, stageName: 'prod', logRetention: 30 as RetentionDays, logLevel: 'INFO', signingKeyGeneration: 1,
      throttle: { rateLimit: 100, burstLimit: 200 }, alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:alarms',
    });
    app.synth();
    return app;
  }

  let app: App;
  beforeAll(() => {
    app = unbundledApp();
  }, synthesisTimeoutMs);

  it('reports no unacknowledged finding', () => {
    const result = new AwsSolutionsChecks().validateScope(app);

    expect(result.violations.map((violation) => `${violation.ruleName} ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`)).toEqual([]);
  });

  it('says why for every acknowledged rule', () => {
    const acknowledgments = app.node.findAll().flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, unknown>));

    expect(acknowledgments.length).toBeGreaterThan(0);
    for (const [rule, detail] of acknowledgments) {
      expect([rule, JSON.stringify(detail)]).toEqual([rule, expect.stringMatching(/.{40,}/)]);
    }
  });
});
