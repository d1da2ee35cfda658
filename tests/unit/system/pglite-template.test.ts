/**
 * Decision 0051: a new PGlite database is loaded from the build's fresh cluster (db/pglite-template.ts)
 * instead of running initdb. The build has one for the installed PGlite; a database made from it
 * is the one initdb makes (encoding, collation, its settings) and keeps what is written to it; a
 * folder that already holds a database is never loaded over; without a template initdb runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { pgliteTemplatePath, pgliteVersion, readPgliteTemplate } from '../../../db/pglite-template.ts';
import { distDirOf } from '../../../api/lib/build-info.ts';
import { must } from '../../helpers/guards.ts';

const template = pgliteTemplatePath(distDirOf());
const root = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What initdb decided about a cluster, as a database reads it. */
async function clusterOf(handle: DatabaseHandle) {
  const { rows } = await sql<{ datcollate: string; datctype: string; encoding: number; dbs: string; role: string }>`
    select datcollate, datctype, encoding, (select string_agg(datname, ',' order by datname) from pg_database) as dbs, current_user as role
    from pg_database where datname = current_database()`.execute(handle.db.withoutPlugins());
  return rows[0];
}

describe('a new PGlite database from the fresh cluster the build made', () => {
  it('the build holds a template for the installed PGlite, and none is read for another version', () => {
    expect(template).toContain(`template-${pgliteVersion()}.tar.gz`);
    expect(existsSync(template), 'dist/pglite has no template: run npm run build').toBe(true);
    expect(must(readPgliteTemplate(template), 'readPgliteTemplate(template)').size).toBeGreaterThan(1_000_000);
    expect(readPgliteTemplate(template.replace(pgliteVersion(), '0.0.0'))).toBeUndefined();
    expect(readPgliteTemplate(undefined)).toBeUndefined();
  });

  it("is initdb's cluster, keeps what is written, and is never loaded over a folder that holds a database", async () => {
    const initdb = await openDatabase({ pgliteDir: 'memory://' });
    const made = await clusterOf(initdb);
    await initdb.close();

    const dir = path.join(root, 'site');
    const first = await openDatabase({ pgliteDir: dir, pgliteTemplate: template });
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    expect(await clusterOf(first)).toEqual(made);
    await sql`create table kept (word text)`.execute(first.db);
    await sql`insert into kept values ('namaste')`.execute(first.db);
    await first.close();

    const again = await openDatabase({ pgliteDir: dir, pgliteTemplate: template });
    const { rows } = await sql<{ word: string }>`select word from kept`.execute(again.db);
    expect(rows).toEqual([{ word: 'namaste' }]);
    await again.close();
  });

  it('in memory too, and without a template initdb makes it as before', async () => {
    const loaded = await openDatabase({ pgliteDir: 'memory://', pgliteTemplate: template });
    const made = await openDatabase({ pgliteDir: path.join(root, 'no-template'), pgliteTemplate: path.join(root, 'none.tar.gz') });
    expect(await clusterOf(loaded)).toEqual(await clusterOf(made));
    await loaded.close();
    await made.close();
  });
});
