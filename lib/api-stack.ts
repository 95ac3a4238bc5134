import {
  CfnOutput,
  Duration,
  Validations,
  NestedStack,
  RemovalPolicy,
  STACK_RESOURCE_LIMIT_CONTEXT,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  type CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUrlIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { routeKeyOf, type Route, type Throttle } from '../shared/base/route-types';
import { maxIntegrationsPerApi, maxRoutesPerApi, type PlacedSpelling, planApis } from './api-shards';
import type { BundledFunction } from './bundled-function';
import { PlatformSecrets } from './platform-secrets';
import { groupRoutes, routeStackIdOf } from './route-groups';
import { addRouteFunctions, type RowPlacement } from './route-stack';
import { JobPipeline } from './job-pipeline';
import { WebhookPipeline } from './webhook-pipeline';
import { AssociationLimitTracking } from './association-limit-tracking';

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
  /** Routes one HTTP API may hold: API Gateway's quota (300 unless raised for the account). */
  routesPerApi?: number;
  /**
   * The custom domain the stack creates (a Regional domain; the certificate in the stack's region),
   * with an API mapping per HTTP API (lib/api-shards.ts). Without it, a table of more than one API
   * reaches the further APIs through proxy routes of the root API.
   */
  customDomain?: { domainName: string; certificateArn: string };
}

