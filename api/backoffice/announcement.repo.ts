/** The one site announcement (row id 1). */
import type { DB } from '../../db/client.ts';
import type { AnnouncementInput } from '../../contract/backoffice.ts';

const columns = ['message', 'link', 'startsAt', 'endsAt', 'updatedAt'] as const;

export async function findAnnouncement(db: DB) {
  return db.selectFrom('announcements').select(columns).where('id', '=', 1).executeTakeFirst();
}

/** The announcement if it is live at `now` (started, or no start; not ended, or no end). */
export async function liveAnnouncement(db: DB, now: Date) {
  return db
    .selectFrom('announcements')
    .select(columns)
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('startsAt', 'is', null), eb('startsAt', '<=', now)]))
    .where((eb) => eb.or([eb('endsAt', 'is', null), eb('endsAt', '>', now)]))
    .executeTakeFirst();
}

export async function saveAnnouncement(db: DB, a: AnnouncementInput & { message: string }) {
  const values = { message: a.message, link: a.link, startsAt: a.startsAt, endsAt: a.endsAt, updatedAt: new Date() };
  return db
    .insertInto('announcements')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function clearAnnouncement(db: DB): Promise<void> {
  await db.deleteFrom('announcements').where('id', '=', 1).execute();
}
