/**
 * The CDK app (cdk.json runs it): reads context and environment, then builds both stacks of
 * one stage. Only this file reads them; lib/ takes props.
 *   npx cdk synth
 *   npx cdk deploy --all -c stage=staging
 *   npx cdk synth -c samLocal=true   (a template for `sam local`; never deploy it)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addPlatformStacks } from '../lib/platform-stacks';
import { maxRoutesPerApi } from '../lib/api-shards';
import { generatedValidatorsDir } from '../lib/bundling';
import type { ReservedConcurrencySetting } from '../lib/route-limits';
import { routes } from '../shared/routes';

const app = new App();

function context(name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function positiveInteger(name: string, fallback: number): number {
  const raw = context(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`context ${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** `auto` (the default), `off` or 0 (no reservation), or a whole number per route function. */
function reservedConcurrencySetting(): ReservedConcurrencySetting {
  const raw = context('reservedConcurrency') ?? 'auto';
  if (raw === 'auto' || raw === 'off') return raw;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`context reservedConcurrency must be auto, off or a whole number, got "${raw}"`);
  return value;
}

const stageName = context('stage') ?? 'prod';
if (stageName !== '$default' && !/^[A-Za-z0-9_-]{1,64}$/.test(stageName)) {
  throw new Error(`context stage must be letters, digits, - or _ (or $default), got "${stageName}"`);
}
const logRetentionDays = positiveInteger('logRetentionDays', 30);
const validRetentions = Object.values(RetentionDays).filter((value): value is number => typeof value === 'number');
if (!validRetentions.includes(logRetentionDays)) {
  throw new Error(
    `context logRetentionDays must be one of CloudWatch's retentions (${validRetentions.join(', ')}), got ${logRetentionDays}`,
  );
}
const logLevel = (context('logLevel') ?? 'INFO').toUpperCase();
if (!['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(logLevel))
  throw new Error(`context logLevel must be DEBUG, INFO, WARN or ERROR, got "${logLevel}"`);

/**
 * The bundles validate with ajv standalone code generated from the route schemas (see
 * shared/http/validation.ts). Collecting the schemas means loading every handler, and handlers read
 * the functions' configuration and build their clients when they load: that runs in a process of
 * its own (bin/build-validators.ts), so this app loads no such module and needs no environment. It
 * writes to a scratch directory that is renamed into place, so an esbuild run never reads a
 * half-written file while another process regenerates it.
 */
function generateValidators(): void {
  const scratch = mkdtempSync(path.join(path.dirname(generatedValidatorsDir), '.validators-'));
  try {
    const run = spawnSync(
      process.execPath,
      [require.resolve('tsx/cli'), path.join(__dirname, 'build-validators.ts'), '--out', scratch],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (run.status !== 0) throw new Error(`bin/build-validators.ts exited with ${run.status ?? run.signal}`);
    mkdirSync(generatedValidatorsDir, { recursive: true });
    for (const file of readdirSync(scratch))
      renameSync(path.join(scratch, file), path.join(generatedValidatorsDir, file));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The test-account controls (`/sandbox/v1`): off unless the context says `true` (`-c sandboxControls=true`). */
function sandboxControlsSetting(): boolean {
  const raw = context('sandboxControls') ?? 'false';
  if (raw !== 'true' && raw !== 'false') throw new Error(`context sandboxControls must be true or false, got "${raw}"`);
  return raw === 'true';
}

/** `-c domainName=api.example.com -c certificateArn=arn:aws:acm:...`: both or neither. */
function customDomainSetting(): { domainName: string; certificateArn: string } | undefined {
  const domainName = context('domainName');
  const certificateArn = context('certificateArn');
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error('contexts domainName and certificateArn go together: set both, or neither');
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domainName))
    throw new Error(`context domainName must be a host name such as api.example.com, got "${domainName}"`);
  if (!/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/.test(certificateArn))
    throw new Error(`context certificateArn must be an ACM certificate ARN, got "${certificateArn}"`);
  return { domainName, certificateArn };
}

function main(): void {
  generateValidators();
  addPlatformStacks(app, {
    routes,
    stageName,
    logRetention: logRetentionDays as RetentionDays,
    logLevel,
    signingKeyGeneration: positiveInteger('signingKeyGeneration', 1),
    throttle: {
      rateLimit: positiveInteger('throttleRateLimit', 100),
      burstLimit: positiveInteger('throttleBurstLimit', 200),
    },
    reservedConcurrency: reservedConcurrencySetting(),
    accountConcurrency: positiveInteger('accountConcurrency', 1000),
    alarmTopicArn: context('alarmTopicArn'),
    declareSamLocalVariables: context('samLocal') === 'true',
    sandboxControls: sandboxControlsSetting(),
    // -c publicBaseUrl=https://api.example.com when a custom domain fronts the API.
    publicBaseUrl: context('publicBaseUrl'),
    // -c domainName=... -c certificateArn=...: the stack creates the domain and an API mapping per HTTP API
    // (else further APIs sit behind proxy routes of the root API); -c routesPerApi=N once API Gateway has
    // raised the account's quota.
    customDomain: customDomainSetting(),
    routesPerApi: positiveInteger('routesPerApi', maxRoutesPerApi),
    env: process.env.CDK_DEFAULT_ACCOUNT
      ? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION }
      : undefined,
  });
  // Every synth (and so every deploy) runs the AWS Solutions checks; an unacknowledged finding fails it.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}

main();
