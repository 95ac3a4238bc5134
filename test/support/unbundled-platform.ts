import { App, NestedStack, type Stack } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ApiStack } from '../../lib/api-stack';
import { addPlatformStacks, type PlatformProps } from '../../lib/platform-stacks';
import { routes } from '../../shared/routes';

/**
 * The platform's stacks built in-process with bundling skipped (the tests that read the construct
 * tree or the templates, not the bundles): a production stage of the route table unless `props`
 * say otherwise. `stacks` is the API stack and every nested stack under it.
 */
export function unbundledPlatform(props: Partial<PlatformProps> = {}): { app: App; api: ApiStack; stacks: Stack[] } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { api } = addPlatformStacks(app, {
    routes,
    stageName: 'prod',
    logRetention: 30 as RetentionDays,
    logLevel: 'INFO',
    signingKeyGeneration: 1,
    throttle: { rateLimit: 100, burstLimit: 200 },
    ...props,
  });
  const stacks: Stack[] = [
    api,
    ...api.node.findAll().filter((construct): construct is NestedStack => construct instanceof NestedStack),
  ];
  return { app, api, stacks };
}
