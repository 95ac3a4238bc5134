/**
 * Generates ajv standalone validation code for every schema of every route, so deployed
 * functions validate without compiling schemas (or loading ajv) at cold start.
 * Output: shared/http/generated/validators.js (gitignored; bundles define PRECOMPILED_VALIDATORS).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../shared/routes';

export const generatedDir = path.resolve(__dirname, '..', 'shared', 'http', 'generated');

export async function buildValidators(outDir = generatedDir): Promise<{ file: string; count: number }> {
  // Handler modules read their configuration at load; the values do not matter for collecting schemas.
  process.env.TABLE_NAME ??= 'schema-collection';
  const { registeredSchemas, ajvOptions } = await import('../shared/http/validation');
  for (const route of routes) await import(path.resolve(__dirname, '..', route.entry));
  const { default: Ajv } = await import('ajv');
  const { default: standaloneCode } = await import('ajv/dist/standalone');
  mkdirSync(outDir, { recursive: true });
  const parts: string[] = [];
  for (const flavour of ['body', 'param'] as const) {
    const entries = [...registeredSchemas].filter(([, entry]) => entry.flavour === flavour);
    const ajv = new Ajv({ ...ajvOptions[flavour], code: { source: true } });
    for (const [key, entry] of entries) ajv.addSchema(entry.schema, key);
    const file = `${flavour}-validators.js`;
    writeFileSync(path.join(outDir, file), standaloneCode(ajv, Object.fromEntries(entries.map(([key]) => [key, key]))));
    parts.push(`...require('./${file}')`);
  }
  const index = path.join(outDir, 'validators.js');
  writeFileSync(index, `"use strict";\nmodule.exports = { ${parts.join(', ')} };\n`);
  return { file: index, count: registeredSchemas.size };
}

if (require.main === module) {
  buildValidators().then(({ file, count }) => {
    console.log(`generated ${count} validators into ${file}`);
  }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
