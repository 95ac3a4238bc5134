/**
 * Generates ajv standalone validation code for every schema of every route, so deployed
 * functions validate without compiling schemas (or loading ajv) at cold start.
 * Output in shared/http/generated, or the directory of --out (gitignored; bundles define PRECOMPILED_VALIDATORS):
 * validators.js with every validator, and route-<name>.js with only the validators of one route,
 * which that route's bundle loads (lib/bundling.ts aliases `precompiled-validators` to it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AjvFlavor } from '../shared/http/validation';
import { routes } from '../shared/routes';
import { generatedValidatorsDir, routeRowFileName, routeValidatorsFileName } from '../lib/bundling';

export const generatedDir = generatedValidatorsDir;

/**
 * Drops the schemaPath of every error object from ajv's standalone code. shared/http/validation.ts
 * reads an error's instancePath, keyword, params and message, never its schemaPath, and each path
 * is a string literal of the generated code (about a fifth of a validator's minified bytes).
 */
export function withoutSchemaPaths(code: string): string {
  return code.replace(/schemaPath:"(?:[^"\\]|\\.)*",/g, '');
}

export async function buildValidators(outDir = generatedDir): Promise<{ file: string; count: number }> {
  // Handler modules read their configuration at load; the values do not matter for collecting schemas.
  process.env.TABLE_NAME ??= 'schema-collection';
  const { registeredSchemas, ajvOptions } = await import('../shared/http/validation');
  for (const route of routes) await import(path.resolve(__dirname, '..', route.entry));
  const { default: Ajv } = await import('ajv');
  const { default: standaloneCode } = await import('ajv/dist/standalone');
  mkdirSync(outDir, { recursive: true });

  /** Writes one module exporting the validators of the given keys (both flavors); returns its file name. */
  const writeModule = (name: string, keys: ReadonlySet<string>): string => {
    const parts: string[] = [];
    for (const flavor of ['body', 'param'] as const satisfies readonly AjvFlavor[]) {
      const entries = [...registeredSchemas].filter(([key, entry]) => entry.flavor === flavor && keys.has(key));
      if (entries.length === 0) continue;
      const ajv = new Ajv({ ...ajvOptions[flavor], code: { source: true } });
      for (const [key, entry] of entries) ajv.addSchema(entry.schema, key);
      const file = `${name}-${flavor}.js`;
      writeFileSync(
        path.join(outDir, file),
        withoutSchemaPaths(standaloneCode(ajv, Object.fromEntries(entries.map(([key]) => [key, key])))),
      );
      parts.push(`...require('./${file}')`);
    }
    const file = `${name}.js`;
    writeFileSync(path.join(outDir, file), `"use strict";\nmodule.exports = { ${parts.join(', ')} };\n`);
    return file;
  };

  const index = path.join(outDir, writeModule('validators', new Set(registeredSchemas.keys())));
  for (const route of routes) {
    const keys = new Set(
      [...registeredSchemas].filter(([, entry]) => entry.routeNames.has(route.name)).map(([key]) => key),
    );
    writeModule(path.basename(routeValidatorsFileName(route.name), '.js'), keys);
    // The route's own row, which its bundle loads instead of the whole table (shared/http/http-handler.ts).
    writeFileSync(
      path.join(outDir, routeRowFileName(route.name)),
      `"use strict";\nmodule.exports = ${JSON.stringify(route)};\n`,
    );
  }
  return { file: index, count: registeredSchemas.size };
}

if (require.main === module) {
  // bin/cdk-app.ts runs this file with --out <scratch directory> and renames what it writes into place.
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  buildValidators(values.out === undefined ? undefined : path.resolve(values.out))
    .then(({ file, count }) => {
      console.log(`generated ${count} validators into ${file}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
