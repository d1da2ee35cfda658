/**
 * The arrows between the top-level folders run one way (docs/architecture.md's layout; decision 0011):
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
 * Inside api/ (issue 31, decision 0035) the folders are floors, wings and entries:
 *
 *   entries   api/app.ts, boot.ts, server.ts, seed.ts, dev-route.ts: the composition roots; they
 *             may import anything of api/, and only an entry imports an entry
 *   floors    api/lib, site, services, middleware, mail, settings, money and the root files
 *             env.ts, types.ts, validation.ts: every wing may import them; a floor imports floors
 *             only (never a wing, never an entry)
 *   wings     every other folder of api/ (one per feature): a wing imports floors freely, and
 *             another wing's file only where API_WING_IMPORTS lists that import, with its reason
 *
 * and, over every file of api/ and every import form, there is no import circle: none between
 * files, none between folders but the one two-way pair API_TWO_WAY names (with its decision).
 * An entry of API_WING_IMPORTS that no import uses any more is reported too, so the list stays
 * the list of what is.
 *
 * `node scripts/check-boundaries.ts` prints each violation and exits 1; tests/unit/system/boundaries.test.ts
 * runs it inside `npm test`, on this repository and on broken fixture trees.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** Every import in `root` that breaks an arrow of BOUNDARIES, in file order, then what breaks api/'s rules. */
export function checkBoundaries(root: string, apiRules: ApiRules = API_RULES): Violation[] {
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
  return [...violations, ...checkApi(root, apiRules)];
}

// ---------------------------------------------------------------------------------------------
// Inside api/: entries, floors and wings (issue 31, decision 0035)

/** One import from a wing into another wing's file, and why it may. */
export interface WingImport {
  /** The importing wing (a folder of api/). */
  from: string;
  /** The imported file, relative to api/. */
  to: string;
  why: string;
}

export interface ApiRules {
  /** Files at api/'s root that compose the app: they may import anything; only they import each other. */
  entries: readonly string[];
  /** Folders of api/ and files at its root every wing may import; they import floors only. */
  floors: readonly string[];
  /** Every allowed import from one wing into another. */
  wingImports: readonly WingImport[];
  /** The folder pairs that may import each other (at most one), each with its decision. */
  twoWay: readonly { pair: readonly [string, string]; why: string }[];
}

export const API_ENTRIES: readonly string[] = ['app.ts', 'boot.ts', 'server.ts', 'seed.ts', 'dev-route.ts'];

export const API_FLOORS: readonly string[] = [
  'lib', // clock, time, periodic runner, signed tokens, CSV, Markdown, the process id, the sealing keys, the build's stamp
  'site', // the site's words: the brand names, the YAML's defaults, the page publisher's types
  'services', // the outside services' clients, the request limits every replica shares, and the Services type (built by boot.ts)
  'middleware', // the request's guards, its session and cookie, regenerate-after
  'mail', // the outbox every wing mails through, the mails' layout, calendar files
  'settings', // her numbers and rules, read by every wing (decision 0033)
  'money', // one balance, one payment lifecycle: payment attempts, capture, settle, reconcile, refunds owed; the ledger; a gift card's value by its code (decision 0060)
  'env.ts',
  'types.ts',
  'validation.ts',
];

