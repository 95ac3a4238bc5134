import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The project root: entries in the route table are relative to it. */
export const projectRoot = path.resolve(__dirname, '..');

export interface BundledFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  memorySizeMb?: number;
  timeout?: Duration;
}

/**
 * One Lambda function bundled on this machine by the installed esbuild (never Docker) into a
 * single minified ES module with the AWS SDK inside, so the SDK version that ships is the one
 * package-lock.json pins and the tests ran against. It gets its own role (no managed policy)
 * and its own log group with a retention.
 */
export class BundledFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.description });
    this.logGroup.grantWrite(this.role);
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(projectRoot, props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySizeMb ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Stack traces map back to file and line through the names alone; the sources stay out of the artefact.
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // Bundled CommonJS dependencies call require() for Node built-ins, which ES modules lack.
        banner: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
        externalModules: [],
        // Validators come precompiled from shared/http/generated (bin/cdk-app.ts generates them before synth).
        define: { PRECOMPILED_VALIDATORS: 'true' },
        forceDockerBundling: false,
        // esbuild's own default, spelled out: a bundling warning must show in `cdk synth`, not be hidden.
        logLevel: LogLevel.WARNING,
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the bundles target (esbuild target node22) and the tests run; moving to a newer runtime is a deliberate change, not a drift.',
    });
  }
}
