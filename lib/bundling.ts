import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { takesAccessTokens, takesDeveloperKeys, type Route } from '../shared/base/route-types';

/**
 * How every Lambda function is bundled, in esbuild's own terms: the CDK stack
 * (lib/bundled-function.ts) and the benchmark both pass these to esbuild's API, so the benchmark
 * measures what ships.
 */
export const lambdaEsbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  // Stack traces map back to file and line through the names alone; the sources stay out of the artifact.
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Bundled CommonJS dependencies call require() for Node built-ins, which ES modules lack.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
  },
  // Validators come precompiled (bin/build-validators.ts; bin/cdk-app.ts generates them before synth).
  // The constant also lets esbuild drop ajv's compiler from every bundle.
  define: { PRECOMPILED_VALIDATORS: 'true' },
  // Each type's standard catalog is a JSON file copied beside the bundle (bin/build-validators.ts writes them).
  loader: { '.catalog': 'file' },
  // esbuild's own default, spelled out: a bundling warning must show in `cdk synth`, not be hidden.
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** NODE_OPTIONS of every function: stack traces through the source maps. */
export const lambdaNodeOptions = '--enable-source-maps';

export const generatedValidatorsDir = path.resolve(__dirname, '..', 'shared', 'http', 'generated');

/** The generated module holding only the validators of one route's schemas. */
export const routeValidatorsFileName = (routeName: string): string => `route-${routeName}.js`;

/** The import shared/http/validation.ts loads precompiled validators from; each bundle resolves it to its route's module. */
export const precompiledValidatorsImport = 'precompiled-validators';

/** The generated module holding one route's row of the table (bin/build-validators.ts writes it beside its validators). */
export const routeRowFileName = (routeName: string): string => `route-${routeName}-row.js`;

/** The import shared/http/http-handler.ts loads a bundle's own route row from (the whole table is about 22 KiB of minified code). */
export const routeRowImport = 'route-row';

/** The generated JSON file of one type's standard catalog tables; the extension is the one esbuild copies (the file loader). */
export const catalogFileName = (typeName: string): string => `catalog-${typeName}.catalog`;

/** The generated module a bundle reads the catalog files through; shared/properties/standard-catalogs.ts imports it as `catalog-files`. */
export const catalogFilesModuleName = 'catalog-files.mjs';
export const catalogFilesImport = 'catalog-files';

/** What the bundling of a route's function reads of its row. */
export type BundledRoute = Pick<Route, 'name' | 'body' | 'format' | 'scopes' | 'auth'>;

/**
 * The constants of a route's bundle: the common ones, and its row's body and error format, which
 * shared/http/middlewares.ts compares where it picks a body parser and an error response, so that
 * esbuild keeps the one parser and the one format the row uses (the others would be about 2 KiB of every
 * bundle: the other body parser, the HTML error page); whether it takes access tokens
 * (shared/http/auth.ts: without, no token verification, limiter or faults, about 7 KiB) and
 * developer API keys (without, no key checks, about 0.6 KiB); and whether
 * its stage deploys the test-account controls (`sandboxControls`: without, no account can have
 * faults, and the fault check is left out, about 1.7 KiB of every function taking tokens).
 */
export function lambdaDefinesFor(
  route: BundledRoute | undefined,
  stage: { sandboxControls: boolean } = { sandboxControls: false },
): Record<string, string> {
  if (route === undefined) return { ...lambdaEsbuildOptions.define };
  return {
    ...lambdaEsbuildOptions.define,
    BUNDLED_ROUTE_BODY: JSON.stringify(route.body),
    BUNDLED_ROUTE_FORMAT: JSON.stringify(route.format ?? 'json'),
    BUNDLED_ROUTE_TAKES_TOKENS: JSON.stringify(takesAccessTokens(route)),
    BUNDLED_ROUTE_TAKES_DEVELOPER_KEYS: JSON.stringify(takesDeveloperKeys(route)),
    BUNDLED_SANDBOX_CONTROLS: JSON.stringify(stage.sandboxControls),
  };
}

/** Node's modules every bundle takes from a file of the project instead (shared/http/node-globals.ts says why). */
const nodeGlobals = path.resolve(__dirname, '..', 'shared', 'http', 'node-globals.ts');
const builtinAliases = { 'node:stream/web': nodeGlobals, 'node:timers': nodeGlobals };

/**
 * The aliases of a bundle: Node modules replaced (builtinAliases); for a route's, also
 * precompiled-validators -> that route's generated validators, route-row -> its row,
 * catalog-files -> the catalogs' reader.
 */
export function lambdaAliasesFor(routeName: string | undefined): Record<string, string> {
  if (routeName === undefined) return { ...builtinAliases };
  return {
    ...builtinAliases,
    [precompiledValidatorsImport]: path.join(generatedValidatorsDir, routeValidatorsFileName(routeName)),
    [routeRowImport]: path.join(generatedValidatorsDir, routeRowFileName(routeName)),
    [catalogFilesImport]: path.join(generatedValidatorsDir, catalogFilesModuleName),
  };
}
