import { Duration, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { partitions } from '../shared/db/keys';
import { isRateLimited, takesAccessTokens, type Route } from '../shared/base/route-types';
import { BundledFunction } from './bundled-function';
import type { PlatformSecrets } from './platform-secrets';

/** Exactly the calls the repositories make; Scan is left out on purpose: nothing may scan the single table. */
export const tableReadActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** Transactions need no action of their own: they are authorized per item as these. */
export const tableWriteActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

export interface RouteFunctionsProps {
  /** The routes of one group (lib/route-groups.ts). */
  routes: readonly Route[];
  httpApi: IHttpApi;
  table: ITable;
  secrets: PlatformSecrets;
  logRetention: RetentionDays;
  logLevel: string;
  /** Where clients reach the API: absolute links are built from it, never from the client's Host header. */
  publicBaseUrl: string;
  /** Per route function; undefined reserves none. */
  reservedConcurrency?: number;
  declareSamLocalVariables?: boolean;
}

/** `issueToken` -> `IssueToken`, the construct id of a route's resources. */
function constructIdOf(route: Route): string {
  return route.name.charAt(0).toUpperCase() + route.name.slice(1);
}

/** The table partitions of a row, as LeadingKeys patterns. */
export function partitionPatternsOf(route: Route): string[] {
  if ((route.table === 'none') !== (route.partitions.length === 0)) {
    throw new Error(`route ${route.name}: table access '${route.table}' but ${route.partitions.length} partitions`);
  }
  return route.partitions.map((name) => {
    const pattern = (partitions as Readonly<Record<string, string>>)[name];
    if (!pattern) throw new Error(`route ${route.name}: no partition ${name} in shared/db/keys.ts`);
    return pattern;
  });
}

/**
 * Read: get, batch get and query; readwrite adds item writes. Either only on items whose partition
 * key matches the route's partitions (dynamodb:LeadingKeys; IAM checks every key of a batch or
 * transaction), so the public token-metadata functions, say, cannot read a user's password hash.
 */
function tableStatements(table: ITable, route: Route): PolicyStatement[] {
  if (route.table === 'none') return [];
  return [new PolicyStatement({
    actions: route.table === 'readwrite' ? [...tableReadActions, ...tableWriteActions] : tableReadActions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitionPatternsOf(route) } },
  }), ...(isRateLimited(route) ? [rateLimiterStatement(table)] : []), ...(takesAccessTokens(route) ? [installStateStatement(table)] : [])];
}

/** A route that takes access tokens reads the install state of each token's install (the auth step's check), and nothing more there. */
function installStateStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:GetItem'], resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.installStates] } },
  });
}

/** A route whose calls are counted (shared/limits/rate-limits.ts) may UpdateItem the limiter's items, and nothing more there. */
function rateLimiterStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'], resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.rateLimits] } },
  });
}

/**
 * The route functions of one group (lib/route-groups.ts), in a nested stack of their own or, for
 * sam local, in the parent: per row, a bundled function with only the table partitions and
 * secrets its row names, its HTTP API route and integration, and a throttle alarm. The HTTP API
 * itself, its stage and the secrets live in the parent stack.
 */
export function addRouteFunctions(scope: Construct, props: RouteFunctionsProps): Map<string, BundledFunction> {
  const functions = new Map<string, BundledFunction>();
  for (const route of props.routes) {
    const id = constructIdOf(route);
    const fn = new BundledFunction(scope, id, {
      entry: route.entry,
      routeName: route.name,
      description: route.path === '$default' ? `${route.name}: every unmatched request` : `${route.name}: ${route.method} ${route.path}`,
      logRetention: props.logRetention,
      ownLogGroup: !props.declareSamLocalVariables,
      reservedConcurrency: props.reservedConcurrency,
      statements: [...tableStatements(props.table, route), ...(route.secrets ?? []).map((secret) => props.secrets.readStatement(secret))],
      environment: {
        TABLE_NAME: props.table.tableName,
        TOKEN_PUBLIC_KEYS: props.secrets.publicKeysJson,
        COOKIE_SECURE: 'true',
        LOG_LEVEL: props.logLevel,
        // Declared empty for sam local, whose env-vars file (bin/sam-env-vars.ts) gives its own address.
        PUBLIC_BASE_URL: props.declareSamLocalVariables ? '' : props.publicBaseUrl,
        ...(route.secrets?.includes('signingKey') ? { SIGNING_KEY_SECRET_ARN: props.secrets.signingKey.secretArn } : {}),
        ...(route.secrets?.includes('sessionSecret') ? { SESSION_SECRET_ARN: props.secrets.sessionSecret.secretArn } : {}),
        ...(props.declareSamLocalVariables ? { DYNAMODB_ENDPOINT: '', ...(route.secrets?.length ? { SECRETS_JSON: '' } : {}) } : {}),
      },
    });
    const httpRoute = new HttpRoute(scope, `${id}Route`, {
      httpApi: props.httpApi,
      routeKey: route.path === '$default' ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
    });
    Validations.of(httpRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: route.scopes === 'public'
        ? 'Public by protocol: OAuth endpoints and install pages authenticate clients and users themselves.'
        : route.auth === 'developerKey'
          ? 'The function verifies the developer API key (?hapikey=) in-process (shared/http/auth.ts): one GetItem by the key\'s SHA-256 hash, constant-time compare, and the path\'s app must belong to the key\'s developer account.'
          : 'The function verifies the signed access token and its scopes in-process (shared/http/auth.ts; developerKeyOrToken routes also take the developer API key): no authorizer Lambda.',
    });
    // The samLocal template holds every route in one stack (under CloudFormation's 500 resources): alarms mean nothing to sam local.
    if (!props.declareSamLocalVariables) new Alarm(scope, `${id}Throttles`, {
      alarmDescription: `Lambda throttled ${route.name} requests (its reserved or the account's concurrency exhausted)`,
      metric: fn.function.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    functions.set(route.name, fn);
  }
  return functions;
}
