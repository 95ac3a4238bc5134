import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { Route } from '../shared/base/route-types';

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

/**
 * The generated module of one route's chain parts (its row, its validators and the parts of
 * shared/http that its row uses), for a stage with or without the test-account controls:
 * bin/build-validators.ts writes both for every route.
 */
export const routePartsFileName = (routeName: string, stage: { sandboxControls: boolean }): string =>
  `route-${routeName}-parts${stage.sandboxControls ? '-controls' : ''}.mjs`;

/**
 * The import shared/http/http-handler.ts takes a route's parts from: package.json's `imports` maps it
 * to shared/http/route-parts.ts (run from source), each bundle aliases it to its route's generated module.
 */
export const routePartsImport = '#route-parts';

/** The generated JSON file of one type's standard catalog tables; the extension is the one esbuild copies (the file loader). */
export const catalogFileName = (typeName: string): string => `catalog-${typeName}.catalog`;

/**
 * The generated module a bundle reads the catalog files through: shared/properties/standard-catalogs.ts
 * imports `#catalog-files`, which package.json maps to shared/properties/source-catalog-files.ts and
 * each bundle aliases to this module.
 */
export const catalogFilesModuleName = 'catalog-files.mjs';
export const catalogFilesImport = '#catalog-files';

/**
 * The standard types' lists (shared/objects/standard-types.ts, which reads the modules of
 * shared/objects/types/ from source): package.json maps each import to that file, and every bundle
 * aliases each to the generated module bin/build-validators.ts writes, which lists the same parts:
 * the registry's entries with their rules, associations and events; the pipelines; and, as literal
 * data, the scopes' words and bits. One import per group, so that a bundle holds only the modules of
 * the group it reads.
 */
export const standardTypeImports = {
  '#standard-types': 'standard-types.mjs',
  '#standard-pipelines': 'standard-pipelines.mjs',
  '#standard-scope-descriptions': 'standard-scope-descriptions.mjs',
  '#standard-scope-bits': 'standard-scope-bits.mjs',
} as const;

const standardTypeAliases = Object.fromEntries(
  Object.entries(standardTypeImports).map(([name, file]) => [name, path.join(generatedValidatorsDir, file)]),
);

/** What the bundling of a route's function reads of its row. */
export type BundledRoute = Pick<Route, 'name'>;

/** Node's modules every bundle takes from a file of the project instead (shared/http/node-globals.ts says why). */
const nodeGlobals = path.resolve(__dirname, '..', 'shared', 'http', 'node-globals.ts');
const builtinAliases = { 'node:stream/web': nodeGlobals, 'node:timers': nodeGlobals };

/**
 * The aliases of a bundle: Node modules replaced (builtinAliases) and the standard types' lists
 * (standardTypeImports); for a route's, also
 * `#route-parts` -> that route's generated parts on the stage (with or without the test-account
 * controls), and `#catalog-files` -> the catalogs' reader.
 */
export function lambdaAliasesFor(
  routeName: string | undefined,
  stage: { sandboxControls: boolean } = { sandboxControls: false },
): Record<string, string> {
  if (routeName === undefined) return { ...builtinAliases, ...standardTypeAliases };
  return {
    ...builtinAliases,
    ...standardTypeAliases,
    [routePartsImport]: path.join(generatedValidatorsDir, routePartsFileName(routeName, stage)),
    [catalogFilesImport]: path.join(generatedValidatorsDir, catalogFilesModuleName),
  };
}
