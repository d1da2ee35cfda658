/**
 * What the roster page and a client's page read (issue 34): an event with its people, its weekly
 * series' attendance over the last six months and the waiver a walk-in signs; a client's
 * classes with their marks.
 */
import type { Services } from '../services/index.ts';
import { waiverContent, fillPlaceholders } from '../../contract/content.ts';
import type { ClientClassView, RosterView, WaiverTextView } from '../../contract/roster.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { currentWaiver, findRevision } from '../pages/pages.repo.ts';
import { defaultContent } from '../site/defaults.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { classesOfEmail, findRosterEvent, rosterSignups, seriesAttendance } from './roster.repo.ts';

type Deps = Pick<Services, 'db' | 'clock' | 'env'>;

/** How far back the series' chart looks. */
const SERIES_MONTHS = 6;

/** The waiver published now, in her words (the revision waiverNow records); the build's text before any is published. */
async function waiverText(db: Services['db']): Promise<WaiverTextView> {
  const published = await currentWaiver(db);
  const revision = published && (await findRevision(db, 'waiver', published.revision));
  const parsed = waiverContent.safeParse(revision?.content);
  return fillPlaceholders(parsed.success ? parsed.data : defaultContent().waiver, await readSettings(db));
}

/** The roster of event `eventId`; null when there is no such event. */
export async function rosterOf({ db, clock, env }: Deps, eventId: string): Promise<RosterView | null> {
  const event = await findRosterEvent(db, eventId);
  if (!event) return null;
  const now = clock.now();
  const since = addMonths(zonedNow(env.SITE_TIMEZONE, now).date, -SERIES_MONTHS);
  const [people, series, waiver] = await Promise.all([
    rosterSignups(db, eventId),
    event.seriesId ? seriesAttendance(db, event.seriesId, since, now) : Promise.resolve([]),
    waiverText(db),
  ]);
  return {
    event: {
      _id: event.id,
      title: event.title,
      date: event.date,
      time: event.time,
      location: event.location,
      capacity: event.capacity,
      isPast: new Date(event.startsAt).getTime() <= now.getTime(),
      cancelled: event.cancelledAt !== null,
      inSeries: event.seriesId !== null,
    },
    people: people.map((p) => ({
      _id: p.id,
      name: p.name,
      email: p.email,
      phone: p.phone,
      attendance: p.attendance,
      walkIn: p.walkIn,
      payment: p.payment,
      hasSignature: Boolean(p.hasSignature),
    })),
    series: series.map((s) => ({ _id: s.id, date: s.date, capacity: s.capacity, signedUp: s.signedUp, present: s.present, noShow: s.noShow })),
    waiver,
  };
}

/** The classes of client `userId` (by their e-mail), latest first; null when there is no such client. */
export async function classesOfClient({ db, clock }: Pick<Services, 'db' | 'clock'>, userId: string): Promise<ClientClassView[] | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const now = clock.now().getTime();
  return (await classesOfEmail(db, user.email)).map((c) => ({
    _id: c.id,
    eventId: c.eventId,
    classTitle: c.classTitle,
    date: c.date,
    time: c.time,
    past: c.startsAt ? new Date(c.startsAt).getTime() <= now : true,
    attendance: c.attendance,
    walkIn: c.walkIn,
  }));
}
