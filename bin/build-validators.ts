/**
 * Generates what a function's bundle takes instead of source that picks at run time, in
 * shared/http/generated, or the directory of --out (gitignored): ajv standalone validation code for
 * every schema of every route (validators.js, and route-<name>.js with only one route's), so
 * deployed functions validate without compiling schemas (or loading ajv) at cold start; per route
 * and stage, the module of its chain parts (routePartsModule), which its bundle resolves
 * `#route-parts` to; and the standard catalogs as JSON files with the module that reads them
 * (`#catalog-files`). lib/bundling.ts aliases both imports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chainPartsOf, type Route } from '../shared/base/route-types';
import type { AjvFlavor } from '../shared/http/validation';
import { routes } from '../shared/routes';
import {
  catalogFileName,
  catalogFilesModuleName,
  generatedValidatorsDir,
  routePartsFileName,
  routeValidatorsFileName,
  standardTypeImports,
} from '../lib/bundling';
import { standardTypesDir, typeModulesIn } from '../shared/objects/standard-types';
import type { CatalogTables } from '../shared/properties/standard-catalog';
import { sourceCatalogTables } from '../shared/properties/source-catalog-tables';

export const generatedDir = generatedValidatorsDir;

/** The end (exclusive) of the object literal that opens at `start` (a `{`): braces outside string literals. */
function endOfObjectLiteral(code: string, start: number): number {
  let end = start + 1;
  let depth = 1;
  let quote: string | undefined;
  for (; depth > 0; end += 1) {
    const char = code[end];
    if (char === undefined) throw new Error('unterminated object literal in generated validator code');
    if (quote !== undefined) {
      if (char === '\\') end += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
  }
  return end;
}

/**
 * Drops from ajv's standalone code what shared/http/validation.ts never reads of an error: its
 * schemaPath (a string literal per error, about a fifth of a validator's minified bytes) and its
 * params but the ones named (`keptParams`). An error object keeps its shape (`params: {}`); a
 * schema constant the dropped params alone referred to (an enum's allowed values) is then left out
 * of the bundle.
 */
export function withoutUnreadErrorFields(code: string, keptParams: readonly string[]): string {
  const withoutPaths = code.replace(/schemaPath:"(?:[^"\\]|\\.)*",/g, '');
  const parts: string[] = [];
  let at = 0;
  for (let start = withoutPaths.indexOf('params:{'); start >= 0; start = withoutPaths.indexOf('params:{', at)) {
    // The end of the params object literal (a pattern may hold braces).
    const end = endOfObjectLiteral(withoutPaths, start + 'params:'.length);
    const params = withoutPaths.slice(start, end);
    parts.push(withoutPaths.slice(at, start), keptParams.some((name) => params.includes(name)) ? params : 'params:{}');
    at = end;
  }
  parts.push(withoutPaths.slice(at));
  return parts.join('');
}

/**
 * Drops the `const schemaN = {…};` declarations no code reads. Ajv's standalone code declares the
 * root schema of each validator whether or not it refers to it; esbuild keeps every statement of a
 * CommonJS module, so an unread schema (about 1 KiB for a batch body's) would go into each bundle.
 */
