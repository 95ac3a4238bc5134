import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { objectTypes } from '../../shared/objects/object-types';
import { projectRoot, sourceFiles } from '../support/source-files';

/**
 * The engine names no type: what a type does is data or a hook of its entry (shared/objects/), never
 * a branch on its name. The check reads the code (not the comments) of every TypeScript file in the
 * engine's folders and counts:
 * - the identifiers `companyObjectType` and `companyKeys`;
 * - a standard type id (`0-<digits>`) in a string, template or regular expression literal (in a
 *   regular expression, outside character classes: `[0-9]` is no id);
 * - a standard type's plural name, singular name (also as words: `line item`) or key prefix, as a
 *   whole word of a string or template literal, in any case (letters, digits and `_` are word
 *   characters: a stored attribute such as `companyLinkCount` or a key part such as `COMPANY_UNIQUE`
 *   holds no whole word, and is not counted).
 * Module specifiers (import paths) are not counted. The names and ids are the registry's, so a new
 * type is checked as soon as it has a module (shared/objects/types/).
 */
const engineFolders = [
  'shared/records',
  'shared/db',
  'shared/associations',
  'shared/search',
  'shared/webhooks',
  'shared/http',
] as const;

/** Words that are not a type where a file (or every file under a folder) uses them, each with what it is. */
const notTypes: Record<string, { words: readonly string[]; reason: string }> = {
  'shared/db/owners.ts': { words: ['email'], reason: "an owner's email address, not the emails type" },
  'shared/http/': { words: ['call'], reason: 'an API call (in a message), not the calls type' },
  'shared/db/timeline.ts': {
    words: ['CONTACT', 'COMPANY', 'DEAL'],
    reason: "the legacy timeline's objectType values (the v1 API's wire values), not registry entries",
  },
};

/** The words a file may use that are not a type: its own entry's and its folders'. */
const notTypesIn = (file: string): string[] =>
  Object.entries(notTypes).flatMap(([place, { words }]) =>
    file === place || (place.endsWith('/') && file.startsWith(place)) ? words : [],
  );

const namedIdentifiers = new Set(['companyObjectType', 'companyKeys']);
const typeIdPattern = /(?<![0-9A-Za-z.[-])0-[0-9]+(?![0-9])/;

/** Every way the registry spells a standard type: plural and singular names, singular words, key prefix. */
const typeWords = [
  ...new Set(
    objectTypes.flatMap((type) => [type.name, type.singular, type.singular.replaceAll('_', ' '), type.keyPrefix]),
  ),
].map((word) => word.toLowerCase());
const wordPattern = new RegExp(`(?<![A-Za-z0-9_])(${typeWords.join('|')})(?![A-Za-z0-9_])`, 'gi');

/** What the code of one file names, as `<line>: <what>` (comments are not code: the parser skips them). */
function typeNamesIn(fileName: string, text: string, allowedWords: readonly string[] = []): string[] {
  const allowed = new Set(allowedWords.map((word) => word.toLowerCase()));
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const record = (node: ts.Node, what: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      // The specifier is a path; the rest of the declaration (the names imported) is code.
      for (const child of node.getChildren(source)) if (child !== node.moduleSpecifier) visit(child);
      return;
    }
    if (ts.isIdentifier(node) && namedIdentifiers.has(node.text)) record(node, node.text);
    if (ts.isRegularExpressionLiteral(node) && typeIdPattern.test(node.text.replace(/\[(?:\\.|[^\]])*\]/g, '')))
      record(node, node.text);
    if (ts.isStringLiteral(node) || ts.isTemplateLiteralToken(node)) {
      const literal = node.text;
      if (typeIdPattern.test(literal)) record(node, JSON.stringify(literal));
      const words = [...literal.matchAll(wordPattern)].map((match) => match[1] ?? '');
      if (words.some((word) => !allowed.has(word.toLowerCase()))) record(node, JSON.stringify(literal));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the engine names no type', () => {
  it.each(engineFolders)('%s: no type name, type id or company constant in its code', (folder) => {
    const named = sourceFiles(folder).flatMap((file) =>
      typeNamesIn(file, readFileSync(path.join(projectRoot, file), 'utf8'), notTypesIn(file)).map(
        (hit) => `${file}:${hit}`,
      ),
    );
    expect(named).toEqual([]);
  });

  it('counts a company branch, type ids, type names in messages and key prefixes, but not comments or attribute names', () => {
    const code = [
      "import { companyObjectType } from '../objects/object-types';",
      '// companies and 0-2 in a comment are not code',
      'const isCompany = type.id === companyObjectType.id;',
      "const contactTypeId = '0-1';",
      'const primaryKey = /^0-2\\/(\\d{1,30})\\/1$/;',
      'const digits = /^[0-9]{1,15}$/;',
      'const message = `A company with ${name} already exists`;',
      "const prefix = 'COMPANY';",
      "const attribute = 'companyLinkCount';",
      "const claim = 'COMPANY_UNIQUE#domain';",
      "const lineItems = 'line_items';",
    ].join('\n');
    expect(typeNamesIn('sample.ts', code)).toEqual([
      '1: companyObjectType',
      '3: companyObjectType',
      '4: "0-1"',
      '5: /^0-2\\/(\\d{1,30})\\/1$/',
      '7: "A company with "',
      '8: "COMPANY"',
      '11: "line_items"',
    ]);
  });

  it('leaves a word out only where its file says it is not a type', () => {
    const code = "const filter = 'archived = :archived AND email = :email';";
    expect(typeNamesIn('owners.ts', code)).toEqual([`1: ${JSON.stringify('archived = :archived AND email = :email')}`]);
    expect(typeNamesIn('owners.ts', code, ['email'])).toEqual([]);
  });
});
