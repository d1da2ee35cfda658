/**
 * Handlers on the recipe (issue 49, docs/handler-recipe.md): every handler of an
 * `api/**\/*.routes.ts` file is read by TypeScript's parser for four signs of a use-case written
 * in the route, each one precise enough to be named without a judgement:
 *
 *   transaction    the route opens a transaction: a `.transaction(` call, or a function of its own
 *                  that receives one (its first parameter is `trx`: the callback of
 *                  `db.transaction().execute`, of `underAgendaLock`…), except the work it hands
 *                  to `commitWithMails` (layer 4 opens that transaction on the route's behalf);
 *   mail-by-hand   a mail sent or queued outside `commitWithMails`: `sendQueued(`, a mailer's
 *                  `.send(`, or `queueMails(` not inside the work handed to `commitWithMails`
 *                  (`sendNow`, the outbox's one call for a mail that reports no change of its
 *                  own, is layer 4 too);
 *   use-case-work  the work handed to a transaction calls a use-case: a function taking `trx`
 *                  first that is imported from neither a `*.repo.ts` file, the mail floor
 *                  (api/mail/) nor TRX_HELPERS below;
 *   inline-refusal a refusal answered without the answers table: a literal status
 *                  (`c.json(…, 404)`) inside `if (!x.ok)` where `x` is a use-case's answer
 *                  (`const x = await …`; a check of the request itself, not awaited, is
 *                  validation and answers 400 in place), or `x.kind` compared with a string
 *                  (`===`, `!==`) in a function that tests `x.ok` (an outcome's kind; the kinds
 *                  of a wall time or a payments adapter are not refusals). An answer function
 *                  the table calls for the kinds that carry data (`checkoutAnswer`, a `switch`
 *                  ending in `default: table[r.kind]`) is the table's, as in the shop's checkout.
 *
 * A handler is a route registration (`.get('/path', …)`, `.post`, `.put`, `.patch`, `.delete`,
 * `.all`, `.on`) of a Hono router, named `file METHOD path`; a sign met in a function of the file
 * outside any registration (a helper the handlers share) is named `file function`. ALLOWED holds
 * the few that stay off the recipe, each with its reason (docs/handler-recipe.md repeats them);
 * at most MAX_ALLOWED. `node scripts/check-handler-recipe.ts` prints each handler off the recipe
 * not on the list and each listed one no longer off it, and exits 1;
 * tests/unit/system/handler-recipe.test.ts runs it inside `npm test`, on this repository and on a fixture
 * tree that breaks each rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type Sign = 'transaction' | 'mail-by-hand' | 'use-case-work' | 'inline-refusal';

export interface OffRecipe {
  /** `api/x/y.routes.ts POST /path` or `api/x/y.routes.ts helperName`. */
  handler: string;
  line: number;
  sign: Sign;
  /** What was found: `.transaction(`, `sendQueued(`, `result.kind === 'x'`… */
  what: string;
}

/**
 * Functions a route may hand its transaction to beside repos and the mail floor: reads and writes
 * that decide nothing, kept out of a repo only for what they compute.
 */
export const TRX_HELPERS: Record<string, string> = {
  brandNames: 'her brand names, a read of her settings (api/site/brand.ts)',
  issueLoginToken: 'a login token: random bytes and their hash, written by login-tokens.repo.ts',
};

/** The handlers that stay off the recipe, each with its reason (docs/handler-recipe.md). */
export const ALLOWED: Record<string, string> = {};

export const MAX_ALLOWED = 5;

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'on']);

const textOf = (node: ts.Node, source: ts.SourceFile) => node.getText(source).replace(/\s+/g, ' ');

/** The handler a node belongs to: the innermost route registration, else the file's top-level function. */
function handlerOf(node: ts.Node, file: string, source: ts.SourceFile): string {
  let top: string | undefined;
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isCallExpression(at) && ts.isPropertyAccessExpression(at.expression) && METHODS.has(at.expression.name.text)) {
      const [first] = at.arguments;
      if (first && ts.isStringLiteralLike(first)) return `${file} ${at.expression.name.text.toUpperCase()} ${first.text}`;
    }
    if ((ts.isFunctionDeclaration(at) || ts.isVariableDeclaration(at)) && at.name && ts.isIdentifier(at.name) && at.parent) {
      const parent = ts.isVariableDeclaration(at) ? at.parent.parent : at;
      if (parent.parent === source) top = at.name.text;
    }
  }
  return `${file} ${top ?? '(module)'}`;
}

