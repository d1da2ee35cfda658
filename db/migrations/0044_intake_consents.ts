import type { Kysely } from 'kysely';

/**
 * Issue 48 (decision 0058): Washington's My Health My Data Act (RCW 19.373.030) asks for a
 * consent to collect health data and, separately, a consent to share it. Each saved answer
 * version of the intake records both, beside the sealed answers (the flags are not health data
 * and are read without opening anything):
 *
 * - collect_consent: the client agreed, with these answers, that her teacher collects and keeps
 *   them. False on the rows saved before this migration: the site did not ask it as such then.
 * - share_consent: the client allowed her teacher to discuss the case with her yoga-therapy
 *   supervisor; false unless ticked. The latest row is the client's current choice; changing it
 *   is a new version, so the history of the choice stays with the answers.
 *
 * Both go with the account (the rows are deleted on cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('intake_answers')
    .addColumn('collect_consent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('share_consent', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('intake_answers').dropColumn('collect_consent').dropColumn('share_consent').execute();
}
