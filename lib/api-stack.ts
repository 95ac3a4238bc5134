import {
  CfnOutput,
  Duration,
  NestedStack,
  RemovalPolicy,
  STACK_RESOURCE_LIMIT_CONTEXT,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { routeKeyOf, spellingsOf, type Route, type Throttle } from '../shared/base/route-types';
import type { BundledFunction } from './bundled-function';
import { PlatformSecrets } from './platform-secrets';
import { groupRoutes, routeStackIdOf } from './route-groups';
import { addRouteFunctions } from './route-stack';
import { WebhookPipeline } from './webhook-pipeline';

export { tableReadActions, tableWriteActions } from './route-stack';

export interface ApiStackProps extends StackProps {
  /** The route table: one function per row, and one HTTP API route per spelling of its path. */
  routes: readonly Route[];
  table: ITable;
  /** API Gateway stage, part of the URL (`$default` for none). */
  stageName: string;
  logRetention: RetentionDays;
  logLevel: string;
  /** Raising it rotates the signing key at the next deploy. */
  signingKeyGeneration: number;
  /** The stage's default throttle: every route whose row has no throttle of its own. */
  throttle: Throttle;
  /** Reserved concurrency of each route function; undefined reserves none. */
  reservedConcurrency?: number;
  /**
   * A template for `sam local`, never for a deployed stack: the functions declare the variables
   * `sam local --env-vars` fills in (sam only overrides variables the template declares):
   * DYNAMODB_ENDPOINT, and SECRETS_JSON where the row reads a secret. And the route functions stay in
   * this one template instead of nested stacks: `sam local start-api` serves no route of a nested stack.
   */
  declareSamLocalVariables?: boolean;
  /** SNS topic the alarms notify; without it they only change state. */
  alarmTopicArn?: string;
  /** Where clients reach the API when a custom domain fronts it; default: the API's execute-api URL with the stage. */
  publicBaseUrl?: string;
  /** The test-account controls are deployed: every function taking access tokens may read injected faults. */
  sandboxControls?: boolean;
}

/**
 * The HTTP API (payload 2.0), its stage, the secrets, access logs and the 5xx alarm; the route
 * functions live in nested stacks, one per folder of functions/ (lib/route-groups.ts), so the
 * route table can grow far past the 500 resources CloudFormation allows one stack.
 */
export class ApiStack extends Stack {
  readonly functions = new Map<string, BundledFunction>();
  /** The construct holding each group's route functions: a nested stack, or (for sam local) a plain construct. */
  readonly routeGroups = new Map<string, Construct>();
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // The sam local template holds every route function in this one stack (sam local serves no route of
    // a nested stack) and is never deployed: CloudFormation's 500 resources per stack do not bind it.
    if (props.declareSamLocalVariables) this.node.setContext(STACK_RESOURCE_LIMIT_CONTEXT, 0);
    const secrets = new PlatformSecrets(this, 'Secrets', {
      logRetention: props.logRetention,
      keyGeneration: props.signingKeyGeneration,
    });

    const api = new HttpApi(this, 'HttpApi', {
      apiName: `hubspot-platform-slice-${props.stageName === '$default' ? 'default' : props.stageName}`,
      description: 'HubSpot-style public-app platform slice',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(this, 'Stage', {
      httpApi: api,
      stageName: props.stageName,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // The route key, never the raw path: paths such as /oauth/v1/access-tokens/{token} carry tokens.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.url = stage.url;
    // Absolute links (paging, Location) are built from this, never from the client's Host header.
    const publicBaseUrl =
      props.publicBaseUrl ??
      `https://${api.apiId}.execute-api.${this.region}.${this.urlSuffix}${props.stageName === '$default' ? '' : `/${props.stageName}`}`;

    // The stream -> queue -> delivery pipeline (not in a sam local template: sam local serves HTTP routes
    // only; `npm start` runs webhooks locally). Before the routes: the sandbox's flush function delivers
    // through its queues.
    const webhooks = props.declareSamLocalVariables
      ? undefined
      : new WebhookPipeline(this, 'Webhooks', {
          table: props.table,
          logRetention: props.logRetention,
          logLevel: props.logLevel,
          sandboxControls: props.sandboxControls === true,
        });

    for (const [group, routes] of groupRoutes(props.routes)) {
      const id = routeStackIdOf(group);
      const scope = props.declareSamLocalVariables
        ? new Construct(this, id)
        : new NestedStack(this, id, { description: `Route functions of functions/${group}/` });
      const functions = addRouteFunctions(scope, {
        routes,
        httpApi: api,
        table: props.table,
        secrets,
        logRetention: props.logRetention,
        logLevel: props.logLevel,
        publicBaseUrl,
        reservedConcurrency: props.reservedConcurrency,
        sandboxControls: props.sandboxControls === true,
        webhookDelivery: webhooks?.flushAccess,
        declareSamLocalVariables: props.declareSamLocalVariables,
      });
      this.routeGroups.set(group, scope);
      for (const [name, fn] of functions) this.functions.set(name, fn);
    }

    // A row's throttle applies to each of its spellings' route keys, which must exist before the stage refers to them.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of props.routes) {
      if (!route.throttle) continue;
      for (const spelling of spellingsOf(route)) {
        routeSettings[routeKeyOf(spelling)] = {
          ThrottlingRateLimit: route.throttle.rateLimit,
          ThrottlingBurstLimit: route.throttle.burstLimit,
        };
      }
      const holder = this.functions.get(route.name)?.node.scope;
      if (holder) stage.node.addDependency(holder);
    }
    if (Object.keys(routeSettings).length > 0)
      (stage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', routeSettings);

    // A rotated key is used for signing only once every verifier lists it: CloudFormation updates the
    // functions that sign (and whose TOKEN_PUBLIC_KEYS gate the key they sign with) after all the others:
    // across nested stacks, the signer's stack waits for every other route stack.
    const signerNames = new Set(
      props.routes.filter((route) => route.secrets?.includes('signingKey')).map((route) => route.name),
    );
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

    new CfnOutput(this, 'ApiUrl', {
      value: stage.url,
      description: 'Base URL of the API (HubSpot clients: use it as the base path)',
    });
    new CfnOutput(this, 'TableName', {
      value: props.table.tableName,
      description: 'DynamoDB table (TABLE_NAME for the admin CLI)',
    });
    if (webhooks) {
      new CfnOutput(this, 'WebhookQueueUrl', {
        value: webhooks.queue.queueUrl,
        description: 'WEBHOOK_QUEUE_URL for the admin CLI (dead-letter replay)',
      });
      new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
        value: webhooks.deadLetterQueue.queueUrl,
        description: 'WEBHOOK_DEAD_LETTER_QUEUE_URL for the admin CLI',
      });
      new CfnOutput(this, 'WebhookSealKeySecretArn', {
        value: webhooks.sealKey.secretArn,
        description:
          'WEBHOOK_SEAL_KEY_SECRET_ARN for `admin app create` (seals the client secret webhooks are signed with)',
      });
    }
    new CfnOutput(this, 'ActiveSigningKeyId', {
      value: secrets.activeKeyId,
      description: 'Key id new access tokens are signed with',
    });
  }
}
