/**
 * The arrows between the top-level folders run one way (README's layout; decision 0011):
 *
 *   site → contract        the browser's code imports the shared contract, never the server's code
 *   api → contract, db
 *   contract → zod         what both sides share imports only zod and itself (no node: builtins)
 *   db → (nothing of ours) connection, table types and migrations; packages only
 *
 * Every import counts: static `import` / `export … from`, `import type`, dynamic `import()`,
 * `require()`, and in `.astro` files the frontmatter and the `<script>` blocks. Relative (and
 * root-relative `/…`) specifiers are resolved to the folder they land in; bare specifiers are
 * packages or Node builtins. TypeScript's own scanner (`ts.preProcessFile`) reads the imports,
 * so comments and strings that merely mention a path are not imports.
 *
 * `node scripts/check-boundaries.ts` prints each violation and exits 1; tests/unit/boundaries.test.ts
 * runs it inside `npm test`, on this repository and on a broken fixture tree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Violation {
  /** The importing file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  /** The import specifier as written. */
  specifier: string;
  /** Which arrow it breaks, e.g. `site → api`, `contract → package hono`, `contract → node:fs`. */
  rule: string;
}

interface Boundary {
  /** Folders of ours this folder may import from (itself included). */
  folders: readonly string[];
  /** Packages it may import; `all` allows every package and Node builtin. */
  packages: 'all' | readonly string[];
}

/** The one table of arrows. Folders not listed (scripts, tests, realtime) may import anything. */
export const BOUNDARIES: Readonly<Record<string, Boundary>> = {
  site: { folders: ['site', 'contract'], packages: 'all' },
  api: { folders: ['api', 'contract', 'db'], packages: 'all' },
  contract: { folders: ['contract'], packages: ['zod'] },
  db: { folders: ['db'], packages: 'all' },
};

const SOURCE = /\.(?:[cm]?[jt]sx?|astro)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.astro']);
const BUILTINS = new Set(builtinModules);

function* sourceFiles(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a folder the tree does not have
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) yield* sourceFiles(p);
    } else if (SOURCE.test(e.name)) {
      yield p;
    }
  }
}

/** The parts of a file that hold JavaScript, with the offset each starts at. */
function codeBlocks(file: string, text: string): { code: string; offset: number }[] {
  if (!file.endsWith('.astro')) return [{ code: text, offset: 0 }];
  const blocks: { code: string; offset: number }[] = [];
  const front = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (front) blocks.push({ code: front[1]!, offset: front.index + front[0].indexOf(front[1]!) });
  for (const m of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    blocks.push({ code: m[1]!, offset: m.index + m[0].indexOf('>') + 1 });
  }
  return blocks;
}

/** Every import specifier of one file, with its line. */
export function importsOf(file: string, text: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  for (const { code, offset } of codeBlocks(file, text)) {
    const info = ts.preProcessFile(code, true, true);
    for (const ref of [...info.importedFiles, ...info.referencedFiles]) {
      const line = text.slice(0, offset + ref.pos).split('\n').length;
      found.push({ specifier: ref.fileName, line });
    }
  }
  return found;
}

/** `@scope/name/sub` → `@scope/name`; `zod/v4` → `zod`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

function judge(root: string, fromDir: string, own: string, boundary: Boundary, specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = specifier.startsWith('/') ? path.join(root, specifier) : path.resolve(fromDir, specifier);
    const rel = path.relative(root, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return `${own} → outside the repository`;
    const folder = rel.split(path.sep)[0]!;
    if (boundary.folders.includes(folder)) return null;
    // A root file (package.json, astro.config.mjs) is "of ours" too.
    return `${own} → ${rel.includes(path.sep) ? folder : rel}`;
  }
  if (boundary.packages === 'all') return null;
  if (specifier.startsWith('node:') || BUILTINS.has(specifier)) return `${own} → ${specifier.startsWith('node:') ? specifier : `node:${specifier}`}`;
  const name = packageName(specifier);
  return boundary.packages.includes(name) ? null : `${own} → package ${name}`;
}

/** Every import in `root` that breaks an arrow of BOUNDARIES, in file order. */
export function checkBoundaries(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const [own, boundary] of Object.entries(BOUNDARIES)) {
    for (const abs of sourceFiles(path.join(root, own))) {
      const file = path.relative(root, abs).split(path.sep).join('/');
      for (const { specifier, line } of importsOf(abs, readFileSync(abs, 'utf8'))) {
        const rule = judge(root, path.dirname(abs), own, boundary, specifier);
        if (rule) violations.push({ file, line, specifier, rule });
      }
    }
  }
  return violations;
}

export function formatViolation(v: Violation): string {
  return `${v.file}:${v.line} imports '${v.specifier}' (${v.rule})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const violations = checkBoundaries(root);
  for (const v of violations) console.error(formatViolation(v));
  if (violations.length) {
    console.error(`\n${violations.length} import(s) cross a folder boundary; see scripts/check-boundaries.ts for the arrows.`);
    process.exitCode = 1;
  } else {
    console.log('Folder boundaries hold: site → contract, api → contract + db, contract → zod, db → nothing of ours.');
  }
}
