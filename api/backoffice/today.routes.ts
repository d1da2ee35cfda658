import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { addDays, zonedInstant, zonedNow } from '../lib/time.ts';
import { centsToDollars } from '../../contract/chocolates.ts';
import { TODAY_ITEMS, TODAY_WEEK_DAYS, type TodayFailedMail, type TodayGroup, type TodaySession, type TodayView } from '../../contract/backoffice.ts';
import { adminLinks } from '../../contract/admin-links.ts';
import { listUnsentMails } from '../mail/outbox.repo.ts';
import { unpaidOf } from '../books/gigs.ts';
import { allRefundsOwed } from '../money/refunds-owed.repo.ts';
import { readSettings, readTaxSettings } from '../settings/settings.repo.ts';
import { mailPostalAddress } from '../../contract/settings.ts';
import { missingLabelFacts, missingLicenceFacts, type Allergen } from '../../contract/food.ts';
import {
  classesAhead,
  clientsSince,
  failedNewsletterMails,
  freeMeetingsBetween,
  ordersToDeliver,
  pickupsComing,
  productsMissingLabelFacts,
  sessionsBetween,
  signupsSince,
  unquotedTastings,
} from './today.repo.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * A group: the whole count, its list's address, the first few, each a link to its own row on that
 * list (issue 30: `rowId` is what the row is found by, the item's own id unless said otherwise).
 */
const group = <T extends object>(all: T[], href: string, rowId: (item: T) => string = (i) => ('_id' in i ? String(i._id) : '')): TodayGroup<T> => ({
  count: all.length,
  href,
  items: all.slice(0, TODAY_ITEMS).map((i) => ({ ...i, href: adminLinks.item(href, rowId(i)) })),
});

const sessionView = (s: Awaited<ReturnType<typeof sessionsBetween>>[number]): TodaySession => ({
  _id: s.id,
  startsAt: iso(s.startsAt),
  date: s.date,
  time: s.time,
  clientName: `${s.firstName ?? ''} ${s.lastName ?? ''}`.trim(),
  sessionType: s.sessionType ?? '',
  place: s.place,
});

/** A free meeting a visitor booked (issue 35), as a session of hers: online, with the visitor's name. */
const meetingView = (m: Awaited<ReturnType<typeof freeMeetingsBetween>>[number], zone: string): TodaySession => {
  const at = zonedNow(zone, new Date(m.startsAt));
  return { _id: m.id, startsAt: iso(m.startsAt), date: at.date, time: at.time, clientName: m.name, sessionType: 'Free meeting', place: m.link ?? 'Online' };
};

/**
 * GET /api/admin/today (issue 20): the Today panel at the top of /admin/dashboard, what needs
 * her today, each group with its count and the admin list it is a tap from. Days are her
 * calendar's (SITE_TIMEZONE): "this week" is today and the six days after it, "newest" the last
 * seven days. The queries are today.repo.ts's, each the filter of its list; the refunds owed
 * (issue 47) are the refunds' own (api/money/refunds-owed.repo.ts). Issue 48: what her food
 * licence and her products' labels still lack (contract/food.ts says what counts).
 */
export const adminToday = new Hono<AppEnv>().use('*', requireAdmin()).get('/', async (c) => {
  const { db, env } = c.var.services;
  const now = c.var.services.clock.now();
  const today = zonedNow(env.SITE_TIMEZONE, now).date;
  const weekEnd = addDays(today, TODAY_WEEK_DAYS - 1);
  const since = new Date(now.getTime() - TODAY_WEEK_DAYS * 86_400_000);
  const [orders, pickups, gigs, slotWeek, meetings, classes, failed, signups, clients, unsent, tastings, owed, unlabelled, settings, tax] = await Promise.all([
    ordersToDeliver(db),
    pickupsComing(db),
    unpaidOf(db, today),
    sessionsBetween(db, today, weekEnd),
    freeMeetingsBetween(db, zonedInstant(today, '00:00', env.SITE_TIMEZONE), zonedInstant(addDays(weekEnd, 1), '00:00', env.SITE_TIMEZONE)),
    classesAhead(db, now, weekEnd),
    failedNewsletterMails(db),
    signupsSince(db, since),
    clientsSince(db, since),
    listUnsentMails(db, { since }),
    unquotedTastings(db),
    allRefundsOwed(db),
    productsMissingLabelFacts(db),
    readSettings(db),
    readTaxSettings(db),
  ]);
  // Her sessions and the free meetings booked from the home page, in one list by their start.
  const week = [...slotWeek.map(sessionView), ...meetings.map((m) => meetingView(m, env.SITE_TIMEZONE))].sort(
    (a, b) => a.startsAt.localeCompare(b.startsAt) || a._id.localeCompare(b._id),
  );
  const toHandOver = orders.filter((o) => o.isLocalPickup).length;
  const view: TodayView = {
    today,
    timeZone: env.SITE_TIMEZONE,
    ordersToDeliver: {
      ...group(
        orders.map((o) => ({
          _id: o.id,
          createdAt: iso(o.createdAt),
          payerName: o.payerName,
          total: centsToDollars(o.totalCents),
          isLocalPickup: o.isLocalPickup,
        })),
        adminLinks.orders('paid'),
      ),
      toShip: orders.length - toHandOver,
      toHandOver,
    },
    // Issue 30: a pickup is hers to hand over until it is picked up, ready or not.
    comingPickups: {
      ...group(
        pickups.map((o) => ({
          _id: o.id,
          createdAt: iso(o.createdAt),
          payerName: o.payerName,
          total: centsToDollars(o.totalCents),
          status: o.status as 'paid' | 'ready_for_pickup',
        })),
        adminLinks.comingPickups(),
      ),
      ready: pickups.filter((o) => o.status === 'ready_for_pickup').length,
    },
    unpaidGigs: {
      ...group(
        gigs.map((g) => ({
          _id: g._id,
          date: g.date,
          time: g.time,
          className: g.className,
          location: g.location,
          rateCents: g.rateCents,
          ageDays: g.ageDays,
        })),
        adminLinks.unpaidGigs(),
      ),
      cents: gigs.reduce((sum, g) => sum + g.rateCents, 0),
    },
    sessionsToday: group(
      week.filter((s) => s.date === today),
      adminLinks.sessions(today, today),
    ),
    sessionsThisWeek: (() => {
      // A free meeting is on no list of sessions: its row opens her Week on its day, marked there.
      const meetingIds = new Set(meetings.map((m) => m.id));
      const g = group(week, adminLinks.sessions(today, weekEnd));
      return { ...g, items: g.items.map((i) => (meetingIds.has(i._id) ? { ...i, href: adminLinks.item(adminLinks.week(i.date), i._id) } : i)) };
    })(),
    nextClasses: {
      ...group(
        classes.map((e) => ({
          _id: e.id,
          title: e.title,
          startsAt: iso(e.startsAt),
          date: e.date,
          time: e.time,
          location: e.location,
          taken: e.taken,
          capacity: e.capacity,
          waitlist: e.waitlist,
        })),
        // The events list narrowed to these classes, each with its places taken.
        adminLinks.classesAhead(weekEnd),
      ),
      waitlisted: classes.reduce((sum, e) => sum + e.waitlist, 0),
    },
    // One group (issue 29): a mail that did not leave is one whether it was a newsletter's or not.
    failedMails: {
      ...group<TodayFailedMail>(
        [
          ...unsent.map((m) => ({ source: 'outbox' as const, ...m })),
          ...failed.map((f) => ({ source: 'newsletter' as const, newsletterId: f.id, subject: f.subject, failed: f.failed })),
        ],
        adminLinks.failedMails(),
        // The Mail page's rows: a mail by its id, a newsletter's failures by the newsletter's.
        (m) => (m.source === 'newsletter' ? m.newsletterId : m.id),
      ),
      // The count is of mails, not of newsletters: each failed recipient is one.
      count: unsent.length + failed.reduce((sum, f) => sum + f.failed, 0),
    },
    newSignups: group(
      signups.map((s) => ({ _id: s.id, createdAt: iso(s.createdAt), name: s.name, classTitle: s.classTitle, date: s.date })),
      adminLinks.signupsSince(since),
    ),
    newClients: group(
      clients.map((u) => ({ _id: u.id, createdAt: iso(u.createdAt), name: `${u.firstName} ${u.lastName}`.trim(), email: u.email })),
      adminLinks.clientsSince(since),
    ),
    tastingRequests: group(
      tastings.map((t) => ({ _id: t.id, createdAt: iso(t.createdAt), name: t.name, occasion: t.occasion, guests: t.guests, dates: t.dates })),
      adminLinks.tastingRequests(),
    ),
    // Issue 47: each refund owed opens its client's page (a card's, her gift cards), where it shows.
    refundsOwed: {
      count: owed.length,
      href: adminLinks.refundsOwed(),
      items: owed.slice(0, TODAY_ITEMS).map((r) => ({
        _id: r.id,
        what: r.what,
        amountCents: r.amountCents,
        clientName: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim(),
        attempts: r.attempts,
        lastError: r.lastError,
        since: iso(r.createdAt),
        href: r.userId ? adminLinks.client(r.userId) : adminLinks.giftCards(),
      })),
      cents: owed.reduce((sum, r) => sum + r.amountCents, 0),
    },
    // Issue 48: seeded licensed with no number, so Today asks for it (and a label's other facts) until she sets them.
    foodLicence: { mode: settings.foodLicence.mode, missing: missingLicenceFacts(settings.foodLicence), href: adminLinks.foodLicence() },
    // Issue 48: no newsletter goes without her postal address (CAN-SPAM); a fresh site has none, so Today asks.
    postalAddress: { missing: mailPostalAddress(settings.postalAddress, tax.shopAddress).from === 'none', href: adminLinks.postalAddress() },
    // Issue 48: each product whose label lacks a fact, until she fills them; it opens her products at its own.
    labelFacts: group(
      unlabelled
        // The column holds what the product schema let through: allergens by their names.
        .map((p) => ({ _id: p.id, name: p.name, missing: missingLabelFacts({ ...p, allergens: p.allergens as Allergen[] | null }) }))
        .filter((p) => p.missing.length > 0),
      adminLinks.chocolates(),
    ),
  };
  return c.json(view);
});
