/**
 * SQL lives in repos (scripts/check-sql-in-repos.ts, issue 31): it holds on this repository, and
 * the check does fail: a fixture tree written to a temp folder puts SQL in a route file in each
 * form the check reads, and leaves a mention in a comment and a string that is not SQL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSqlInRepos, formatPlace, NOT_YET_MOVED } from '../../scripts/check-sql-in-repos.ts';

function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'sql-in-repos-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('SQL in repos', () => {
  it('holds on this repository', () => {
    const { violations, stale } = checkSqlInRepos(path.resolve(import.meta.dirname, '../..'));
    expect(violations.map(formatPlace)).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('gives every file not yet moved its reason', () => {
    for (const [file, why] of Object.entries(NOT_YET_MOVED)) expect(why.length, file).toBeGreaterThan(10);
  });

  describe('on a tree that breaks it', () => {
    const root = writeTree({
      'api/shop/orders.repo.ts': `export const find = (db) => db.selectFrom('orders').selectAll().execute();\n`,
      'api/practice/records.ts': `export const read = (db) => db.selectFrom('intakeAnswers').selectAll().execute();\n`,
      'api/shop/orders.routes.ts': [
        `import { sql } from 'kysely';`,
        `// a comment naming db.selectFrom('orders') is not SQL`,
        `const words = "insertInto('x') in a string is not SQL";`,
        `export const list = (db) => db.selectFrom('orders').selectAll().execute();`,
        `export const add = (trx) => trx.insertInto('orders').values({}).execute();`,
        `export const now = (db) => sql<Date>\`select now()\`.execute(db);`,
        `export const col = () => sql.ref('orders.id');`,
        `export const gone = (db) => db.deleteFrom('orders').execute();`,
        `export const touched = (db) => db.updateTable('orders').set({}).execute();`,
        ``,
      ].join('\n'),
      'api/system/health.routes.ts': `export const ok = 1;\n`,
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('names each place outside a repo and the sealed records, and nothing else', () => {
      const { violations } = checkSqlInRepos(root, { 'api/system/health.routes.ts': 'a fixture entry that holds no SQL' });
      expect(violations.map(formatPlace)).toEqual([
        'api/shop/orders.routes.ts:4: .selectFrom( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:5: .insertInto( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:6: sql`` outside a *.repo.ts file',
        'api/shop/orders.routes.ts:7: sql.ref( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:8: .deleteFrom( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:9: .updateTable( outside a *.repo.ts file',
      ]);
    });

    it('reports an entry of the list whose file holds no SQL any more', () => {
      expect(checkSqlInRepos(root, { 'api/system/health.routes.ts': 'a fixture entry that holds no SQL' }).stale).toEqual(['api/system/health.routes.ts']);
    });
  });
});
