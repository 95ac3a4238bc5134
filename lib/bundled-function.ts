import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { lambdaAliasesFor, lambdaEsbuildOptions, lambdaNodeOptions } from './bundling';

/** The project root: entries in the route table are relative to it. */
export const projectRoot = path.resolve(__dirname, '..');

/** lib/bundling.ts's esbuild options as NodejsFunction takes them (it runs the installed esbuild, never Docker). */
export function lambdaBundlingOptions(routeName?: string): BundlingOptions {
  const options = lambdaEsbuildOptions;
  return {
    format: OutputFormat.ESM,
    target: options.target,
    minify: options.minify,
    sourceMap: options.sourcemap,
    sourcesContent: options.sourcesContent,
    mainFields: [...options.mainFields],
    banner: options.banner.js,
    // The AWS SDK is bundled too: the version that ships is the one package-lock.json pins.
    externalModules: [],
    define: { ...options.define },
    esbuildArgs: Object.fromEntries(Object.entries(lambdaAliasesFor(routeName)).map(([from, to]) => [`--alias:${from}`, to])),
    forceDockerBundling: false,
    logLevel: LogLevel.WARNING,
  };
}

export interface BundledFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  /** The route-table row this function serves: its bundle carries that route's precompiled validators. */
  routeName?: string;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  /**
   * false only in the sam local template, which is never deployed and must fit CloudFormation's 500
   * resources in one stack: the function then gets no log group of its own (sam prints its logs).
   */
  ownLogGroup?: boolean;
  memorySizeMb?: number;
  timeout?: Duration;
  /** Everything the function may do besides writing its logs: the role's one inline policy. */
  statements?: PolicyStatement[];
  /** Concurrent executions reserved for (and capping) the function; none when undefined. */
  reservedConcurrency?: number;
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
  readonly logGroup: LogGroup | undefined;

  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    super(scope, id);
    this.logGroup = props.ownLogGroup === false ? undefined : new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const writeLogs = this.logGroup
      ? [new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [this.logGroup.logGroupArn] })] : [];
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
      // A role without statements (a sam local function that touches nothing) gets no inline policy at all.
      inlinePolicies: writeLogs.length + (props.statements?.length ?? 0) === 0 ? {}
        : { access: new PolicyDocument({ statements: [...writeLogs, ...(props.statements ?? [])] }) },
    });
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
      reservedConcurrentExecutions: props.reservedConcurrency,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: lambdaNodeOptions },
      bundling: lambdaBundlingOptions(props.routeName),
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the bundles target (esbuild target node22) and the tests run; moving to a newer runtime is a deliberate change, not a drift.',
    });
  }
}
