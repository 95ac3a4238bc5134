import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuiltBundle, buildBundle } from '../../bench/build-bundle';
import { runNodeProcess } from '../../local/run-node-process';
import { findRoute, type RouteName } from '../../shared/routes';
import { useBundleOutDir } from '../support/bundle-out-dir';
import { projectRoot, sourceFiles } from '../support/source-files';

/**
 * Source patterns that decide what esbuild can leave out of a function's bundle (docs/performance.md,
 * "Cold start"). Each keeps out of a bundle code its function never runs.
 */

describe('bundle hygiene', () => {
  const files = [...sourceFiles('functions'), ...sourceFiles('shared')];
  it('marks nothing pure in functions/ or shared/: what a bundle may leave out is a plain literal or the build decides it', () => {
    const marked: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(projectRoot, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/@__PURE__|@__NO_SIDE_EFFECTS__/.test(line)) marked.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(marked).toEqual([]);
  });
});

describe('plain source', () => {
  const files = [...sourceFiles('functions'), ...sourceFiles('shared')];

  it('imports no module for its side effect: what a bundle needs is imported by name', () => {
    const sideEffectImports = files.flatMap((file) =>
      readFileSync(path.join(projectRoot, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => /^import\s*['"]/.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(sideEffectImports).toEqual([]);
  });
});

describe('what a bundle carries', () => {
  const outDir = useBundleOutDir('bundle-hygiene-');

  const built = new Map<string, Promise<BuiltBundle>>();
  /** The route's bundle, built once for the tests below. */
  function bundleOf(routeName: RouteName): Promise<BuiltBundle> {
    const route = findRoute(routeName);
    let bundle = built.get(routeName);
    if (!bundle) {
      bundle = buildBundle(route.entry, path.join(outDir(), routeName), route);
      built.set(routeName, bundle);
    }
    return bundle;
  }

  /** Whether the bundle of the route holds a standard label and a standard description. */
  async function catalogTextsIn(routeName: RouteName): Promise<{ label: boolean; description: boolean }> {
    const code = readFileSync((await bundleOf(routeName)).file, 'utf8');
    return {
      label: code.includes('"Company Domain Name"'),
      description: code.includes('"The name of the company or organization."'),
    };
  }

  /** Which of the files that only some routes need put bytes into the route's bundle. */
  async function optionalPartsIn(routeName: RouteName): Promise<string[]> {
    const optional = ['shared/http/json-body-parser.ts', '@middy/http-urlencode-body-parser/', 'shared/oauth/html.ts'];
    const { metafile } = await bundleOf(routeName);
    const inputs = Object.values(metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
        .map(([input]) => input),
    );
    return optional.filter((part) => inputs.some((input) => input.includes(part)));
  }

  /** The catalog files esbuild copied beside the route's bundle, by the type they hold. */
  async function catalogFilesBeside(routeName: RouteName): Promise<Record<string, string>> {
    const directory = path.dirname((await bundleOf(routeName)).file);
    const files = readdirSync(directory).filter((file) => file.endsWith('.catalog'));
    return Object.fromEntries(
      files.map((file) => [
        file.replace(/^catalog-|-[A-Z0-9]+\.catalog$/g, ''),
        readFileSync(path.join(directory, file), 'utf8'),
      ]),
    );
  }

  it.each(['batchCreateObjects', 'createProperty', 'getProperty'] as const)(
    'keeps every standard catalog out of the code of %s and beside it as one file per type',
    async (routeName) => {
      expect(await catalogTextsIn(routeName)).toEqual({ label: false, description: false });
      const files = await catalogFilesBeside(routeName);
      expect(Object.keys(files).sort()).toEqual([
        'calls',
        'companies',
        'contacts',
        'custom_objects',
        'deals',
        'emails',
        'line_items',
        'meetings',
        'notes',
        'products',
        'tasks',
        'tickets',
      ]);
      const companies = JSON.parse(files.companies ?? '{}') as {
        labels: Record<string, string>;
        descriptions: Record<string, string>;
      };
      expect(companies.labels.domain).toBe('Company Domain Name');
      expect(companies.descriptions.name).toBe('The name of the company or organization.');
    },
  );

  it('copies no catalog beside a function that reads none', async () => {
    expect(await catalogFilesBeside('getOwner')).toEqual({});
  });

  it.each(['getOwner', 'batchCreateObjects', 'login'] as const)(
    "imports neither node:stream/web nor node:timers in %s (middy's imports of them are Node's globals, shared/http/node-globals.ts)",
    async (routeName) => {
      const code = readFileSync((await bundleOf(routeName)).file, 'utf8');
      const nodeImports = [...code.matchAll(/from\s*"(node:[a-z_/]+)"/g)].map((match) => match[1]);

      expect(nodeImports).toContain('node:stream/promises');
      expect(nodeImports.filter((name) => name === 'node:stream/web' || name === 'node:timers')).toEqual([]);
      expect(code).toContain('globalThis.ReadableStream');
    },
  );

  /** Which of the files of the access-token path put bytes into a bundle built for the stage given. */
  async function tokenPartsIn(routeName: RouteName, sandboxControls: boolean): Promise<string[]> {
    const route = findRoute(routeName);
    const { metafile } = await buildBundle(
      route.entry,
      path.join(outDir(), `${routeName}-${sandboxControls ? 'test' : 'production'}`),
      route,
      sandboxControls,
    );
    const parts = ['shared/oauth/install-status.ts', 'shared/http/rate-limit.ts', 'shared/http/fault-injection.ts'];
    const inputs = Object.values(metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
        .map(([input]) => input),
    );
    return parts.filter((part) => inputs.includes(part));
  }

  it('keeps the install check and the limiter only where a route takes access tokens, and the fault check only on a stage with the controls', async () => {
    expect(await tokenPartsIn('getOwner', true)).toEqual([
      'shared/oauth/install-status.ts',
      'shared/http/rate-limit.ts',
      'shared/http/fault-injection.ts',
    ]);
    expect(await tokenPartsIn('getOwner', false)).toEqual([
      'shared/oauth/install-status.ts',
      'shared/http/rate-limit.ts',
    ]);
    // Developer API keys (the sandbox controls' own rows, webhook settings) and public rows take no tokens.
    expect(await tokenPartsIn('loadTestAccountFixtures', true)).toEqual([]);
    expect(await tokenPartsIn('getWebhookSettings', false)).toEqual([]);
    expect(await tokenPartsIn('login', false)).toEqual([]);
  });

  it("keeps the developer API key's checks only where a route takes developer API keys", async () => {
    const keyMessage = "This hapikey doesn't exist.";
    for (const [routeName, takesKeys] of [
      ['getOwner', false],
      ['getWebhookSettings', true],
      ['loadTestAccountFixtures', true],
    ] as const)
      expect([routeName, readFileSync((await bundleOf(routeName)).file, 'utf8').includes(keyMessage)]).toEqual([
        routeName,
        takesKeys,
      ]);
  });

  it.each([
    ['loadTestAccountFixtures', true, 'POST', '/sandbox/v1/test-accounts/1/fixtures'],
    ['getWebhookSettings', false, 'GET', '/webhooks/v3/1/settings'],
    ['getOwner', false, 'GET', '/crm/v3/owners/1'],
  ] as const)(
    'answers a call without credentials 401 from the bundle of %s built for its stage (a step left out is no step)',
    async (routeName, sandboxControls, method, rawPath) => {
      const route = findRoute(routeName);
      const { file } = await buildBundle(route.entry, path.join(outDir(), `${routeName}-run`), route, sandboxControls);
      const event = {
        version: '2.0',
        rawPath,
        headers: {},
        requestContext: { http: { method } },
        isBase64Encoded: false,
      };
      const script = [
        'const { handler } = await import(process.env.BUNDLE_URL);',
        'const result = await handler(JSON.parse(process.env.EVENT), { getRemainingTimeInMillis: () => 10000 });',
        'process.stdout.write(JSON.stringify(result));',
      ].join('\n');
      const { code, stdout, stderr } = await runNodeProcess(['--input-type=module', '-e', script], {
        cwd: path.dirname(file),
        env: {
          PATH: process.env.PATH,
          TABLE_NAME: 'bundle-hygiene',
          AWS_REGION: 'us-east-1',
          LOG_LEVEL: 'SILENT',
          BUNDLE_URL: pathToFileURL(file).href,
          EVENT: JSON.stringify(event),
        },
      });

      expect([code, stderr]).toEqual([0, '']);
      const result = JSON.parse(stdout) as { statusCode: number; body: string };
      expect(result.statusCode).toBe(401);
      expect(JSON.parse(result.body)).toMatchObject({ status: 'error', category: 'INVALID_AUTHENTICATION' });
    },
  );

  it("keeps only the body parser of the route's row, and the HTML error page only where the row answers HTML", async () => {
    expect(await optionalPartsIn('getProperty')).toEqual([]);
    expect(await optionalPartsIn('batchCreateObjects')).toEqual(['shared/http/json-body-parser.ts']);
    expect(await optionalPartsIn('login')).toEqual(['@middy/http-urlencode-body-parser/', 'shared/oauth/html.ts']);
  });
});
