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
});
