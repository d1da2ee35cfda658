/**
 * `npm run rotate-keys`: re-encrypts every intake answer and session note with the current key
 * (issue 23, decision 0025). To rotate: put the new key in PRIVATE_RECORDS_KEY and the old one
 * in PRIVATE_RECORDS_OLD_KEYS, restart the server (it reads both), run this, then remove
 * PRIVATE_RECORDS_OLD_KEYS. Safe to rerun: a second run changes nothing. Exit 0 done, 1 not done.
 */
import { EnvError, loadEnvOrExit, readDotEnv } from '../api/env.ts';
import { rotateKeys } from '../api/practice/rotate.ts';

if (process.argv.length > 2) {
  console.log('Usage: npm run rotate-keys\n  Re-encrypts the private records with PRIVATE_RECORDS_KEY (older ones read with PRIVATE_RECORDS_OLD_KEYS).');
  process.exit(process.argv.includes('--help') || process.argv.includes('-h') ? 0 : 1);
}

readDotEnv();
const env = loadEnvOrExit();
try {
  const done = await rotateKeys(env);
  console.log(
    `Re-encrypted ${done.answers} intake answer(s), ${done.notes} session note version(s), ${done.calendarTokens} Google Calendar token(s) and ${done.mails} waiting mail(s) with key ${done.keyId}. ` +
      (done.answers + done.notes + done.calendarTokens + done.mails === 0 ? 'Nothing was left to do.' : 'You can now remove PRIVATE_RECORDS_OLD_KEYS.'),
  );
} catch (err) {
  console.error(`Keys not rotated: ${err instanceof EnvError || err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
