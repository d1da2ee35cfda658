/**
 * `npm run restore -- FILE [--force]`: loads a backup (`npm run backup`, or an automatic one from
 * BACKUP_DIR) into the database `npm start` would open (PGLITE_DIR or DATABASE_URL) and says what
 * it restored, table by table. Only into an empty database: a non-empty one is refused unless
 * --force, and then what it replaces is kept (api/backups/restore.ts says where). Stop the server
 * first. Exit 0 restored, 1 not restored (says why), 2 refused: the database is not empty.
 */
import { loadEnvOrExit, readDotEnv } from '../api/env.ts';
import { RestoreRefused, restoreDatabase } from '../api/backups/restore.ts';
import { sizeAndTime, tablesReport } from '../api/backups/report.ts';

const args = process.argv.slice(2);
const force = args.includes('--force');
const files = args.filter((a) => !a.startsWith('-'));
const unknown = args.filter((a) => a.startsWith('-') && a !== '--force');
if (args.includes('--help') || args.includes('-h') || files.length !== 1 || unknown.length > 0) {
  console.log(
    'Usage: npm run restore -- FILE [--force]\n' +
      '  Loads FILE into the database PGLITE_DIR or DATABASE_URL names, which must be empty;\n' +
      '  --force replaces a non-empty one (PGlite: its folder is kept beside as .before-restore-<time>;\n' +
      '  PostgreSQL: it is saved to BACKUP_DIR/before-restore-<time>.dump first).',
  );
  process.exit(args.includes('--help') || args.includes('-h') ? 0 : 1);
}

readDotEnv();
const env = loadEnvOrExit();
try {
  const result = await restoreDatabase(env, files[0]!, { force });
  console.log(`Restored ${result.file} (${sizeAndTime(result.bytes, result.ms)}) into ${result.where}:\n${tablesReport(result.tables)}`);
  if (result.keptAt) console.log(`What was there before is kept in ${result.keptAt} (delete it once you are satisfied).`);
  console.log('Start the server (npm start): it migrates an older backup forward.');
} catch (err) {
  // Ours say what to do; anything else (a full disk, a permission) is said as the system says it.
  console.error(`Nothing restored: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(err instanceof RestoreRefused ? 2 : 1);
}
