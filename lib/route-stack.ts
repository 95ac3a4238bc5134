import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type HttpRouteIntegrationBindOptions,
  type IHttpApi,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { partitions } from '../shared/db/keys';
import {
  functionTimeoutSecondsOf,
  isRateLimited,
  spellingsOf,
  takesAccessTokens,
  type Route,
} from '../shared/base/route-types';
import type { PlacedSpelling } from './api-shards';
import { BundledFunction } from './bundled-function';
import type { PlatformSecrets } from './platform-secrets';

/** Exactly the calls the repositories make; Scan is left out on purpose: nothing may scan the single table. */
export const tableReadActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** Transactions need no action of their own: they are authorized per item as these. */
export const tableWriteActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

/** The spellings of a row one HTTP API serves (lib/api-shards.ts), and the suffix of their construct ids there ('' on the root API). */
export interface RowPlacement {
  httpApi: IHttpApi;
  idSuffix: string;
  spellings: readonly PlacedSpelling[];
}

export interface RouteFunctionsProps {
  /** The routes of one group (lib/route-groups.ts). */
  routes: readonly Route[];
  /** Where each row's spellings are served, by row name: the root API first. */
  placements: ReadonlyMap<string, readonly RowPlacement[]>;
  table: ITable;
  secrets: PlatformSecrets;
  logRetention: RetentionDays;
  logLevel: string;
  /** Where clients reach the API: absolute links are built from it, never from the client's Host header. */
  publicBaseUrl: string;
  /** Per route function; undefined reserves none. */
  reservedConcurrency?: number;
  declareSamLocalVariables?: boolean;
  /** The test-account controls are deployed: functions taking access tokens may read and count injected faults. */
  sandboxControls?: boolean;
  /** The webhook queues and seal key, for rows that deliver webhook batches themselves (`deliversWebhooks`). */
  webhookDelivery?: { environment: Record<string, string>; statements: PolicyStatement[] };
  /** The job queue, for rows that start jobs (`startsJobs`). */
  jobs?: { environment: Record<string, string>; statements: PolicyStatement[] };
}

/** `issueToken` -> `IssueToken`, the construct id of a route's (or an alias's) resources. */
function constructIdOf(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
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
 * One pattern of API Gateway resource paths that covers every spelling of a row: the path itself
 * for a row without aliases; else the segments all spellings start and end with, and a `*` segment
 * between them (`/oauth/2026-03/token` and `/oauth/v3/token` give `/oauth/`, `*`, `/token`).
 */
export function sourcePathPatternOf(paths: readonly string[]): string {
  const [first, ...others] = paths.map((spelling) => spelling.split('/'));
  if (!first || others.length === 0) return paths[0] ?? '';
  const all = [first, ...others];
  // The `*` stands for at least one segment of each spelling, so prefix and suffix leave one of the shortest.
  const shared = Math.min(...all.map((segments) => segments.length)) - 1;
  let prefix = 0;
  while (prefix < shared && all.every((segments) => segments[prefix] === first[prefix])) prefix += 1;
  let suffix = 0;
  while (
    suffix < shared - prefix &&
    all.every((segments) => segments[segments.length - 1 - suffix] === first[first.length - 1 - suffix])
  )
    suffix += 1;
  return [...first.slice(0, prefix), '*', ...first.slice(first.length - suffix)].join('/');
}

/**
 * The Lambda integration of a row with aliases: one integration for every spelling's route, and one
 * invoke permission whose source covers them all (sourcePathPatternOf), where HttpLambdaIntegration
 * adds a permission per route. So an alias costs its HTTP API route and nothing more.
 */
class SpellingsLambdaIntegration extends HttpLambdaIntegration {
  private permitted = false;

  constructor(
    private readonly integrationId: string,
    private readonly target: IFunction,
    private readonly sourcePath: string,
  ) {
    super(integrationId, target);
  }

  protected override completeBind(options: HttpRouteIntegrationBindOptions): void {
    if (this.permitted) return;
    this.permitted = true;
    this.target.addPermission(`${this.integrationId}-Permission`, {
      scope: options.scope,
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(options.route).formatArn({
        service: 'execute-api',
        resource: options.route.httpApi.apiId,
        resourceName: `*/*${this.sourcePath}`,
      }),
    });
  }
}

/**
 * Read: get, batch get and query; readwrite adds item writes. Either only on items whose partition
 * key matches the route's partitions (dynamodb:LeadingKeys; IAM checks every key of a batch or
 * transaction), so the public token-metadata functions, say, cannot read a user's password hash.
 */
function tableStatements(table: ITable, route: Route, sandboxControls: boolean): PolicyStatement[] {
  const tokens = takesAccessTokens(route);
  // The shared steps of a call with an access token (faults, the limiter, the install check) need their
  // grants whatever the row's own access, 'none' included.
  return [
    ...(sandboxControls && tokens ? [faultStatement(table)] : []),
    ...(route.table === 'none'
      ? []
      : [
          new PolicyStatement({
            actions: route.table === 'readwrite' ? [...tableReadActions, ...tableWriteActions] : tableReadActions,
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitionPatternsOf(route) } },
          }),
        ]),
    ...(isRateLimited(route) ? [rateLimiterStatement(table)] : []),
    ...(tokens ? [installStateStatement(table)] : []),
  ];
}

/** A route that takes access tokens reads the install state of each token's install (the auth step's check), and nothing more there. */
function installStateStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:GetItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.installStates] } },
  });
}

/**
 * With the test-account controls deployed, a call with a test account's token first looks for an
 * injected fault (shared/http/fault-injection.ts): a Query of the account's faults partition and the
 * UpdateItem that counts one down; its writes check the account's write hold there
 * (shared/db/write-guard.ts: a ConditionCheck in each transaction); nothing more there.
 */
function faultStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.faults] } },
  });
}

/** A route whose calls are counted (shared/limits/rate-limits.ts) may UpdateItem the limiter's items, and nothing more there. */
function rateLimiterStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.rateLimits] } },
  });
}

/**
 * The route functions of one group (lib/route-groups.ts), in a nested stack of their own or, for
 * sam local, in the parent: per row, a bundled function with only the table partitions and
 * secrets its row names, its integration, one HTTP API route per spelling (its path and each
 * alias), and a throttle alarm. The HTTP API itself, its stage and the secrets live in the parent stack.
 */
export function addRouteFunctions(scope: Construct, props: RouteFunctionsProps): Map<string, BundledFunction> {
  const functions = new Map<string, BundledFunction>();
  // The sam local template holds every function in one stack: one role for all keeps it under 500 resources.
  const sharedRole = props.declareSamLocalVariables
    ? ((scope.node.tryFindChild('SamLocalRole') as Role | undefined) ??
      new Role(scope, 'SamLocalRole', {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: 'Every function of the sam local template (never deployed; sam local uses your credentials)',
      }))
    : undefined;
  for (const route of props.routes) {
    const id = constructIdOf(route.name);
    const spellings = spellingsOf(route);
    const fn = new BundledFunction(scope, id, {
      entry: route.entry,
      route,
      sandboxControls: props.sandboxControls === true,
      timeout: Duration.seconds(functionTimeoutSecondsOf(route)),
      description:
        route.path === '$default'
          ? `${route.name}: every unmatched request`
          : functionDescriptionOf(
              route.name,
              route.method,
              spellings.map((spelling) => spelling.path),
            ),
      logRetention: props.logRetention,
      ownLogGroup: !props.declareSamLocalVariables,
      sharedRole,
      reservedConcurrency: props.reservedConcurrency,
      statements: [
        ...tableStatements(props.table, route, props.sandboxControls === true),
        ...(route.secrets ?? []).map((secret) => props.secrets.readStatement(secret)),
        ...(route.deliversWebhooks ? (props.webhookDelivery?.statements ?? []) : []),
        ...(route.startsJobs ? (props.jobs?.statements ?? []) : []),
      ],
      environment: {
        TABLE_NAME: props.table.tableName,
        TOKEN_PUBLIC_KEYS: props.secrets.publicKeysJson,
        COOKIE_SECURE: 'true',
        LOG_LEVEL: props.logLevel,
        // Declared empty for sam local, whose env-vars file (bin/sam-env-vars.ts) gives its own address.
        PUBLIC_BASE_URL: props.declareSamLocalVariables ? '' : props.publicBaseUrl,
        ...(route.deliversWebhooks ? props.webhookDelivery?.environment : {}),
        ...(route.startsJobs ? props.jobs?.environment : {}),
        ...(route.secrets?.includes('signingKey')
          ? { SIGNING_KEY_SECRET_ARN: props.secrets.signingKey.secretArn }
          : {}),
        ...(route.secrets?.includes('sessionSecret')
          ? { SESSION_SECRET_ARN: props.secrets.sessionSecret.secretArn }
          : {}),
        ...(props.declareSamLocalVariables
          ? { DYNAMODB_ENDPOINT: '', ...(route.secrets?.length ? { SECRETS_JSON: '' } : {}) }
          : {}),
      },
    });
    for (const placement of props.placements.get(route.name) ?? []) {
      const placed = placement.spellings;
      const integrationId = `${id}Integration${placement.idSuffix}`;
      const integration =
        placed.length === 1
          ? new HttpLambdaIntegration(integrationId, fn.function)
          : new SpellingsLambdaIntegration(
              integrationId,
              fn.function,
              sourcePathPatternOf(placed.map((entry) => entry.apiPath)),
            );
      // The row's own path first: its route creates the integration, under the construct id it always had.
      for (const { spelling, apiPath } of placed) {
        const httpRoute = new HttpRoute(
          scope,
          `${constructIdOf(spelling.spelling)}Route${apiPath === '$default' ? placement.idSuffix : ''}`,
          {
            httpApi: placement.httpApi,
            routeKey:
              apiPath === '$default' ? HttpRouteKey.DEFAULT : HttpRouteKey.with(apiPath, HttpMethod[route.method]),
            integration,
          },
        );
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            route.scopes === 'public'
              ? 'Public by protocol: OAuth endpoints and install pages authenticate clients and users themselves.'
              : route.auth === 'developerKey'
                ? "The function verifies the developer API key (?hapikey=) in-process (shared/http/auth.ts): one GetItem by the key's SHA-256 hash, constant-time compare, and the path's app must belong to the key's developer account."
                : 'The function verifies the signed access token and its scopes in-process (shared/http/auth.ts; developerKeyOrToken routes also take the developer API key): no authorizer Lambda.',
        });
      }
    }
    // The samLocal template holds every route in one stack (under CloudFormation's 500 resources): alarms mean nothing to sam local.
    if (!props.declareSamLocalVariables)
      new Alarm(scope, `${id}Throttles`, {
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

/** Lambda's limit on a function's description. */
const maxDescriptionLength = 256;

/** `name: METHOD path, alias, ...`, or the row's own path and the count of the others when every path would not fit Lambda's 256 characters. */
export function functionDescriptionOf(name: string, method: string, paths: readonly string[]): string {
  const all = `${name}: ${method} ${paths.join(', ')}`;
  if (all.length <= maxDescriptionLength) return all;
  const short = `${name}: ${method} ${paths[0]} and ${paths.length - 1} more paths`;
  return short.length <= maxDescriptionLength ? short : short.slice(0, maxDescriptionLength);
}
