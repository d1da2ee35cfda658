/**
 * SQL lives in repos (issue 31, docs/handler-recipe.md): in api/, a Kysely query builder
 * (`.selectFrom(`, `.insertInto(`, `.updateTable(`, `.deleteFrom(`, `.mergeInto(`, `.replaceInto(`)
 * or a `sql` template or helper (`sql\`…\``, `sql<T>\`…\``, `sql.raw(…)`, `sql.ref(…)`, …) is
 * allowed only in a `*.repo.ts` file, in the sealed records (api/practice/records.ts: it seals,
 * opens and logs every read of a client's private rows in the same statements), and nowhere else:
 * the list of files not yet moved that issue 31 started with is empty and gone, so a new exception
 * is a change of SEALED that a reviewer reads. db/ (the connection and migrations), scripts/
 * (tools) and tests/ are not api/ and are not read.
 *
 * TypeScript's parser reads the files, so a comment or a string that merely mentions `selectFrom`
 * is not a query. `node scripts/check-sql-in-repos.ts` prints each place and exits 1;
 * tests/unit/system/sql-in-repos.test.ts runs it inside `npm test`, on this repository and on a fixture
 * tree that breaks the rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface SqlPlace {
  /** The file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  /** What was found: `.selectFrom(`, `sql\`\``, `sql.raw(`. */
  what: string;
}

/** The one exception by design: the sealed private records. */
export const SEALED = ['api/practice/records.ts'] as const;

const BUILDERS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);

/** The places in `text` (a TypeScript file's source) where SQL is written. */
export function sqlPlaces(file: string, text: string): SqlPlace[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: SqlPlace[] = [];
  const at = (node: ts.Node, what: string) => found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      if (BUILDERS.has(name)) at(node, `.${name}(`);
      else if (ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'sql') at(node, `sql.${name}(`);
    }
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') at(node, 'sql``');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The places of api/ under `root` where SQL is written outside a repo and the sealed records. */
export function checkSqlInRepos(root: string): SqlPlace[] {
  const violations: SqlPlace[] = [];
  for (const full of filesUnder(path.join(root, 'api'))) {
    const file = path.relative(root, full).split(path.sep).join('/');
    if (file.endsWith('.repo.ts') || (SEALED as readonly string[]).includes(file)) continue;
    violations.push(...sqlPlaces(file, readFileSync(full, 'utf8')));
  }
  return violations;
}

export const formatPlace = (p: SqlPlace) => `${p.file}:${p.line}: ${p.what} outside a *.repo.ts file`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const violations = checkSqlInRepos(root);
  for (const v of violations) console.error(formatPlace(v));
  if (violations.length) {
    console.error(`\nSQL belongs in a wing's *.repo.ts (docs/handler-recipe.md); ${violations.length} place(s) outside.`);
    process.exitCode = 1;
  } else {
    console.log(`SQL in repos: none outside *.repo.ts but the sealed records (${SEALED.join(', ')}).`);
  }
}