/** Whether `node` is inside the work (a function argument) handed to `commitWithMails(…)`. */
function insideCommitWork(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at?.parent; at = at.parent) {
    const parent: ts.Node = at.parent;
    if (
      ts.isCallExpression(parent) &&
      ts.isIdentifier(parent.expression) &&
      parent.expression.text === 'commitWithMails' &&
      parent.arguments.includes(at as ts.Expression)
    ) {
      return ts.isFunctionLike(at);
    }
  }
  return false;
}

/** The function a node is inside whose first parameter is `trx`, if any. */
function trxFunctionOf(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let at: ts.Node | undefined = node; at; at = at.parent) if (ts.isFunctionLike(at) && receivesTrx(at)) return at;
  return undefined;
}

function receivesTrx(fn: ts.SignatureDeclaration): boolean {
  const first = fn.parameters[0];
  return !!first && ts.isIdentifier(first.name) && first.name.text === 'trx';
}

/** Names imported by the file, with the module each comes from. */
function importsOf(source: ts.SourceFile): Map<string, string> {
  const from = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) from.set(el.name.text, statement.moduleSpecifier.text);
  }
  return from;
}

/** A status written as a number: `404`, or `404 as const`. */
const isLiteralStatus = (node: ts.Expression | undefined): boolean =>
  !!node && (ts.isNumericLiteral(node) || (ts.isAsExpression(node) && ts.isNumericLiteral(node.expression)));

/**
 * `!x.ok` where `x` is a use-case's answer (`const x = await …`): the condition of a refusal's
 * branch. A check the route makes of the request itself (`const range = check(schema, …)`, a
 * CSV parsed, a signature decoded: not awaited) is validation, answered 400 where it fails.
 */
function isNotOk(node: ts.Expression): boolean {
  if (!ts.isPrefixUnaryExpression(node) || node.operator !== ts.SyntaxKind.ExclamationToken) return false;
  const { operand } = node;
  return ts.isPropertyAccessExpression(operand) && operand.name.text === 'ok' && ts.isIdentifier(operand.expression) && isAwaitedAnswer(operand.expression);
}

/** Whether `name` is declared, in a function around it, as `const name = await …`. */
function isAwaitedAnswer(name: ts.Identifier): boolean {
  for (let fn: ts.Node | undefined = name.parent; fn; fn = fn.parent) {
    if (!ts.isFunctionLike(fn)) continue;
    let awaited = false;
    const look = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text === name.text &&
        node.initializer &&
        ts.isAwaitExpression(node.initializer)
      )
        awaited = true;
      if (!awaited) ts.forEachChild(node, look);
    };
    look(fn);
    if (awaited) return true;
  }
  return false;
}

/** Whether `node` lies in the then-branch of an `if (!x.ok)`. */
function insideRefusalBranch(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at?.parent; at = at.parent) {
    if (ts.isFunctionLike(at)) return false;
    const parent: ts.Node = at.parent;
    if (ts.isIfStatement(parent) && parent.thenStatement === at && isNotOk(parent.expression)) return true;
  }
  return false;
}

const isKindAccess = (node: ts.Expression) => ts.isPropertyAccessExpression(node) && node.name.text === 'kind';

/**
 * Whether the function around `subject` (an outcome: `result` in `result.kind`) also tests
 * `subject.ok`: its kind is then a refusal's, not a kind of something else (a wall time, a
 * payments adapter, a webhook's action).
 */
function okTestedBeside(subject: ts.Expression, source: ts.SourceFile): boolean {
  let fn: ts.Node | undefined = subject;
  while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
  if (!fn) return false;
  const name = subject.getText(source);
  let tested = false;
  const look = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'ok' && node.expression.getText(source) === name) tested = true;
    if (!tested) ts.forEachChild(node, look);
  };
  look(fn);
  return tested;
}

