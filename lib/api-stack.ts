import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table';
import type { Route, TableAccess } from '../shared/route-types';
import { BundledFunction } from './bundled-function';
import { PlatformSecrets } from './platform-secrets';

export interface ApiStackProps extends StackProps {
  /** The route table: one function and one HTTP API route per row. */
  routes: readonly Route[];
  table: ITable;
  /** API Gateway stage, part of the URL (`$default` for none). */
  stageName: string;
  logRetention: RetentionDays;
  logLevel: string;
  /** Raising it rotates the signing key at the next deploy. */
  signingKeyGeneration: number;
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * Declares the variables `sam local --env-vars` fills in (sam only overrides variables the
   * template declares): DYNAMODB_ENDPOINT, and SECRETS_JSON where the row reads a secret. Never for a deployed stack.
   */
  declareSamLocalVariables?: boolean;
  /** SNS topic the alarms notify; without it they only change state. */
  alarmTopicArn?: string;
}

/** Exactly the calls the repositories make; Scan is left out on purpose: nothing may scan the single table. */
export const tableReadActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** Transactions need no action of their own: they are authorized per item as these. */
export const tableWriteActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

/** `issueToken` -> `IssueToken`, the construct id of a route's resources. */
function constructIdOf(route: Route): string {
  return route.name.charAt(0).toUpperCase() + route.name.slice(1);
}

function routeKeyOf(route: Route): HttpRouteKey {
  return route.path === '$default' ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, HttpMethod[route.method]);
}

/**
 * The HTTP API (payload 2.0) with one bundled function per row of the route table, each with
 * only the table access and secrets its row names, plus the secrets, access logs and alarms.
 */
export class ApiStack extends Stack {
  readonly functions = new Map<string, BundledFunction>();
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const secrets = new PlatformSecrets(this, 'Secrets', { logRetention: props.logRetention, keyGeneration: props.signingKeyGeneration });

    const api = new HttpApi(this, 'HttpApi', {
      apiName: `hubspot-platform-slice-${props.stageName === '$default' ? 'default' : props.stageName}`,
      description: 'HubSpot-style public-app platform slice',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const stage = new HttpStage(this, 'Stage', {
      httpApi: api,
      stageName: props.stageName,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // The route key, never the raw path: paths such as /oauth/v1/access-tokens/{token} carry tokens.
        format: AccessLogFormat.custom(JSON.stringify({
          requestId: '$context.requestId', ip: '$context.identity.sourceIp', requestTime: '$context.requestTime',
          routeKey: '$context.routeKey', status: '$context.status', protocol: '$context.protocol',
          responseLength: '$context.responseLength', integrationLatency: '$context.integrationLatency',
          integrationError: '$context.integrationErrorMessage',
        })),
      },
    });
    this.url = stage.url;

    for (const route of props.routes) {
      const id = constructIdOf(route);
      const fn = new BundledFunction(this, id, {
        entry: route.entry,
        routeName: route.name,
        description: route.path === '$default' ? `${route.name}: every unmatched request` : `${route.name}: ${route.method} ${route.path}`,
        logRetention: props.logRetention,
        environment: {
          TABLE_NAME: props.table.tableName,
          TOKEN_PUBLIC_KEYS: secrets.publicKeysJson,
          COOKIE_SECURE: 'true',
          LOG_LEVEL: props.logLevel,
          ...(route.secrets?.includes('signingKey') ? { SIGNING_KEY_SECRET_ARN: secrets.signingKey.secretArn } : {}),
          ...(route.secrets?.includes('sessionSecret') ? { SESSION_SECRET_ARN: secrets.sessionSecret.secretArn } : {}),
          ...(props.declareSamLocalVariables ? { DYNAMODB_ENDPOINT: '', ...(route.secrets?.length ? { SECRETS_JSON: '' } : {}) } : {}),
        },
      });
      grantTableAccess(props.table, route.table, fn.role);
      if (isRateLimitedRead(route)) grantRateLimiterUpdates(props.table, fn.role);
      for (const secret of route.secrets ?? []) secrets.grantRead(secret, fn.role);
      const httpRoute = new HttpRoute(this, `${id}Route`, {
        httpApi: api,
        routeKey: routeKeyOf(route),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
      });
      Validations.of(httpRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: route.scopes === 'public'
          ? 'Public by protocol: OAuth endpoints and install pages authenticate clients and users themselves.'
          : 'The function verifies the signed access token and its scopes in-process (shared/http/auth.ts): no authorizer Lambda or database read on the hot path.',
      });
      new Alarm(this, `${id}Throttles`, {
        alarmDescription: `Lambda throttled ${route.name} requests (account concurrency exhausted)`,
        metric: fn.function.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      this.functions.set(route.name, fn);
    }

    // A rotated key is used for signing only once every verifier lists it: CloudFormation updates the
    // functions that sign (and whose TOKEN_PUBLIC_KEYS gate the key they sign with) after all the others.
    const signerNames = new Set(props.routes.filter((route) => route.secrets?.includes('signingKey')).map((route) => route.name));
    for (const [name, signer] of this.functions) {
      if (!signerNames.has(name)) continue;
      for (const [otherName, other] of this.functions) {
        if (!signerNames.has(otherName)) signer.function.node.addDependency(other.function);
      }
    }

    new Alarm(this, 'ServerErrorRate', {
      alarmDescription: 'More than 1% of API requests answered 5xx over 5 minutes (twice in 3 periods)',
      metric: new MathExpression({
        label: '5xx rate (%)',
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: stage.metricServerError({ statistic: 'Sum', period: Duration.minutes(5) }),
          requests: stage.metricCount({ statistic: 'Sum', period: Duration.minutes(5) }),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopicArn) {
      const action = new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn));
      for (const child of this.node.findAll()) {
        if (child instanceof Alarm) child.addAlarmAction(action);
      }
    }

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API (HubSpot clients: use it as the base path)' });
    new CfnOutput(this, 'TableName', { value: props.table.tableName, description: 'DynamoDB table (TABLE_NAME for the admin CLI)' });
    new CfnOutput(this, 'ActiveSigningKeyId', { value: secrets.activeKeyId, description: 'Key id new access tokens are signed with' });
  }
}

/** A read route called with access tokens still counts its calls: the limiter's UpdateItem. */
export const isRateLimitedRead = (route: Route): boolean => route.table === 'read' && route.scopes !== 'public' && route.rateLimit !== 'none';

/** UpdateItem on the limiter's items only (partition keys LIMIT#…), never on records. */
function grantRateLimiterUpdates(table: ITable, grantee: IGrantable): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({
    actions: ['dynamodb:UpdateItem'], resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LIMIT#*'] } },
  }));
}

/** Read: get, batch get and query on the table and its indexes. Readwrite adds item writes on the table. Nothing else. */
function grantTableAccess(table: ITable, access: TableAccess, grantee: IGrantable): void {
  if (access === 'none') return;
  const indexArns = tableDefinition.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: tableReadActions, resources: [table.tableArn, ...indexArns] }));
  if (access === 'readwrite') {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: tableWriteActions, resources: [table.tableArn] }));
  }
}