/** Every import from one wing of api/ into another (issue 31: the list is the architecture). */
export const API_WING_IMPORTS: readonly WingImport[] = [
  {
    from: 'booking',
    to: 'agenda/agenda.ts',
    why: 'a slot is offered, booked or moved to only when her agenda leaves it clear, checked again in the claim under its lock (issue 35, decision 0044)',
  },
  {
    from: 'booking',
    to: 'agenda/calendar.ts',
    why: 'a booking attempt first reads her Google busy times again when they are stale, bounded and outside its transaction (issue 35, decision 0044)',
  },
  {
    from: 'practice',
    to: 'agenda/calendar.ts',
    why: 'rotate-keys re-seals her Google Calendar token, sealed with the private records key, with the records (issue 35)',
  },
  {
    from: 'booking',
    to: 'agenda/write-back.ts',
    why: 'a booking, a move and a cancel start the write to her Google Calendar at once, after their commit, not awaited (issue 35, decision 0044)',
  },
  {
    from: 'booking',
    to: 'agenda/overlaps.ts',
    why: 'slots she adds are saved, and the answer names what they overlap in her agenda (issue 35, decision 0044: save, then warn)',
  },
  {
    from: 'classes',
    to: 'agenda/overlaps.ts',
    why: 'an event she adds is saved, and the answer names what its occurrences overlap in her agenda (issue 35, decision 0044: save, then warn)',
  },
  {
    from: 'books',
    to: 'agenda/overlaps.ts',
    why: 'a gig she adds is saved, and the answer names what its classes overlap in her agenda (issue 35, decision 0044: save, then warn)',
  },
  {
    from: 'classes',
    to: 'agenda/lock.ts',
    why: "an event she adds is written under the agenda's lock, as every claim of a slot checks under it (issue 35, decision 0044)",
  },
  {
    from: 'books',
    to: 'agenda/lock.ts',
    why: "a gig she adds is written under the agenda's lock, as every claim of a slot checks under it (issue 35, decision 0044)",
  },
  {
    from: 'forms',
    to: 'agenda/free-meetings.ts',
    why: "the home page's free meeting is booked at a time her agenda leaves clear, checked again under its lock (issue 35, decision 0044)",
  },
  { from: 'accounts', to: 'practice/records.ts', why: "the client's data (export, decision 0025) carries her intake answers and session notes" },
  {
    from: 'accounts',
    to: 'backoffice/newsletter-sender.ts',
    why: 'erasing an account erases her newsletter sends, found by their idempotency key (decision 0029)',
  },
  {
    from: 'accounts',
    to: 'tastings/tastings-of-deleted-account.ts',
    why: 'erasing an account calls off her tastings to come in its one transaction, the teacher told what, never who (issue 47, decision 0053)',
  },
  {
    from: 'accounts',
    to: 'tastings/deleted-account.repo.ts',
    why: 'erasing an account takes her name, address and place off her tastings, whose money the books keep (issue 47, decision 0053)',
  },
  {
    from: 'accounts',
    to: 'gift-cards/gift-cards.ts',
    why: 'erasing an account withholds the gift cards on their way to her and asks their buyers for a new recipient (issue 47, decision 0053)',
  },
  {
    from: 'accounts',
    to: 'agenda/write-back.ts',
    why: "erasing an account renames her events in the teacher's calendar to a neutral title before they are taken out (issue 47, decision 0053)",
  },
  {
    from: 'accounts',
    to: 'booking/sessions-of-deleted-account.ts',
    why: 'erasing an account cancels her coming sessions in the same transaction (decisions 0029, 0033): the two-way pair',
  },
  { from: 'backoffice', to: 'books/gigs.ts', why: 'Today lists her unpaid gigs (issue 30)' },
  { from: 'backoffice', to: 'books/income.repo.ts', why: "the finances page sums income by the books' one definition (decision 0031)" },
  { from: 'backoffice', to: 'books/income.ts', why: "the finances page sums income by the books' one definition (decision 0031)" },
  { from: 'backoffice', to: 'books/sales-tax-report.ts', why: 'the finances page shows the sales tax owed where she is registered (decision 0028)' },
  { from: 'backoffice', to: 'books/tax-year-export.ts', why: "the exports page offers the tax year's files (decision 0026)" },
  { from: 'backoffice', to: 'forms/mails.ts', why: "a newsletter carries the subscription's unsubscribe line, link and headers" },
  { from: 'backoffice', to: 'shop/orders.repo.ts', why: 'the exports list the chocolate orders with their items (decision 0019)' },
  { from: 'booking', to: 'accounts/users.repo.ts', why: "a booking's mails and records name the client (findUserById): the two-way pair" },
  { from: 'booking', to: 'practice/gate.ts', why: 'a first session waits for her intake answers (issue 23)' },
  { from: 'booking', to: 'practice/records.ts', why: 'a moved session takes its notes along (decision 0033)' },
  { from: 'classes', to: 'accounts/users.repo.ts', why: 'a client takes a class place in her own name (findUserById)' },
  { from: 'classes', to: 'pages/pages.repo.ts', why: 'a sign-up records the waiver as she published it' },
  { from: 'gift-cards', to: 'packages/buy-package.ts', why: "a package bought with a card is offered and priced on the package's own scale (decision 0042)" },
  { from: 'gift-cards', to: 'packages/mails.ts', why: 'a package bought with a card is mailed as any package bought (decision 0042)' },
  { from: 'gift-cards', to: 'packages/packages.routes.ts', why: "a package paid partly by a card is refused in the purchase's words (decision 0042)" },
  { from: 'galleries', to: 'images/images.repo.ts', why: "a gallery's photos are the photo pipeline's" },
  { from: 'galleries', to: 'images/upload.ts', why: "a gallery's photos are uploaded through the photo pipeline" },
  { from: 'pages', to: 'backoffice/newsletters.repo.ts', why: 'a journal post can go out as a newsletter (decision 0021)' },
  { from: 'pages', to: 'images/images.repo.ts', why: 'her pages and posts show her photos at their sizes' },
  { from: 'pages', to: 'packages/packages.repo.ts', why: '/yoga offers her packages as the public API shows them (issue 32, decision 0038)' },
  { from: 'pages', to: 'shop/product-views.ts', why: "/chocolates is rendered from the shop's view of its products, never its tables (issue 31)" },
  { from: 'shop', to: 'images/images.repo.ts', why: "a chocolate's photo is the photo pipeline's" },
  { from: 'system', to: 'shop/tax-settings.repo.ts', why: 'GET /api/config tells the site whether she charges sales tax (decision 0028)' },
];

