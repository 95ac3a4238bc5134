import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, sourceFiles } from './support/source-files';

/**
 * The run's test files share one DynamoDB Local and one table (test/support/global-setup.ts). A file
 * that reads the whole table with Scan needs a DynamoDB Local of its own (docs/testing.md): it
 * imports test/support/own-dynamodb.ts before anything else, or starts one itself.
 */
const scans = /\bScanCommand\b/;
const ownDynamoDbImport = /^import '(\.\.\/)+support\/own-dynamodb';$/m;

/** Why a test source breaks the rule, or undefined when it keeps it. */
function isolationProblem(source: string): string | undefined {
  if (!scans.test(source)) return undefined;
  if (/\bstartDynamoDbLocal\(/.test(source)) return undefined;
  const firstImport = source.match(/^import\s[^;]*;/m)?.[0];
  if (firstImport && ownDynamoDbImport.test(firstImport)) return undefined;
  if (ownDynamoDbImport.test(source)) return 'imports own-dynamodb, but not before everything else';
  return 'scans with ScanCommand on the shared DynamoDB Local';
}

/**
 * Under load DynamoDB leaves part of a batch unprocessed and shared/db/core.ts sends the rest again:
 * a test that counts calls counts those retries apart (dynamoCallCounter.callsApartFromRetries,
 * totalApartFromRetries), never the raw count of every call, nor of a batch command's calls.
 * test/shared/db/client.test.ts, which proves the counter, reads the raw counts.
 */
const counterTest = 'test/shared/db/client.test.ts';
const rawCounts = [
  /Object\.fromEntries\(\s*dynamoCallCounter\.calls\s*\)/,
  /dynamoCallCounter\.total\(\)/,
  /dynamoCallCounter\.calls\.get\(\s*['"`]Batch(Get|Write)ItemCommand['"`]/,
  /dynamoCallCounter\.calls\s*\)/,
  /\.\.\.\s*dynamoCallCounter\.calls\b/,
];

/** Why a test source counts DynamoDB calls in a way an unprocessed-key retry breaks, or undefined. */
function callCountProblem(source: string): string | undefined {
  const raw = rawCounts.find((pattern) => pattern.test(source));
  return raw ? `counts DynamoDB calls with their unprocessed-key retries (${raw.source})` : undefined;
}

/**
 * The shared table's stream holds every write of the run: local webhooks started on it without a
 * state folder start at the stream's tip (startAtTip), not by reading that history to its end.
 */
function webhookStartProblem(source: string): string | undefined {
  const starts = [...source.matchAll(/startLocalWebhooks\(\{([^}]*)\}/g)].map((match) => match[1] ?? '');
  return starts.some((options) => !/\bstateDir\b/.test(options) && !/\bstartAtTip: true\b/.test(options))
    ? 'starts local webhooks on the shared stream without startAtTip: true'
    : undefined;
}

describe('test isolation', () => {
  // This file names ScanCommand in its own examples.
  const sources = sourceFiles('test')
    .filter((file) => path.join(projectRoot, file) !== __filename)
    .map((file) => ({ file, source: readFileSync(path.join(projectRoot, file), 'utf8') }));

  it('gives every file that scans the table a DynamoDB Local of its own', () => {
    const scanning = sources.filter(({ source }) => scans.test(source)).map(({ file }) => file);
    const problems = sources.flatMap(({ file, source }) => {
      const problem = isolationProblem(source);
      return problem ? [`${file}: ${problem}`] : [];
    });

    expect(scanning).toEqual(expect.arrayContaining(['test/shared/db/account-purge.test.ts']));
    expect(problems).toEqual([]);
  });

  it('refuses a Scan on the shared DynamoDB Local, and an own-dynamodb import that comes too late', () => {
    const scan = 'const page = await db.send(new ScanCommand({ TableName: tableName }));\n';

    expect(isolationProblem(`import { db } from '../shared/db/client';\n${scan}`)).toBe(
      'scans with ScanCommand on the shared DynamoDB Local',
    );
    expect(
      isolationProblem(`import { db } from '../shared/db/client';\nimport '../support/own-dynamodb';\n${scan}`),
    ).toBe('imports own-dynamodb, but not before everything else');
    expect(isolationProblem(`// why\nimport '../../support/own-dynamodb';\nimport { db } from 'x';\n${scan}`)).toBe(
      undefined,
    );
    expect(isolationProblem(`import { db } from 'x';\nawait startDynamoDbLocal({ port });\n${scan}`)).toBe(undefined);
    expect(isolationProblem("import { db } from 'x';\nawait db.send(new QueryCommand({}));\n")).toBe(undefined);
  });

  it('counts the DynamoDB calls of every test apart from the retries of unprocessed keys', () => {
    const problems = sources.flatMap(({ file, source }) => {
      const problem = file === counterTest ? undefined : callCountProblem(source);
      return problem ? [`${file}: ${problem}`] : [];
    });

    expect(problems).toEqual([]);
  });

  it('starts the local webhooks of every test at the stream tip, unless it keeps a state folder', () => {
    const problems = sources.flatMap(({ file, source }) => {
      const problem = webhookStartProblem(source);
      return problem ? [`${file}: ${problem}`] : [];
    });

    expect(problems).toEqual([]);
    const start = (options: string) => `await startLocalWebhooks({ endpoint, tableName, ${options} });`;
    expect(webhookStartProblem(start('acceptsHub'))).toMatch(/without startAtTip/);
    expect(webhookStartProblem(start('acceptsHub, startAtTip: true'))).toBe(undefined);
    expect(webhookStartProblem(start('stateDir, acceptsHub'))).toBe(undefined);
  });

  it('refuses a raw count of every call or of a batch command, and lets a count apart from retries through', () => {
    const refused = [
      'expect(Object.fromEntries(dynamoCallCounter.calls)).toEqual({ BatchGetItemCommand: 2 });',
      'expect(dynamoCallCounter.total()).toBe(3);',
      "expect(dynamoCallCounter.calls.get('BatchGetItemCommand')).toBe(1);",
      'const calls = Object.fromEntries(\n  dynamoCallCounter.calls\n);',
      'const calls = new Map(dynamoCallCounter.calls);',
      'const calls = { ...dynamoCallCounter.calls };',
    ];
    for (const line of refused) expect(callCountProblem(line)).toMatch(/^counts DynamoDB calls/);
    expect(
      callCountProblem('expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 2 });'),
    ).toBe(undefined);
    expect(callCountProblem('expect(dynamoCallCounter.totalApartFromRetries()).toBe(1);')).toBe(undefined);
    // A command whose answer is never partial (no batch) may be read on its own.
    expect(callCountProblem("expect(dynamoCallCounter.calls.get('GetItemCommand') ?? 0).toBe(1);")).toBe(undefined);
  });
});
