/**
 * The private records (issue 23, decision 0025): a client's intake answers and her session
 * notes. This module is the only one that seals or opens them, and every function here that
 * opens one writes the access log first (who, whose, what). Nothing here logs, mails or throws
 * the content: a SealError names a key id, never a value.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/client.ts';
import type { AnswerValue, IntakeAnswerView, NoteVersionView, SessionNote } from '../../contract/practice.ts';
import { NOTES_RETENTION_YEARS } from '../../contract/practice.ts';
import { intakeFormVersion } from './intake-forms.repo.ts';
import { open, seal, type Keyring } from '../lib/keys.ts';

const answerContext = (id: string, userId: string) => `intake_answers:${id}:${userId}`;
const noteContext = (id: string, userId: string) => `session_notes:${id}:${userId}`;
const canaryContext = (keyId: string) => `canary:${keyId}`;
const CANARY = 'private-records-canary';

/** Who reads: the admin (her id) or the client themself. */
export type Reader = { actor: 'admin'; adminId: string } | { actor: 'client' };

/** Writes one line of the client's access log. Every read below calls it before opening anything. */
export async function logAccess(db: DB, userId: string, reader: Reader, what: string): Promise<void> {
  await db
    .insertInto('privateAccessLog')
    .values({ userId, actor: reader.actor, adminId: reader.actor === 'admin' ? reader.adminId : null, what })
    .execute();
}

export async function accessLogOf(db: DB, userId: string) {
  const rows = await db
    .selectFrom('privateAccessLog')
    .select(['actor', 'what', 'createdAt'])
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .limit(500)
    .execute();
  return rows.map((r) => ({ at: new Date(r.createdAt).toISOString(), who: r.actor, what: r.what }));
}

// ---------------------------------------------------------------------------------------------
// Intake answers

/** A new answer version, sealed, with the consents given with it (decision 0058: not health data, stored in clear). */
export async function saveIntakeAnswers(
  db: DB,
  ring: Keyring,
  userId: string,
  version: number,
  answers: Record<string, AnswerValue>,
  consents: { collect: boolean; share: boolean },
): Promise<Date> {
  const id = randomUUID();
  const { keyId, sealed } = seal(ring, answerContext(id, userId), JSON.stringify(answers));
  const row = await db
    .insertInto('intakeAnswers')
    .values({ id, userId, formVersion: version, keyId, sealed, collectConsent: consents.collect, shareConsent: consents.share })
    .returning('createdAt')
    .executeTakeFirstOrThrow();
  return new Date(row.createdAt);
}

/** Whether the client has answered the intake (any version); opens nothing. */
export async function hasIntakeAnswers(db: DB, userId: string): Promise<boolean> {
  return !!(await db.selectFrom('intakeAnswers').select('id').where('userId', '=', userId).limit(1).executeTakeFirst());
}

/** Every answer of the client, newest first, opened; logged as one read. */
async function openAnswers(db: DB, ring: Keyring, userId: string): Promise<IntakeAnswerView[]> {
  const rows = await db.selectFrom('intakeAnswers').selectAll().where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id').execute();
  const out: IntakeAnswerView[] = [];
  for (const r of rows) {
    const form = await intakeFormVersion(db, r.formVersion);
    out.push({
      version: r.formVersion,
      answeredAt: new Date(r.createdAt).toISOString(),
      questions: form?.questions ?? [],
      answers: JSON.parse(open(ring, answerContext(r.id, userId), r.keyId, r.sealed)) as Record<string, AnswerValue>,
      consents: { collect: r.collectConsent, share: r.shareConsent },
    });
  }
  return out;
}

/** The client's own latest answers (the client reads them on their intake page). */
export async function readOwnIntake(db: DB, ring: Keyring, userId: string): Promise<IntakeAnswerView | undefined> {
  if (!(await hasIntakeAnswers(db, userId))) return undefined;
  await logAccess(db, userId, { actor: 'client' }, 'their intake answers');
  return (await openAnswers(db, ring, userId))[0];
}

// ---------------------------------------------------------------------------------------------
// Session notes

export async function saveSessionNote(db: DB, ring: Keyring, slotId: string, userId: string, note: SessionNote): Promise<Date> {
  const id = randomUUID();
  const { keyId, sealed } = seal(ring, noteContext(id, userId), JSON.stringify(note));
  const row = await db.insertInto('sessionNotes').values({ id, slotId, userId, keyId, sealed }).returning('createdAt').executeTakeFirstOrThrow();
  return new Date(row.createdAt);
}

/**
 * A session moved to another slot (the client's reschedule, issue 30): its notes, every version,
 * go with it, in the move's transaction. A note is sealed with its own id and the client's, not
 * the slot's, so nothing is opened or sealed again; the record then shows the notes at the new
 * time and no phantom session at the old one.
 */