export const API_TWO_WAY: ApiRules['twoWay'] = [
  {
    pair: ['accounts', 'booking'],
    why: 'erasing an account cancels her coming sessions in its one transaction; booking names the client it books (decision 0035)',
  },
];

export const API_RULES: ApiRules = { entries: API_ENTRIES, floors: API_FLOORS, wingImports: API_WING_IMPORTS, twoWay: API_TWO_WAY };

type Kind = 'entry' | 'floor' | 'wing' | 'unplaced';

interface Edge {
  from: string;
  to: string;
  line: number;
  specifier: string;
}

/** `booking/slots.routes.ts` → `booking`; `env.ts` → `env.ts`. */
const unitOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);

/** The file of api/ an import names, relative to api/, or undefined when it lands outside api/. */
function resolveApi(apiDir: string, fromAbs: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(fromAbs), specifier);
  const rel = path.relative(apiDir, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const candidates = [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? target;
  return path.relative(apiDir, found).split(path.sep).join('/');
}

/** Strongly connected components of more than one node (or a node importing itself). */
function circles(nodes: Iterable<string>, next: (n: string) => readonly string[]): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next(v).includes(v)) out.push(scc.sort());
    }
  };
  for (const n of [...nodes].sort()) if (!idx.has(n)) visit(n);
  return out;
}

