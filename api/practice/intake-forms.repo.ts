/**
 * Her intake form (issue 23): its versions and whether it is required before a first session.
 * The questions are her words, not private: stored as JSON text. For which session types it is
 * required is one of her settings (the `settings` table's key `intakeRequired`: yoga therapy
 * only until she changes it, issue 30).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import {
  DEFAULT_INTAKE_QUESTIONS,
  DEFAULT_INTAKE_REQUIRED_FOR,
  intakeQuestion,
  intakeRequiredFor as intakeRequiredForSchema,
  type IntakeQuestion,
  type IntakeRequiredFor,
} from '../../contract/practice.ts';

const REQUIRED_KEY = 'intakeRequired';

export interface IntakeForm {
  version: number;
  questions: IntakeQuestion[];
  createdAt: Date;
}

const parseQuestions = (text: string): IntakeQuestion[] => (JSON.parse(text) as unknown[]).map((q) => intakeQuestion.parse(q));

/** The seeded form (version 1) on a database that has none. Safe to call from every process. */
export async function ensureIntakeForm(db: DB): Promise<void> {
  await db
    .insertInto('intakeForms')
    .values({ version: 1, questions: JSON.stringify(DEFAULT_INTAKE_QUESTIONS) })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
}

export async function currentIntakeForm(db: DB): Promise<IntakeForm> {
  let row = await db.selectFrom('intakeForms').selectAll().orderBy('version', 'desc').limit(1).executeTakeFirst();
  if (!row) {
    await ensureIntakeForm(db);
    row = await db.selectFrom('intakeForms').selectAll().orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
  }
  return { version: row.version, questions: parseQuestions(row.questions), createdAt: new Date(row.createdAt) };
}

export async function intakeFormVersion(db: DB, version: number): Promise<IntakeForm | undefined> {
  const row = await db.selectFrom('intakeForms').selectAll().where('version', '=', version).executeTakeFirst();
  return row && { version: row.version, questions: parseQuestions(row.questions), createdAt: new Date(row.createdAt) };
}

/** Every version, newest first, with how many answers each has. */
export async function intakeFormVersions(db: DB) {
  const rows = await db
    .selectFrom('intakeForms as f')
    .leftJoin('intakeAnswers as a', 'a.formVersion', 'f.version')
    .select(['f.version', 'f.createdAt', sql<number>`count(a.id)::int`.as('answers')])
    .groupBy(['f.version', 'f.createdAt'])
    .orderBy('f.version', 'desc')
    .execute();
  return rows.map((r) => ({ version: r.version, createdAt: new Date(r.createdAt).toISOString(), answers: Number(r.answers) }));
}

/**
 * Saves her form as a new version (PUT /api/admin/intake always makes one, as page revisions
 * do); the answers given so far keep the version they answered. Two saves at once: the second
 * insert conflicts on the version and is retried on top of the first.
 */
export async function saveIntakeForm(db: DB, questions: IntakeQuestion[]): Promise<{ version: number }> {
  for (let attempt = 0; ; attempt++) {
    const current = await currentIntakeForm(db);
    const inserted = await db
      .insertInto('intakeForms')
      .values({ version: current.version + 1, questions: JSON.stringify(questions) })
      .onConflict((oc) => oc.column('version').doNothing())
      .returning('version')
      .executeTakeFirst();
    if (inserted) return { version: inserted.version };
    if (attempt > 2) throw new Error('intake form: could not save a new version');
  }
}

/**
 * For which session types she requires the intake (issue 30): as she set it, else yoga therapy
 * only. Issue 23 stored one switch (true or false) for every type; it reads as that for both.
 */
export async function intakeRequiredFor(db: DB): Promise<IntakeRequiredFor> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', REQUIRED_KEY).executeTakeFirst();
  if (!row) return DEFAULT_INTAKE_REQUIRED_FOR;
  try {
    const value: unknown = JSON.parse(row.value);
    if (typeof value === 'boolean') return { individualYoga: value, yogaTherapy: value };
    const parsed = intakeRequiredForSchema.safeParse(value);
    return parsed.success ? parsed.data : DEFAULT_INTAKE_REQUIRED_FOR;
  } catch {
    return DEFAULT_INTAKE_REQUIRED_FOR;
  }
}

export async function setIntakeRequiredFor(db: DB, requiredFor: IntakeRequiredFor): Promise<void> {
  const value = JSON.stringify(requiredFor);
  await db
    .insertInto('settings')
    .values({ key: REQUIRED_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: sql<Date>`now()` }))
    .execute();
}