export function withoutUnreadSchemaConstants(code: string): string {
  let result = code;
  for (const match of code.matchAll(/const (schema\d+) = \{/g)) {
    const name = match[1] as string;
    const start = result.indexOf(`const ${name} = {`);
    if (start < 0) continue;
    const braceAt = start + `const ${name} = `.length;
    let end = endOfObjectLiteral(result, braceAt);
    if (result[end] === ';') end += 1;
    const rest = result.slice(0, start) + result.slice(end);
    if (!new RegExp(`\\b${name}\\b`).test(rest)) result = rest;
  }
  return result;
}

/**
 * Ajv writes the same five statements to add each error to the list (`if(vErrors === null)
 * {vErrors = [errN];}else {vErrors.push(errN);}`); one helper call per error instead (a batch
 * body's validator has about 40 of them).
 */
export function withSharedErrorPush(code: string): string {
  const pushes = /if\(vErrors === null\)\{vErrors = \[(err\d+)\];\}else \{vErrors\.push\(\1\);\}/g;
  if (!pushes.test(code)) return code;
  const helper =
    'function pushValidationError(list, error){if(list === null){return [error];}list.push(error);return list;}';
  return code
    .replace(pushes, (_whole, error: string) => `vErrors = pushValidationError(vErrors, ${error});`)
    .replace(/^"use strict";/, `"use strict";${helper}`);
}

/**
 * Each error is an object literal with the four fields the service reads, built in place and then
 * pushed (`const errN = {instancePath:…,keyword:"…",params:{…},message:…};vErrors = pushValidationError(vErrors, errN);`);
 * one helper builds and pushes it from its four values instead, so the field names are written once
 * per validator, not once per error (about a fifth of a batch body's validator). An error whose
 * literal holds anything else, or whose variable is read again, is left as it is.
 */
export function withSharedErrorObjects(code: string): string {
  // `instancePath` alone is the shorthand for `instancePath:instancePath`.
  const literal = /^\{instancePath(?::([\s\S]*?))?,keyword:("[^"]*"),params:(\{[^{}]*\}),message:([\s\S]*)\}$/;
  const parts: string[] = [];
  let at = 0;
  let changed = false;
  for (const match of code.matchAll(/const (err\d+) = \{/g)) {
    const start = match.index ?? 0;
    if (start < at) continue;
    const name = match[1] as string;
    const braceAt = start + `const ${name} = `.length;
    const end = endOfObjectLiteral(code, braceAt);
    const fields = literal.exec(code.slice(braceAt, end));
    const push = `;vErrors = pushValidationError(vErrors, ${name});`;
    // A field after the message (ajv's propertyName of a propertyNames error) keeps the literal as it is.
    const isFourFields =
      fields !== null && !/,\s*[A-Za-z_$][\w$]*\s*:/.test((fields[4] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""'));
    if (
      !fields ||
      !isFourFields ||
      !code.startsWith(push, end) ||
      new RegExp(`\\b${name}\\b`).test(code.slice(end + push.length))
    )
      continue;
    const [, instancePath = 'instancePath', keyword, params, message] = fields;
    parts.push(
      code.slice(at, start),
      `vErrors = pushError(vErrors, ${instancePath}, ${keyword}, ${params}, ${message});`,
    );
    at = end + push.length;
    changed = true;
  }
  if (!changed) return code;
  parts.push(code.slice(at));
  const helper =
    'function pushError(list, instancePath, keyword, params, message){return pushValidationError(list, {instancePath, keyword, params, message});}';
  return parts.join('').replace(/^"use strict";/, `"use strict";${helper}`);
}

/**
 * The same string literal written many times over (field names in instance paths, keywords, the
 * messages: a batch body's validator writes "/associations/" 21 times) becomes one constant per
 * module, which the minifier names with a letter or two. Literals followed by a colon (an object
 * key in a schema constant, the first branch of a conditional) stay as they are, and so do those
 * compared with `==` (V8 compiles `typeof x == "object"` to a type check only with the literal).
 * This saves about 1 KiB of a batch body's minified validator.
 */
export function withSharedStrings(code: string): string {
  // Every literal is matched (so the scan never starts inside one), with a comparison before it or a colon after.
  const literal = /(==\s*)?("(?:[^"\\\n]|\\.)*")(\s*:)?/g;
  const counts = new Map<string, number>();
  for (const [, compared, text = '', key] of code.matchAll(literal))
    if (compared === undefined && key === undefined) counts.set(text, (counts.get(text) ?? 0) + 1);
  // Worth a constant when the copies it replaces outweigh its declaration (`const sharedStringN = …;`).
  const shared = [...counts].filter(
    ([text, count]) => text !== '"use strict"' && count >= 2 && (count - 1) * (text.length - 2) > 16,
  );
  if (shared.length === 0) return code;
  if (/\bsharedString\d/.test(code)) throw new Error('generated validator code already names sharedString');
  const names = new Map(shared.map(([text], index) => [text, `sharedString${index}`]));
  const declarations = shared.map(([text]) => `const ${names.get(text)} = ${text};`).join('');
  const directive = '"use strict";';
  const body = code.startsWith(directive) ? code.slice(directive.length) : code;
  const replaced = body.replace(
    literal,
    (whole, compared: string | undefined, text: string, key: string | undefined) =>
      compared === undefined && key === undefined ? (names.get(text) ?? text) : whole,
  );
  return `${directive}${declarations}${replaced}`;
}

/** An import path from the generated modules' directory to a module of the project (`file` relative to shared/http). */
function importPathFrom(outDir: string, file: string): string {
  const relative = path
    .relative(outDir, path.join(__dirname, '..', 'shared', 'http', file))
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * The module a route's bundle resolves `#route-parts` to (lib/bundling.ts), for a stage with or
 * without the test-account controls: the route's row, its precompiled validators, and the parts of
 * its middy chain the row uses (chainPartsOf, shared/base/route-types.ts), each imported from where it
 * is defined, so the bundle holds no other part (the other body parser, the other error formats,
 * token checks on a developer-key route, key checks on a token route, the fault check on a stage
 * that cannot have faults).
 */
export function routePartsModule(route: Route, stage: { sandboxControls: boolean }, outDir: string): string {
  const chosen = chainPartsOf(route, stage);
  const imports = new Map<string, string[]>();
  const fields = ['row'];
  const use = (from: string, name: string, field: string) => {
    imports.set(from, [...(imports.get(from) ?? []), name]);
    fields.push(field);
  };
  if (chosen.bodyParser === 'json')
    use(importPathFrom(outDir, 'json-body-parser'), 'jsonBodyParser', 'bodyParser: jsonBodyParser');
  if (chosen.bodyParser === 'urlencoded')
    use(
      '@middy/http-urlencode-body-parser',
      'default as httpUrlencodeBodyParser',
      'bodyParser: httpUrlencodeBodyParser',
    );
  const errorResponse = `${chosen.errorFormat}ErrorResponse`;
  use(importPathFrom(outDir, 'middlewares'), errorResponse, `errorResponse: ${errorResponse}`);
  if (chosen.accessTokens) use(importPathFrom(outDir, 'auth'), 'checkAccessToken', 'accessToken: checkAccessToken');
  if (chosen.rateLimit) use(importPathFrom(outDir, 'middlewares'), 'limitRate', 'limitRate');
  if (chosen.faults) use(importPathFrom(outDir, 'middlewares'), 'injectFaults', 'injectFaults');
  if (chosen.developerKeys)
    use(
      importPathFrom(outDir, 'developer-key-auth'),
      'authenticateDeveloperKey',
      'developerKey: authenticateDeveloperKey',
    );
  if (chosen.appTokens) use(importPathFrom(outDir, 'app-token-auth'), 'checkAppToken', 'appToken: checkAppToken');
  if (chosen.pathTypes) use(importPathFrom(outDir, 'path-object-types'), 'loadPathTypes', 'typeLoader: loadPathTypes');
  use(
    importPathFrom(outDir, 'validation'),
    'precompiledValidator',
    'validator: (schema, location) => precompiledValidator(validators, schema, location)',
  );
  return [
    `// Written by bin/build-validators.ts: the chain parts of route ${route.name} on a stage ${stage.sandboxControls ? 'with' : 'without'} the test-account controls.`,
    `import validators from './${routeValidatorsFileName(route.name)}';`,
    ...[...imports].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`),
    `const row = ${JSON.stringify(route)};`,
    'export function routePartsOf(name) {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal.
    '  if (name !== row.name) throw new Error(`this bundle serves route ${row.name}, not ${name}`);',
    `  return { ${fields.join(', ')} };`,
    '}',
    '',
  ].join('\n');
}

export async function buildValidators(outDir = generatedDir): Promise<{ file: string; count: number }> {
  // Handler modules read their configuration at load; the values do not matter for collecting schemas.
  process.env.TABLE_NAME ??= 'schema-collection';
  const { registeredSchemas, ajvOptions, readErrorParams } = await import('../shared/http/validation');
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
        withSharedStrings(
          withSharedErrorObjects(
            withSharedErrorPush(
              withoutUnreadSchemaConstants(
                withoutUnreadErrorFields(
                  standaloneCode(ajv, Object.fromEntries(entries.map(([key]) => [key, key]))),
                  readErrorParams,
                ),
              ),
            ),
          ),
        ),
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
    for (const sandboxControls of [false, true])
      writeFileSync(
        path.join(outDir, routePartsFileName(route.name, { sandboxControls })),
        routePartsModule(route, { sandboxControls }, outDir),
      );
  }
  writeCatalogFiles(outDir, sourceCatalogTables);
  for (const [file, code] of Object.entries(standardTypeModules(outDir, standardTypesDir)))
    writeFileSync(path.join(outDir, file), code);
  return { file: index, count: registeredSchemas.size };
}

/**
 * The modules a bundle resolves the standard types' imports to (lib/bundling.ts standardTypeImports),
 * by file name: the same lists as shared/objects/standard-types.ts, of the same modules in the same
 * order, each importing by name only the parts its lists hold (so a bundle that reads the pipelines
 * holds only the modules that have pipelines); the scopes' words and bits are written as data.
 */
export function standardTypeModules(outDir: string, typesDir: string): Record<string, string> {
  const modules = typeModulesIn(typesDir);
  const header = '// Written by bin/build-validators.ts from the modules of shared/objects/types/.';
  const importsOf = (parts: readonly string[]) =>
    modules.flatMap(({ file, module }, index) => {
      const names = parts.filter((part) => Object.hasOwn(module, part)).map((part) => `${part} as ${part}${index}`);
      const from = path
        .relative(outDir, path.join(typesDir, path.basename(file, '.ts')))
        .split(path.sep)
        .join('/');
      return names.length === 0
        ? []
        : [`import { ${names.join(', ')} } from '${from.startsWith('.') ? from : `./${from}`}';`];
    });
  const listOf = (part: string, item = (index: number) => `${part}${index}`) =>
    `[${modules.flatMap(({ module }, index) => (Object.hasOwn(module, part) ? [item(index)] : [])).join(', ')}]`;
  const dataOf = (part: 'scopeDescriptions' | 'scopeBits') =>
    JSON.stringify(modules.flatMap(({ module }) => (module[part] === undefined ? [] : [module[part]])));
  return {
    [standardTypeImports['#standard-types']]: [
      header,
      ...importsOf(['objectType', 'rules', 'associations', 'events']),
      `export const standardTypes = ${listOf('objectType')};`,
      `export const standardTypeRules = ${listOf('rules', (index) => `[objectType${index}, rules${index}]`)};`,
      `export const standardTypeAssociations = ${listOf('associations')};`,
      `export const standardTypeEvents = ${listOf('events')};`,
      '',
    ].join('\n'),
    [standardTypeImports['#standard-pipelines']]: [
      header,
      ...importsOf(['pipelines', 'stageMetadata']),
      `export const standardPipelineTypes = ${listOf('pipelines')};`,
      `export const standardStageMetadata = ${listOf('stageMetadata', (index) => `[${JSON.stringify(modules[index]?.module.objectType.id)}, stageMetadata${index}]`)};`,
      '',
    ].join('\n'),
    [standardTypeImports['#standard-scope-descriptions']]: [
      header,
      `export const standardScopeDescriptions = ${dataOf('scopeDescriptions')};`,
      '',
    ].join('\n'),
    [standardTypeImports['#standard-scope-bits']]: [
      header,
      `export const standardScopeBits = ${dataOf('scopeBits')};`,
      '',
    ].join('\n'),
  };
}

/**
 * Each type's standard catalog as a JSON file (the bundler copies it beside index.mjs, esbuild's file
 * loader), and the module a bundle reads them through (lib/bundling.ts aliases `catalog-files` to it):
 * a request reads the tables of the type it names, on first use, instead of every catalog being code
 * parsed at each cold start (shared/properties/standard-catalogs.ts).
 */
function writeCatalogFiles(outDir: string, tables: Readonly<Record<string, CatalogTables>>): void {
  const names = Object.keys(tables);
  for (const name of names) writeFileSync(path.join(outDir, catalogFileName(name)), JSON.stringify(tables[name]));
  const lines = [
    "import { readFileSync } from 'node:fs';",
    ...names.map((name, index) => `import file${index} from './${catalogFileName(name)}';`),
    `const files = { ${names.map((name, index) => `${JSON.stringify(name)}: file${index}`).join(', ')} };`,
    'export function catalogTables(name) {',
    '  if (!Object.hasOwn(files, name)) return undefined;',
    "  return JSON.parse(readFileSync(new URL(files[name], import.meta.url), 'utf8'));",
    '}',
    '',
  ];
  writeFileSync(path.join(outDir, catalogFilesModuleName), lines.join('\n'));
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