/** One way round a circle: from its first member back to it, through members only. */
function wayRound(members: readonly string[], next: (n: string) => readonly string[]): string[] {
  const inside = new Set(members);
  const start = members[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next(v)) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const way = [start];
        for (let u = v; u !== start; u = cameFrom.get(u)!) way.splice(1, 0, u);
        return [...way, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** A circle through three members or more, from the first member back to it, if there is one. */
function longCircle(members: readonly string[], next: (n: string) => readonly string[]): string[] | undefined {
  const inside = new Set(members);
  for (const start of members) {
    const way = [start];
    const seen = new Set(way);
    const walk = (v: string): boolean => {
      for (const w of next(v)) {
        if (!inside.has(w)) continue;
        if (w === start && way.length >= 3) return way.push(start) > 0;
        if (seen.has(w)) continue;
        way.push(w);
        seen.add(w);
        if (walk(w)) return true;
        way.pop();
      }
      return false;
    };
    if (walk(start)) return way;
  }
  return undefined;
}

/** What breaks api/'s entries, floors and wings, its circles and its two-way folder pairs. */
export function checkApi(root: string, rules: ApiRules): Violation[] {
  const apiDir = path.join(root, 'api');
  if (!existsSync(apiDir)) return [];
  const at = (file: string) => `api/${file}`;
  const kindOf = (file: string): Kind => {
    const unit = unitOf(file);
    if (!file.includes('/')) return rules.entries.includes(unit) ? 'entry' : rules.floors.includes(unit) ? 'floor' : 'unplaced';
    return rules.floors.includes(unit) ? 'floor' : 'wing';
  };
  const violations: Violation[] = [];
  const edges: Edge[] = [];
  const files: string[] = [];
  for (const abs of sourceFiles(apiDir)) {
    const from = path.relative(apiDir, abs).split(path.sep).join('/');
    files.push(from);
    if (kindOf(from) === 'unplaced') {
      violations.push({ file: at(from), line: 1, specifier: '', rule: "api: a file at api/'s root that is neither an entry nor a floor" });
    }
    for (const { specifier, line } of importsOf(abs, readFileSync(abs, 'utf8'))) {
      const to = resolveApi(apiDir, abs, specifier);
      if (to !== undefined) edges.push({ from, to, line, specifier });
    }
  }

  const used = new Set<WingImport>();
  for (const e of edges) {
    const [fromKind, toKind] = [kindOf(e.from), kindOf(e.to)];
    const [fromUnit, toUnit] = [unitOf(e.from), unitOf(e.to)];
    const report = (rule: string) => violations.push({ file: at(e.from), line: e.line, specifier: e.specifier, rule });
    if (toKind === 'entry' && fromKind !== 'entry') report(`api: ${fromUnit} → entry ${e.to}`);
    else if (fromKind === 'floor' && toKind === 'wing') report(`api: floor ${fromUnit} → wing ${toUnit}`);
    else if (fromKind === 'wing' && toKind === 'wing' && fromUnit !== toUnit) {
      const allowed = rules.wingImports.find((w) => w.from === fromUnit && w.to === e.to);
      if (allowed) used.add(allowed);
      else report(`api: wing ${fromUnit} → ${e.to}, not in API_WING_IMPORTS`);
    }
  }
  for (const w of rules.wingImports) {
    if (!used.has(w))
      violations.push({ file: 'scripts/check-boundaries.ts', line: 0, specifier: w.to, rule: `API_WING_IMPORTS: ${w.from} → ${w.to} is imported no more` });
  }

  // Circles: an import into an entry is reported above, so only entries' own imports of entries count here.
  const circular = edges.filter((e) => kindOf(e.to) !== 'entry' || kindOf(e.from) === 'entry');

  // No circle between files, whatever the import form (a type-only import counts too).
  const byFile = new Map<string, string[]>();
  for (const e of circular) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e.to]);
  const nextFile = (f: string) => byFile.get(f) ?? [];
  for (const members of circles(files, nextFile)) {
    const way = wayRound(members, nextFile);
    const first = circular.find((e) => e.from === way[0] && e.to === way[1])!;
    violations.push({ file: at(first.from), line: first.line, specifier: first.specifier, rule: `api: import circle ${way.join(' → ')}` });
  }

  // Between folders: no two that import each other but the pair API_TWO_WAY names (one at most),
  // and no longer circle.
  if (rules.twoWay.length > 1) {
    violations.push({ file: 'scripts/check-boundaries.ts', line: 0, specifier: '', rule: `API_TWO_WAY names ${rules.twoWay.length} pairs; one at most` });
  }
  const byUnit = new Map<string, Set<string>>();
  for (const e of circular) {
    const [a, b] = [unitOf(e.from), unitOf(e.to)];
    if (a !== b) byUnit.set(a, (byUnit.get(a) ?? new Set()).add(b));
  }
  const imports = (a: string, b: string) => byUnit.get(a)?.has(b) ?? false;
  const named = (a: string, b: string) => rules.twoWay.some(({ pair: [x, y] }) => (x === a && y === b) || (x === b && y === a));
  const firstEdge = (a: string, b: string) => circular.find((e) => unitOf(e.from) === a && unitOf(e.to) === b)!;
  for (const a of [...byUnit.keys()].sort()) {
    for (const b of [...byUnit.get(a)!].sort()) {
      if (a < b && imports(b, a) && !named(a, b)) {
        const e = firstEdge(a, b);
        violations.push({ file: at(e.from), line: e.line, specifier: e.specifier, rule: `api: folders ${a} and ${b} import each other` });
      }
    }
  }
  // A longer circle (three folders or more); a pair is judged above.
  const nextUnit = (u: string) => [...(byUnit.get(u) ?? [])].sort();
  for (const members of circles(byUnit.keys(), nextUnit)) {
    const way = longCircle(members, nextUnit);
    if (!way) continue;
    const e = firstEdge(way[0]!, way[1]!);
    violations.push({ file: at(e.from), line: e.line, specifier: e.specifier, rule: `api: folder circle ${way.join(' → ')}` });
  }
  for (const {
    pair: [a, b],
  } of rules.twoWay) {
    if (!(imports(a, b) && imports(b, a))) {
      violations.push({ file: 'scripts/check-boundaries.ts', line: 0, specifier: '', rule: `API_TWO_WAY: ${a} and ${b} import each other no more` });
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
    console.log(
      `Folder boundaries hold: site → contract, api → contract + db, contract → zod, db → nothing of ours; in api/, ${API_WING_IMPORTS.length} imports between wings, no circle.`,
    );
  }
}
