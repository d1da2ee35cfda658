/**
 * Handlers on the recipe (scripts/check-handler-recipe.ts, issue 49): it holds on this
 * repository, and the check does fail: a fixture tree written to a temp folder breaks each rule
 * once in a route file, beside handlers written to the recipe that it must leave alone (a table's
 * answer, `commitWithMails` with repo writes, a check of the request answered 400, a kind that is
 * no refusal's); the allow-list is kept short and true.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALLOWED, MAX_ALLOWED, checkHandlerRecipe, formatOff } from '../../../scripts/check-handler-recipe.ts';

function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'handler-recipe-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('handler recipe', () => {
  it('holds on this repository, with a short allow-list that names a reason for each', () => {
    const report = checkHandlerRecipe(path.resolve(import.meta.dirname, '../../..'));
    expect(report.unlisted.map(formatOff)).toEqual([]);
    expect(report.stale).toEqual([]);
    expect(report.overBudget).toBe(false);
    expect(Object.keys(ALLOWED).length).toBeLessThanOrEqual(MAX_ALLOWED);
    for (const reason of Object.values(ALLOWED)) expect(reason.length).toBeGreaterThan(20);
  });

  describe('on a tree that breaks it', () => {
    const route = [
      `import { Hono } from 'hono';`,
      `import { commitWithMails } from '../mail/commit.ts';`,
      `import { queueMails } from '../mail/outbox.repo.ts';`,
      `import { sendQueued } from '../mail/outbox.ts';`,
      `import { insertThing } from './things.repo.ts';`,
      `import { grantThing, makeThing } from './things.ts';`,
      `const answers = { 'not-found': { status: 404, message: 'No such thing' } };`,
      `export const things = new Hono()`,
      `  .post('/tx', async (c) => {`,
      `    await c.var.db.transaction().execute((trx) => insertThing(trx));`,
      `    return c.json({});`,
      `  })`,
      `  .post('/mail', async (c) => {`,
      `    const made = await makeThing(c.var.db);`,
      `    await sendQueued(c.var.services, made.mails);`,
      `    await c.var.mailer.send({ to: 'a@b.c' });`,
      `    return c.json({});`,
      `  })`,
      `  .post('/work', async (c) => {`,
      `    await commitWithMails(c.var.services, async (trx) => ({ result: await grantThing(trx), mails: [] }));`,
      `    return c.json({});`,
      `  })`,
      `  .post('/inline', async (c) => {`,
      `    const result = await makeThing(c.var.db);`,
      `    if (!result.ok) return result.kind === 'not-found' ? c.json({ message: 'No' }, 404) : c.json({ message: 'Taken' }, 409);`,
      `    return c.json({});`,
      `  })`,
      `  .post('/table', async (c) => {`,
      `    const result = await makeThing(c.var.db);`,
      `    if (!result.ok) return c.json({ message: answers[result.kind].message }, answers[result.kind].status);`,
      `    const parsed = check(result.body);`,
      `    if (!parsed.ok) return c.json({ message: parsed.message }, 400);`,
      `    if (c.var.payments.kind === 'emulator') return c.json({});`,
      `    return c.json({});`,
      `  })`,
      `  .post('/commit', async (c) => {`,
      `    await commitWithMails(c.var.services, async (trx) => {`,
      `      await insertThing(trx);`,
      `      return { result: undefined, mails: await queueMails(trx, 'thing', []) };`,
      `    });`,
      `    return c.json({});`,
      `  });`,
      `async function shared(c) {`,
      `  await queueMails(c.var.db, 'thing', []);`,
      `}`,
      ``,
    ].join('\n');
    const root = writeTree({ 'api/things/things.routes.ts': route, 'api/things/things.use-case.ts': `// not a route: never read\nawait db.transaction();\n` });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('names each sign in the handler it is in, and nothing of the handlers on the recipe', () => {
      expect(checkHandlerRecipe(root, {}).unlisted.map(formatOff)).toEqual([
        'api/things/things.routes.ts POST /tx (line 10): transaction: .transaction(',
        'api/things/things.routes.ts POST /tx (line 10): transaction: a function of the route receives trx',
        'api/things/things.routes.ts POST /mail (line 15): mail-by-hand: sendQueued(',
        'api/things/things.routes.ts POST /mail (line 16): mail-by-hand: c.var.mailer.send(',
        'api/things/things.routes.ts POST /work (line 20): use-case-work: grantThing(trx, …) from ./things.ts',
        "api/things/things.routes.ts POST /inline (line 25): inline-refusal: result.kind === 'not-found'",
        'api/things/things.routes.ts POST /inline (line 25): inline-refusal: c.json(…, 404) in if (!ok)',
        'api/things/things.routes.ts POST /inline (line 25): inline-refusal: c.json(…, 409) in if (!ok)',
        'api/things/things.routes.ts shared (line 44): mail-by-hand: queueMails( outside commitWithMails',
      ]);
    });

    it('lets a listed handler through, reports a listed one no longer off the recipe, and counts the list', () => {
      const listed = {
        'api/things/things.routes.ts POST /tx': 'a reason long enough to read',
        'api/things/things.routes.ts POST /table': 'on the recipe already',
      };
      const report = checkHandlerRecipe(root, listed);
      expect(report.unlisted.map((f) => f.handler)).not.toContain('api/things/things.routes.ts POST /tx');
      expect(report.stale).toEqual(['api/things/things.routes.ts POST /table']);
      expect(report.overBudget).toBe(false);
      const six = Object.fromEntries(Array.from({ length: MAX_ALLOWED + 1 }, (_, i) => [`api/things/things.routes.ts POST /${i}`, 'reason']));
      expect(checkHandlerRecipe(root, six).overBudget).toBe(true);
    });
  });
});
