/**
 * A migrated database, made once per run and copied for each test file (issue 49: CI in fifteen
 * minutes). Every test server used to run all the migrations on its new database: about a second
 * on PostgreSQL and two on PGlite, for each of some 250 files. tests/global-setup.ts makes the
 * copies' source once; tests/helpers/database.ts hands each file its copy:
 *
 * - PGlite: the data folder of a migrated in-memory cluster, as a tarball a new PGlite loads
 *   (decision 0051's template, one step further);
 * - PostgreSQL: a migrated database other databases are created from (CREATE DATABASE … TEMPLATE).
 *
 * Both are named for the migrations' sources and PGlite's version, so a changed or added migration
 * makes new ones and an old copy is never used. The product's own start is untouched: it still
 * migrates what it opens (api/boot.ts takes the copy only from a test's options).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { pgliteTemplatePath, pgliteVersion } from '../../db/pglite-template.ts';
import { distDirOf } from '../../api/lib/build-info.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = path.join(root, 'node_modules', '.cache', 'migrated-copies');

/** What the copies are made of: every migration's source, the list that runs them, PGlite's version. */
function migrationsKey(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  const dir = path.join(root, 'db', 'migrations');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  hash.update(readFileSync(path.join(root, 'db', 'migrate.ts')));
  return hash.digest('hex').slice(0, 16);
}

/** The migrated PGlite cluster's tarball for these migrations. */
export const pgliteCopyPath = () => path.join(cacheDir, `pglite-${migrationsKey()}.tar`);

/** The migrated PostgreSQL database's name for these migrations. */
export const postgresCopyName = () => `migrated_${migrationsKey()}`;

/** Makes the PGlite tarball when it is missing (written whole, then renamed: never read half written). */
export async function ensurePgliteCopy(): Promise<string> {
  const file = pgliteCopyPath();
  if (existsSync(file)) return file;
  const handle = await openDatabase({ pgliteDir: 'memory://', pgliteTemplate: pgliteTemplatePath(distDirOf()) });
  try {
    await migrateToLatest(handle.db);
    const tar = Buffer.from(await (await handle.pglite!.dumpDataDir('none')).arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    for (const old of readdirSync(cacheDir)) if (old.startsWith('pglite-')) rmSync(path.join(cacheDir, old), { force: true });
    writeFileSync(`${file}.part`, tar);
    renameSync(`${file}.part`, file);
    return file;
  } finally {
    await handle.close();
  }
}

/** Makes the migrated PostgreSQL database on the server `adminUrl` names when it is missing; drops older ones. */
export async function ensurePostgresCopy(adminUrl: string): Promise<string> {
  const name = postgresCopyName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'migrated\\_%'`);
    for (const { datname } of rows) if (datname !== name) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    if (rows.some((r) => r.datname === name)) return name;
    // Migrated under another name and renamed when whole: a run cut off halfway leaves no copy behind it.
    const making = `${name}_making`;
    await admin.query(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${making}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${making}`;
    const handle = await openDatabase({ url: url.toString(), poolMax: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    await admin.query(`ALTER DATABASE "${making}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}
