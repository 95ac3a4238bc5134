import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';

/**
 * `npx cdk synth` runs on a developer's machine or in CI, where no function's configuration
 * exists: a module the CDK app loads must not read it (shared/base/config.ts throws without TABLE_NAME)
 * nor build an AWS client when it loads (shared/db/client.ts does both). lib/route-stack.ts once
 * imported the rate limiter for one pure predicate, and the limiter's DynamoDB client came with it.
 * This walks what the app and every module of lib/ load at run time (esbuild's graph: type-only
 * imports are dropped, as they are at run time) and names the chain to any such module.
 */
const projectRoot = path.resolve(__dirname, '..', '..');
const entries = [
  'bin/cdk-app.ts',
  ...readdirSync(path.join(projectRoot, 'lib'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `lib/${file}`),
];
/** bin/ entry points may read the environment (the CDK app reads CDK_DEFAULT_ACCOUNT); nothing they load may. */
const readsEnvironment = (file: string) =>
  !file.startsWith('bin/') && /\bprocess\.env\b/.test(readFileSync(path.join(projectRoot, file), 'utf8'));
/** The AWS SDK's packages build clients; the CDK app needs none of them. */
const isAwsSdk = (specifier: string) => specifier.startsWith('@aws-sdk/') || specifier.startsWith('@smithy/');

interface Finding {
  entry: string;
  chain: string[];
}

/** Every runtime import chain from an entry to a module that reads configuration or is an AWS SDK package. */
function forbiddenChains(metafile: Metafile, entry: string): Finding[] {
  const findings: Finding[] = [];
  const parents = new Map<string, string | undefined>([[entry, undefined]]);
  const chainTo = (file: string): string[] => {
    const chain: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = parents.get(at)) chain.unshift(at);
    return chain;
  };
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file === 'shared/base/config.ts' || readsEnvironment(file)) findings.push({ entry, chain: chainTo(file) });
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external) {
        if (isAwsSdk(imported.path)) findings.push({ entry, chain: [...chainTo(file), imported.path] });
        continue;
      }
      if (parents.has(imported.path) || !(imported.path in metafile.inputs)) continue;
      parents.set(imported.path, file);
      queue.push(imported.path);
    }
  }
  return findings;
}

let metafile: Metafile;

beforeAll(async () => {
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: entries,
    bundle: true,
    write: false,
    outdir: 'unused',
    metafile: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    logLevel: 'silent',
  });
  metafile = result.metafile;
});

describe('the CDK app and lib/', () => {
  it("load no module that reads the functions' configuration or builds an AWS client", () => {
    const findings = entries
      .flatMap((entry) => forbiddenChains(metafile, entry))
      .map(({ entry, chain }) => `${entry}: ${chain.join(' -> ')}`);

    expect(findings).toEqual([]);
  });

  it('names the chain to such a module, as lib/route-stack.ts -> shared/limits/rate-limits.ts was', () => {
    const inputs = structuredClone(metafile.inputs);
    inputs['lib/route-stack.ts']?.imports.push({ path: 'shared/limits/rate-limits.ts', kind: 'import-statement' });
    inputs['shared/limits/rate-limits.ts'] = {
      bytes: 0,
      imports: [
        { path: 'shared/base/config.ts', kind: 'import-statement' },
        { path: '@aws-sdk/lib-dynamodb', kind: 'import-statement', external: true },
      ],
    };
    inputs['shared/base/config.ts'] ??= { bytes: 0, imports: [] };

    const chains = forbiddenChains({ inputs, outputs: {} }, 'bin/cdk-app.ts').map((finding) =>
      finding.chain.join(' -> '),
    );

    expect(chains).toEqual([
      'bin/cdk-app.ts -> lib/platform-stacks.ts -> lib/api-stack.ts -> lib/route-stack.ts -> shared/limits/rate-limits.ts -> @aws-sdk/lib-dynamodb',
      'bin/cdk-app.ts -> lib/platform-stacks.ts -> lib/api-stack.ts -> lib/route-stack.ts -> shared/limits/rate-limits.ts -> shared/base/config.ts',
    ]);
  });
});