/** The signs of a use-case written in the route, in one `*.routes.ts` file's source. */
export function offRecipe(file: string, text: string): OffRecipe[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports = importsOf(source);
  const found: OffRecipe[] = [];
  const at = (node: ts.Node, sign: Sign, what: string) =>
    found.push({ handler: handlerOf(node, file, source), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, sign, what });

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (ts.isPropertyAccessExpression(callee) && name === 'transaction') at(node, 'transaction', '.transaction(');
      if (ts.isIdentifier(callee) && name === 'sendQueued') at(node, 'mail-by-hand', 'sendQueued(');
      if (ts.isIdentifier(callee) && name === 'queueMails' && !insideCommitWork(node)) at(node, 'mail-by-hand', 'queueMails( outside commitWithMails');
      if (ts.isPropertyAccessExpression(callee) && name === 'send' && /mailer/i.test(callee.expression.getText(source)))
        at(node, 'mail-by-hand', `${textOf(callee, source)}(`);
      const [first] = node.arguments;
      if (ts.isIdentifier(callee) && first && ts.isIdentifier(first) && first.text === 'trx' && name && !(name in TRX_HELPERS)) {
        const module = imports.get(name);
        if (module && !module.endsWith('.repo.ts') && !/(^|\/)mail\//.test(module)) at(node, 'use-case-work', `${name}(trx, …) from ${module}`);
      }
      if (name === 'json' && isLiteralStatus(node.arguments[1]) && insideRefusalBranch(node))
        at(node, 'inline-refusal', `${textOf(callee, source)}(…, ${textOf(node.arguments[1]!, source)}) in if (!ok)`);
    }
    if (ts.isFunctionLike(node) && receivesTrx(node) && !insideCommitWork(node.parameters[0]!)) {
      // A function of the route's own that receives a transaction: the route opened one.
      if (!trxFunctionOf(node.parent)) at(node, 'transaction', 'a function of the route receives trx');
    }
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
      const kind =
        isKindAccess(node.left) && ts.isStringLiteralLike(node.right)
          ? node.left
          : isKindAccess(node.right) && ts.isStringLiteralLike(node.left)
            ? node.right
            : undefined;
      if (kind && ts.isPropertyAccessExpression(kind) && okTestedBeside(kind.expression, source)) at(node, 'inline-refusal', textOf(node, source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function routeFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFilesUnder(full));
    else if (name.endsWith('.routes.ts')) out.push(full);
  }
  return out;
}

/** Every sign off the recipe in the route files of api/ under `root`, listed or not. */
export function handlersOffRecipe(root: string): OffRecipe[] {
  const found: OffRecipe[] = [];
  for (const full of routeFilesUnder(path.join(root, 'api'))) {
    const file = path.relative(root, full).split(path.sep).join('/');
    found.push(...offRecipe(file, readFileSync(full, 'utf8')));
  }
  return found;
}

export interface RecipeReport {
  /** Handlers off the recipe that ALLOWED does not name, each with its signs. */
  unlisted: OffRecipe[];
  /** Names in ALLOWED that are no longer off the recipe (the list shrinks with the code). */
  stale: string[];
  /** ALLOWED holds more than MAX_ALLOWED. */
  overBudget: boolean;
}

export function checkHandlerRecipe(root: string, allowed: Record<string, string> = ALLOWED): RecipeReport {
  const found = handlersOffRecipe(root);
  const off = new Set(found.map((f) => f.handler));
  return {
    unlisted: found.filter((f) => !(f.handler in allowed)),
    stale: Object.keys(allowed).filter((h) => !off.has(h)),
    overBudget: Object.keys(allowed).length > MAX_ALLOWED,
  };
}

export const formatOff = (f: OffRecipe) => `${f.handler} (line ${f.line}): ${f.sign}: ${f.what}`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const report = checkHandlerRecipe(root);
  for (const f of report.unlisted) console.error(formatOff(f));
  for (const h of report.stale) console.error(`${h}: on the recipe now; take it off ALLOWED`);
  if (report.overBudget) console.error(`ALLOWED holds ${Object.keys(ALLOWED).length} handlers; at most ${MAX_ALLOWED}.`);
  const handlers = new Set(report.unlisted.map((f) => f.handler));
  if (handlers.size || report.stale.length || report.overBudget) {
    console.error(`\n${handlers.size} handler(s) off the recipe (docs/handler-recipe.md) and not in ALLOWED.`);
    process.exitCode = 1;
  } else {
    console.log(`Handler recipe: every handler on it but the ${Object.keys(ALLOWED).length} allowed (${Object.keys(ALLOWED).join('; ') || 'none'}).`);
  }
}
