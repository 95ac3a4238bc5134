import type { App, Environment } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Route } from '../shared/route-types';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';

export interface PlatformProps {
  routes: readonly Route[];
  stageName: string;
  logRetention: RetentionDays;
  logLevel: string;
  signingKeyGeneration: number;
  throttle: { rateLimit: number; burstLimit: number };
  env?: Environment;
  alarmTopicArn?: string;
  declareSamLocalVariables?: boolean;
  publicBaseUrl?: string;
}

/** Stack ids carry the stage, so two stages can live in one account: `HubspotSlice-prod-Api`. */
export function stackNamesOf(stageName: string): { data: string; api: string } {
  const stage = stageName === '$default' ? 'default' : stageName;
  return { data: `HubspotSlice-${stage}-Data`, api: `HubspotSlice-${stage}-Api` };
}

/** Both stacks of one stage; bin/cdk-app.ts and the tests build the app the same way. */
export function addPlatformStacks(app: App, props: PlatformProps): { data: DataStack; api: ApiStack } {
  const names = stackNamesOf(props.stageName);
  const data = new DataStack(app, names.data, { env: props.env, description: 'HubSpot-style platform slice: the single DynamoDB table (retained)' });
  const api = new ApiStack(app, names.api, {
    env: props.env,
    description: 'HubSpot-style platform slice: HTTP API, one Lambda function per route, secrets, alarms',
    routes: props.routes,
    table: data.table,
    stageName: props.stageName,
    logRetention: props.logRetention,
    logLevel: props.logLevel,
    signingKeyGeneration: props.signingKeyGeneration,
    throttle: props.throttle,
    alarmTopicArn: props.alarmTopicArn,
    declareSamLocalVariables: props.declareSamLocalVariables,
    publicBaseUrl: props.publicBaseUrl,
  });
  return { data, api };
}
