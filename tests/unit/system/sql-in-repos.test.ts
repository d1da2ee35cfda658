/**
 * SQL lives in repos (scripts/check-sql-in-repos.ts, issue 31): it holds on this repository, and
 * the check does fail: a fixture tree written to a temp folder puts SQL in a route file in each
 * form the check reads, and leaves a mention in a comment and a string that is not SQL, and a
 * route that asks its repo (which holds the SQL).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTree } from '../../helpers/temp-tree.ts';
import { checkSqlInRepos, formatPlace } from '../../../scripts/check-sql-in-repos.ts';

describe('SQL in repos', () => {
  it('holds on this repository', () => {
    expect(checkSqlInRepos(path.resolve(import.meta.dirname, '../../..')).map(formatPlace)).toEqual([]);
  });

  describe('on a tree that breaks it', () => {
    const root = writeTree('sql-in-repos', {
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
      'api/system/health.routes.ts': `import { pingDatabase } from './health.repo.ts';\nexport const ok = (db) => pingDatabase(db);\n`,
      'api/system/health.repo.ts': `import { sql } from 'kysely';\nexport const pingDatabase = (db) => sql\`select 1\`.execute(db);\n`,
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('names each place outside a repo and the sealed records, and nothing else', () => {
      expect(checkSqlInRepos(root).map(formatPlace)).toEqual([
        'api/shop/orders.routes.ts:4: .selectFrom( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:5: .insertInto( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:6: sql`` outside a *.repo.ts file',
        'api/shop/orders.routes.ts:7: sql.ref( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:8: .deleteFrom( outside a *.repo.ts file',
        'api/shop/orders.routes.ts:9: .updateTable( outside a *.repo.ts file',
      ]);
    });
  });
});
