/**
 * The practice's part of the start (api/boot.ts): the private records' key must open what is
 * stored (else the server refuses to start and says why), the seeded intake form exists, and
 * notes past their retention are deleted.
 */
import type { DB } from '../../db/client.ts';
import { EnvError, type Env } from '../env.ts';
import { keyringOf } from '../lib/keys.ts';
import { checkRecordKeys, KeyCheckError, purgeExpiredNotes } from './records.ts';
import { ensureIntakeForm } from './intake-forms.repo.ts';

export async function preparePractice(db: DB, env: Env): Promise<void> {
  const ring = keyringOf(env);
  try {
    await checkRecordKeys(db, ring);
  } catch (err) {
    if (err instanceof KeyCheckError) throw new EnvError(err.message);
    throw err;
  }
  await ensureIntakeForm(db);
  await purgeExpiredNotes(db);
}
