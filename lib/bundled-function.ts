import path from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Validations, type ILocalBundling } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type BundledRoute, lambdaAliasesFor, lambdaEsbuildOptions, lambdaNodeOptions } from './bundling';
import { cachedBuild } from './cached-build';

/** The project root: entries in the route table are relative to it. */
export const projectRoot = path.resolve(__dirname, '..');

/** Bundles of earlier synths (lib/cached-build.ts), where tools keep their caches. */
const bundleCacheDir = path.join(projectRoot, 'node_modules', '.cache', 'lambda-bundles');

/**
 * Bundles one handler on this machine, never in Docker: esbuild's API with lib/bundling.ts's
 * options (the benchmark makes the same call) writes index.mjs and its source map, or the cache
 * gives the identical files of an earlier synth. One esbuild service serves every function of a
 * synth; NodejsFunction started `npx esbuild` once per function, about 0.3 s of npm start-up
 * each, half of a synth's time. Its fields are the asset's cache key within one synth, so two
 * functions never share a bundle by mistake.
 */
class EsbuildBundler implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly alias: Record<string, string>,
  ) {}

  tryBundle(outputDir: string): boolean {
    cachedBuild(
      {
        ...lambdaEsbuildOptions,
        mainFields: [...lambdaEsbuildOptions.mainFields],
        alias: this.alias,
        absWorkingDir: projectRoot,
        entryPoints: [path.join(projectRoot, this.entry)],
        outfile: path.join(outputDir, 'index.mjs'),
      },
      bundleCacheDir,
    );
    return true;
  }
}

/** The asset of one handler: a directory holding index.mjs, hashed by its contents (so an unchanged bundle is not redeployed). */
export function bundledCode(entry: string, route?: BundledRoute, sandboxControls = false): Code {
  const local = new EsbuildBundler(entry, lambdaAliasesFor(route?.name, { sandboxControls }));
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    // The image is what CDK would run if local bundling declined; it never declines (esbuild throws instead).
    bundling: { image: DockerImage.fromRegistry('local-esbuild-only'), local },
  });
}

export interface BundledFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  /**
   * The route-table row this function serves: its bundle carries that route's row, its precompiled
   * validators and the parts of the middy chain the row uses (bin/build-validators.ts writes them).
   */
  route?: BundledRoute;
  /** Whether the stage deploys the test-account controls (a route's bundle then keeps the fault check). */
  sandboxControls?: boolean;
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
  /**
   * Only in the sam local template: one role every function shares, so the template's one stack
   * stays under CloudFormation's 500 resources (sam local runs with the caller's credentials and
   * never assumes it). `statements` are then not applied.
   */
  sharedRole?: Role;
}

/**
 * One Lambda function bundled on this machine by the installed esbuild (never Docker) into a
 * single minified ES module with the AWS SDK inside, so the SDK version that ships is the one
 * package-lock.json pins and the tests ran against. It gets its own role (no managed policy)
 * and its own log group with a retention.
 */
export class BundledFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup | undefined;

  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    super(scope, id);
    this.logGroup =
      props.ownLogGroup === false
        ? undefined
        : new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const writeLogs = this.logGroup
      ? [
          new PolicyStatement({
            actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            resources: [this.logGroup.logGroupArn],
          }),
        ]
      : [];
    this.role =
      props.sharedRole ??
      new Role(this, 'Role', {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: props.description,
        // A role without statements gets no inline policy at all.
        inlinePolicies:
          writeLogs.length + (props.statements?.length ?? 0) === 0
            ? {}
            : { access: new PolicyDocument({ statements: [...writeLogs, ...(props.statements ?? [])] }) },
      });
    this.function = new LambdaFunction(this, 'Function', {
      code: bundledCode(props.entry, props.route, props.sandboxControls === true),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySizeMb ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrency,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: lambdaNodeOptions },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is the runtime the bundles target (esbuild target node22) and the tests run; moving to a newer runtime is a deliberate change, not a drift.',
    });
  }
}