/** `crm/v3` -> `CrmV3`: the construct-id suffix of a further API's resources (by its first key), or of a key's. */
function suffixOf(key: string): string {
  return key
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
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

    // Several APIs are one base URL through the custom domain's mappings, or else through proxy routes of the root API.
    const linking = props.customDomain ? 'mappings' : 'proxy';
    const plans = planApis(
      props.routes,
      props.declareSamLocalVariables
        ? { routes: Number.POSITIVE_INFINITY, integrations: Number.POSITIVE_INFINITY }
        : { routes: props.routesPerApi ?? maxRoutesPerApi, integrations: maxIntegrationsPerApi },
      linking,
    );
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const apis = plans.map((plan, index) => {
      const suffix = index === 0 ? '' : suffixOf(plan.mappingKeys[0] ?? '');
      const api = new HttpApi(this, `HttpApi${suffix}`, {
        apiName: `hubspot-platform-slice-${props.stageName === '$default' ? 'default' : props.stageName}${suffix ? `-${plan.mappingKeys[0]?.replace(/[^A-Za-z0-9-]+/g, '-')}` : ''}`,
        description: suffix
          ? `HubSpot-style public-app platform slice: the paths under /${plan.mappingKeys.join(', /')}`
          : 'HubSpot-style public-app platform slice',
        createDefaultStage: false,
      });
      const stage = new HttpStage(this, `Stage${suffix}`, {
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
              ...(suffix ? { apiId: '$context.apiId' } : {}),
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
      return { plan, suffix, api, stage };
    });
    const [root] = apis;
    if (!root) throw new Error('the route table is empty');
    const domain = props.customDomain
      ? new DomainName(this, 'Domain', {
          domainName: props.customDomain.domainName,
          certificate: Certificate.fromCertificateArn(this, 'DomainCertificate', props.customDomain.certificateArn),
        })
      : undefined;
    if (domain) {
      for (const { plan, suffix, api, stage } of apis) {
        if (!suffix) {
          new ApiMapping(this, 'DomainMapping', { api, domainName: domain, stage });
          continue;
        }
        for (const key of plan.mappingKeys)
          new ApiMapping(this, `DomainMapping${suffixOf(key)}`, {
            api,
            domainName: domain,
            stage,
            apiMappingKey: key,
          });
      }
    }
    // Without a domain, the root API forwards each further API's paths to it unchanged (an HTTP proxy integration).
    if (!domain) {
      for (const { plan, stage: apiStage, api } of apis.slice(1)) {
        for (const key of plan.mappingKeys) {
          const target = `https://${api.apiId}.execute-api.${this.region}.${this.urlSuffix}${props.stageName === '$default' ? '' : `/${props.stageName}`}/${key}/{proxy}`;
          const proxy = new HttpRoute(this, `Proxy${suffixOf(key)}Route`, {
            httpApi: root.api,
            routeKey: HttpRouteKey.with(`/${key}/{proxy+}`, HttpMethod.ANY),
            integration: new HttpUrlIntegration(`Proxy${suffixOf(key)}Integration`, target),
          });
          proxy.node.addDependency(apiStage);
          Validations.of(proxy).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `Forwards /${key}/... to the HTTP API that serves it, whose functions authenticate every request themselves.`,
          });
        }
      }
    }
    this.url = domain ? `https://${props.customDomain?.domainName}` : root.stage.url;
    // Absolute links (paging, Location) are built from this, never from the client's Host header.
    const publicBaseUrl =
      props.publicBaseUrl ??
      (domain
        ? this.url
        : `https://${root.api.apiId}.execute-api.${this.region}.${this.urlSuffix}${props.stageName === '$default' ? '' : `/${props.stageName}`}`);
    const placements = new Map<string, RowPlacement[]>();
    for (const { plan, suffix, api } of apis) {
      const byRow = new Map<string, PlacedSpelling[]>();
      for (const placed of plan.spellings)
        byRow.set(placed.spelling.name, [...(byRow.get(placed.spelling.name) ?? []), placed]);
      for (const [row, spellings] of byRow)
        placements.set(row, [...(placements.get(row) ?? []), { httpApi: api, idSuffix: suffix, spellings }]);
    }

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
    // The stream's second consumer: the markers of records near their association limit (same reason to stay out of sam local).
    if (!props.declareSamLocalVariables)
      new AssociationLimitTracking(this, 'AssociationLimits', {
        table: props.table,
        logRetention: props.logRetention,
        logLevel: props.logLevel,
      });

    // The job queue and its function (a DYNAMIC list's evaluation). Not in a sam local template, which
    // serves HTTP routes only: there, as wherever JOB_QUEUE_URL is unset in Lambda, a job's chunks run in the request that starts it.
    const jobs = props.declareSamLocalVariables
      ? undefined
      : new JobPipeline(this, 'Jobs', {
          table: props.table,
          logRetention: props.logRetention,
          logLevel: props.logLevel,
        });

    const footprintOf = (route: Route) => {
      const served = placements.get(route.name) ?? [];
      return { apis: served.length, routes: served.reduce((sum, placement) => sum + placement.spellings.length, 0) };
    };
    for (const [group, routes] of groupRoutes(props.routes, footprintOf)) {
      const id = routeStackIdOf(group);
      const scope = props.declareSamLocalVariables
        ? new Construct(this, id)
        : new NestedStack(this, id, { description: `Route functions of functions/${group}/` });
      const functions = addRouteFunctions(scope, {
        routes,
        placements,
        table: props.table,
        secrets,
        logRetention: props.logRetention,
        logLevel: props.logLevel,
        publicBaseUrl,
        reservedConcurrency: props.reservedConcurrency,
        sandboxControls: props.sandboxControls === true,
        webhookDelivery: webhooks?.flushAccess,
        jobs: jobs?.sendAccess,
        declareSamLocalVariables: props.declareSamLocalVariables,
      });
      this.routeGroups.set(group, scope);
      for (const [name, fn] of functions) this.functions.set(name, fn);
    }

    // A row's throttle applies to each of its spellings' route keys on their API's stage, which must exist before the stage refers to them.
    for (const { plan, stage: apiStage } of apis) {
      const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
      for (const { spelling, apiPath } of plan.spellings) {
        if (!spelling.throttle) continue;
        routeSettings[routeKeyOf({ method: spelling.method, path: apiPath })] = {
          ThrottlingRateLimit: spelling.throttle.rateLimit,
          ThrottlingBurstLimit: spelling.throttle.burstLimit,
        };
        const holder = this.functions.get(spelling.name)?.node.scope;
        if (holder) apiStage.node.addDependency(holder);
      }
      if (Object.keys(routeSettings).length > 0)
        (apiStage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', routeSettings);
    }

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

    for (const { plan, suffix, stage: apiStage } of apis) {
      new Alarm(this, `ServerErrorRate${suffix}`, {
        alarmDescription: `More than 1% of API requests${suffix ? ` under /${plan.mappingKeys.join(', /')}` : ''} answered 5xx over 5 minutes (twice in 3 periods)`,
        metric: new MathExpression({
          label: '5xx rate (%)',
          expression: 'IF(requests > 0, 100 * errors / requests, 0)',
          usingMetrics: {
            errors: apiStage.metricServerError({ statistic: 'Sum', period: Duration.minutes(5) }),
            requests: apiStage.metricCount({ statistic: 'Sum', period: Duration.minutes(5) }),
          },
          period: Duration.minutes(5),
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
    if (props.alarmTopicArn) {
      const action = new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn));
      for (const child of this.node.findAll()) {
        if (child instanceof Alarm) child.addAlarmAction(action);
      }
    }

    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point ${props.customDomain?.domainName} here: a CNAME, or a Route 53 alias record with DomainHostedZoneId`,
      });
      new CfnOutput(this, 'DomainHostedZoneId', {
        value: domain.regionalHostedZoneId,
        description: "The domain target's hosted zone, for a Route 53 alias record",
      });
    }
    new CfnOutput(this, 'ApiUrl', {
      value: this.url,
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
