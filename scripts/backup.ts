/**
 * `npm run backup [-- FILE]`: the whole database in one file (issue 21), the one `npm start`
 * would open: PGLITE_DIR's embedded database as a PGlite data dump (.tar.gz), or DATABASE_URL's
 * with pg_dump's custom format (.dump). Without FILE: BACKUP_DIR/manual-<time>.<ext>.
 * The embedded database must not be open in a running server (PGlite is one process per folder);
 * a running server makes its own backups (BACKUP_AUTO). Exit 0 done, 1 not done (says why).
 */
import { loadEnvOrExit, readDotEnv } from '../api/env.ts';
import { backupDatabase } from '../api/backups/backup.ts';
import { sizeAndTime, tablesReport } from '../api/backups/report.ts';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h') || args.length > 1 || args.some((a) => a.startsWith('-'))) {
  console.log(
    'Usage: npm run backup [-- FILE]\n  Writes the database PGLITE_DIR or DATABASE_URL names to FILE (default: BACKUP_DIR/manual-<time>.tar.gz or .dump).',
  );
  process.exit(args.includes('--help') || args.includes('-h') ? 0 : 1);
}

readDotEnv();
const env = loadEnvOrExit();
try {
  const result = await backupDatabase(env, args[0]);
  console.log(`Backed up ${result.where} to ${result.file} (${sizeAndTime(result.bytes, result.ms)}):\n${tablesReport(result.tables)}`);
} catch (err) {
  // Ours say what to do; anything else (a full disk, a permission) is said as the system says it.
  console.error(`Backup not made: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
