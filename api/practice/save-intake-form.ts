/**
 * Her intake form saved (PUT /api/admin/intake; issues 23, 30, 31): a new version of the
 * questions and, when she chose it, for which session types it is required, in one transaction:
 * both are saved, or neither.
 */
import type { DB } from '../../db/client.ts';
import type { IntakeQuestion, IntakeRequiredFor } from '../../contract/practice.ts';
import { saveIntakeForm, setIntakeRequiredFor } from './intake-forms.repo.ts';

/** Saves `questions` as a new version and `requiredFor` (undefined: left as it was); answers the version. */
export async function saveIntake(db: DB, questions: IntakeQuestion[], requiredFor: IntakeRequiredFor | undefined): Promise<{ version: number }> {
  return db.transaction().execute(async (trx) => {
    const saved = await saveIntakeForm(trx, questions);
    if (requiredFor) await setIntakeRequiredFor(trx, requiredFor);
    return saved;
  });
}
