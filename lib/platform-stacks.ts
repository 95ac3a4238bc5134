import type { App, Environment } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Route, Throttle } from '../shared/base/route-types';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { reservedConcurrencyPerFunction, type ReservedConcurrencySetting } from './route-limits';

export interface PlatformProps {
  /** The route table (shared/routes.ts): its rows carry their partitions, throttles and aliases. */
  routes: readonly Route[];
  stageName: string;
  logRetention: RetentionDays;
  logLevel: string;
  signingKeyGeneration: number;
  /** The stage's default; a row's own throttle replaces it on that row's routes. */
  throttle: Throttle;
  /** Per route function (lib/route-limits.ts); `auto` by default. */
  reservedConcurrency?: ReservedConcurrencySetting;
  /** The account's Lambda concurrency limit the reservations must fit; 1000 (a new account's) by default. */
  accountConcurrency?: number;
  env?: Environment;
  alarmTopicArn?: string;
  declareSamLocalVariables?: boolean;
  publicBaseUrl?: string;
  /** The custom domain the stack creates, with an API mapping per HTTP API (lib/api-shards.ts). */
  customDomain?: { domainName: string; certificateArn: string };
  /** Routes one HTTP API may hold (API Gateway's quota for the account); 300 by default. */
  routesPerApi?: number;
  /**
   * The test-account controls (`/sandbox/v1`, rows with `sandbox: true`): deployed only when true
   * (the CDK context `sandboxControls`); otherwise those routes do not exist.
   */
  sandboxControls?: boolean;
}

/** Stack ids carry the stage, so two stages can live in one account: `HubspotSlice-prod-Api`. */
export function stackNamesOf(stageName: string): { data: string; api: string } {
  const stage = stageName === '$default' ? 'default' : stageName;
  return { data: `HubspotSlice-${stage}-Data`, api: `HubspotSlice-${stage}-Api` };
}

/** The rows a stage deploys: every row, but the test-account controls only when they are on. */
export function deployedRoutes(routes: readonly Route[], sandboxControls: boolean): Route[] {
  return routes.filter((route) => sandboxControls || !route.sandbox);
}

/** Both stacks of one stage; bin/cdk-app.ts and the tests build the app the same way. */
export function addPlatformStacks(app: App, props: PlatformProps): { data: DataStack; api: ApiStack } {
  const names = stackNamesOf(props.stageName);
  const sandboxControls = props.sandboxControls === true;
  const routes = deployedRoutes(props.routes, sandboxControls);
  const data = new DataStack(app, names.data, {
    env: props.env,
    description: 'HubSpot-style platform slice: the single DynamoDB table (retained)',
  });
  const api = new ApiStack(app, names.api, {
    env: props.env,
    description:
      'HubSpot-style platform slice: HTTP API, secrets, alarms; one nested stack of route functions per folder of functions/',
    routes,
    sandboxControls,
    table: data.table,
    stageName: props.stageName,
    logRetention: props.logRetention,
    logLevel: props.logLevel,
    signingKeyGeneration: props.signingKeyGeneration,
    throttle: props.throttle,
    reservedConcurrency: reservedConcurrencyPerFunction(
      props.reservedConcurrency ?? 'auto',
      props.accountConcurrency ?? 1000,
      routes.length,
    ),
    alarmTopicArn: props.alarmTopicArn,
    declareSamLocalVariables: props.declareSamLocalVariables,
    publicBaseUrl: props.publicBaseUrl,
    customDomain: props.customDomain,
    routesPerApi: props.routesPerApi,
  });
  return { data, api };
}
