/**
 * A fresh PGlite cluster, made once when the site is built (scripts/build.ts), so that a first
 * start loads it instead of running initdb (issue 36, decision 0051). PGlite's initdb runs in
 * the starting process with three WebAssembly memories at once (the database's own, a second
 * PGlite for the bootstrap, and initdb's, plus a copy of a heap), and peaked the process at
 * about 1.1 GB where a restart needs 0.2 GB for the database: on a 1 GB host, a first start had
 * little room. The template is initdb's own result, made by this very PGlite version with its
 * default initdb arguments, as a gzipped tarball named for the version; another version's is
 * never loaded.
 *
 *   node db/pglite-template.ts <dist dir>   writes <dist dir>/pglite/template-<version>.tar.gz
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/** The installed PGlite's version (its package.json, next to its entry's folder). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where a build keeps the template for the installed PGlite. */
export const pgliteTemplatePath = (distDir: string) => join(distDir, 'pglite', `template-${pgliteVersion()}.tar.gz`);

/**
 * The template's tarball, for PGlite's `loadDataDir`; undefined when there is none for this version.
 * A `.tar` is read as it is (the tests' migrated copy, read by every test file: no gunzip each time).
 */
export function readPgliteTemplate(file: string | undefined): Blob | undefined {
  if (!file || !existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  return new Blob([file.endsWith('.tar') ? bytes : gunzipSync(bytes)]);
}

/** initdb in memory, and its data folder as a gzipped tarball at `file`. */
export async function makePgliteTemplate(file: string): Promise<number> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create();
  try {
    const tar = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    mkdirSync(dirname(file), { recursive: true });
    const gz = gzipSync(tar, { level: 9 });
    writeFileSync(file, gz);
    return gz.length;
  } finally {
    await pglite.close();
  }
}

if (import.meta.main) {
  const distDir = process.argv[2];
  if (!distDir) throw new Error('usage: node db/pglite-template.ts <dist dir>');
  const file = pgliteTemplatePath(distDir);
  const bytes = await makePgliteTemplate(file);
  console.log(`[build] PGlite ${pgliteVersion()}'s fresh cluster: ${file} (${Math.round(bytes / 1024)} KB)`);
}