export async function moveSessionNotes(trx: DB, fromSlotId: string, toSlotId: string, userId: string): Promise<number> {
  const moved = await trx
    .updateTable('sessionNotes')
    .set({ slotId: toSlotId })
    .where('slotId', '=', fromSlotId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
}

/** Every note version of the client, by slot, newest first. */
async function openNotes(db: DB, ring: Keyring, userId: string): Promise<Map<string, NoteVersionView[]>> {
  const rows = await db.selectFrom('sessionNotes').selectAll().where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id').execute();
  const bySlot = new Map<string, NoteVersionView[]>();
  for (const r of rows) {
    const note = JSON.parse(open(ring, noteContext(r.id, userId), r.keyId, r.sealed)) as SessionNote;
    const list = bySlot.get(r.slotId) ?? [];
    list.push({ ...note, savedAt: new Date(r.createdAt).toISOString() });
    bySlot.set(r.slotId, list);
  }
  return bySlot;
}

// ---------------------------------------------------------------------------------------------
// Reads of a whole record

/** The client's intake answers (all versions) and session notes (all versions), logged as one read. */
export async function readPrivateRecord(db: DB, ring: Keyring, userId: string, reader: Reader, what: string) {
  await logAccess(db, userId, reader, what);
  return { answers: await openAnswers(db, ring, userId), notes: await openNotes(db, ring, userId) };
}

/**
 * What an export opens, logged as one read: the intake answers, and for the admin's export (a
 * client who asked her by mail) her session notes too; the client's own download has no notes.
 */
export async function readForExport(
  db: DB,
  ring: Keyring,
  userId: string,
  reader: Reader,
): Promise<{ answers: IntakeAnswerView[]; notes?: Map<string, NoteVersionView[]> }> {
  await logAccess(db, userId, reader, reader.actor === 'client' ? 'their data export' : 'data export');
  const answers = await openAnswers(db, ring, userId);
  return reader.actor === 'admin' ? { answers, notes: await openNotes(db, ring, userId) } : { answers };
}

// ---------------------------------------------------------------------------------------------
// Keys: the check at start, the rotation

export class KeyCheckError extends Error {}

/**
 * At start: every key id on a stored record must be a configured key, and each configured key
 * must open its canary (written on first use). A database with no private record yet takes any
 * key. Returns nothing; throws a message saying why not (key ids, never content).
 */
export async function checkRecordKeys(db: DB, ring: Keyring): Promise<void> {
  const used = new Set<string>();
  for (const table of ['intakeAnswers', 'sessionNotes'] as const) {
    const rows = await db.selectFrom(table).select('keyId').distinct().execute();
    for (const r of rows) used.add(r.keyId);
  }
  const unknown = [...used].filter((id) => !ring.byId.has(id));
  if (unknown.length) {
    throw new KeyCheckError(
      `PRIVATE_RECORDS_KEY can't open the private records stored in this database: they were sealed with key id ${unknown.join(', ')}, and the configured key's id is ${ring.current.id}. ` +
        'Set PRIVATE_RECORDS_KEY to the key they were written with (when rotating, the new key in PRIVATE_RECORDS_KEY and the old one in PRIVATE_RECORDS_OLD_KEYS).',
    );
  }
  const canaries = await db.selectFrom('privateRecordKeys').select(['keyId', 'sealed']).execute();
  for (const canary of canaries) {
    if (!ring.byId.has(canary.keyId)) {
      // A key no record uses (a database restored elsewhere before anything was written): forgotten.
      if (!used.has(canary.keyId)) await db.deleteFrom('privateRecordKeys').where('keyId', '=', canary.keyId).execute();
      continue;
    }
    let opened = false;
    try {
      opened = open(ring, canaryContext(canary.keyId), canary.keyId, canary.sealed) === CANARY;
    } catch {
      opened = false;
    }
    if (!opened)
      throw new KeyCheckError(`The key with id ${canary.keyId} does not open this database's canary: it is not the key the private records were written with.`);
  }
  if (!canaries.some((c) => c.keyId === ring.current.id)) {
    const { sealed } = seal(ring, canaryContext(ring.current.id), CANARY);
    await db
      .insertInto('privateRecordKeys')
      .values({ keyId: ring.current.id, sealed })
      .onConflict((oc) => oc.column('keyId').doNothing())
      .execute();
  }
}

/**
 * Re-seals every record whose key is not the current one with the current key, one row at a
 * time (a row changed meanwhile by another process is left to the next run), then forgets the
 * canaries of keys no record uses. A second run finds nothing to do.
 */
export async function rotateRecordKeys(db: DB, ring: Keyring): Promise<{ answers: number; notes: number }> {
  const counts = { answers: 0, notes: 0 };
  const tables = [
    ['intakeAnswers', answerContext, 'answers'],
    ['sessionNotes', noteContext, 'notes'],
  ] as const;
  for (const [table, context, count] of tables) {
    const rows = await db.selectFrom(table).select(['id', 'userId', 'keyId', 'sealed']).where('keyId', '<>', ring.current.id).execute();
    for (const r of rows) {
      const plain = open(ring, context(r.id, r.userId), r.keyId, r.sealed);
      const next = seal(ring, context(r.id, r.userId), plain);
      const done = await db
        .updateTable(table)
        .set({ keyId: next.keyId, sealed: next.sealed })
        .where('id', '=', r.id)
        .where('keyId', '=', r.keyId)
        .where('sealed', '=', r.sealed)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 1) counts[count]++;
    }
  }
  await checkRecordKeys(db, ring);
  await db.deleteFrom('privateRecordKeys').where('keyId', '<>', ring.current.id).execute();
  return counts;
}

/** The retention rule: notes of a client whose last session is more than 7 years past are deleted. */
export async function purgeExpiredNotes(db: DB): Promise<number> {
  const cutoff = new Date();
  cutoff.setFullYear(cutoff.getFullYear() - NOTES_RETENTION_YEARS);
  const result = await db
    .deleteFrom('sessionNotes')
    .where('createdAt', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('slots').select('slots.id').whereRef('slots.bookedBy', '=', 'sessionNotes.userId').where('slots.startsAt', '>=', cutoff))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
