/**
 * What the Today panel counts (issue 20), each the same filter as the admin list it links to, so
 * a count on the panel is the number of rows she finds there: paid orders (GET
 * /api/admin/orders?status=paid), pickups to hand over (GET /api/admin/orders?pickup=coming), booked sessions by their date on her calendar (GET
 * /api/bookings), classes by their start with their sign-ups (counted as classSeats counts them)
 * and waitlists (GET /api/admin/signups, /api/admin/waitlist), the newsletter outbox's failures
 * (GET /api/admin/newsletters), class sign-ups and clients by when they came (GET
 * /api/admin/signups, /api/admin/users).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

/** Paid orders: neither shipped nor picked up yet. Newest first. */
export async function ordersToDeliver(db: DB) {
  return db
    .selectFrom('orders')
    .select(['id', 'createdAt', 'payerName', 'totalCents', 'isLocalPickup'])
    .where('status', '=', 'paid')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Pickup orders still to be handed over (issue 30): paid, or ready for pickup. Newest first, as the orders list. */
export async function pickupsComing(db: DB) {
  return db
    .selectFrom('orders')
    .select(['id', 'createdAt', 'payerName', 'totalCents', 'status'])
    .where('isLocalPickup', '=', true)
    .where('status', 'in', ['paid', 'ready_for_pickup'])
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Booked sessions whose date (on her calendar) is from `fromDate` to `toDate`, soonest first. */
export async function sessionsBetween(db: DB, fromDate: string, toDate: string) {
  return db
    .selectFrom('slots')
    .select(['id', 'date', 'time', 'startsAt', 'firstName', 'lastName', 'sessionType', 'place'])
    .where('bookedAt', 'is not', null)
    .where('date', '>=', fromDate)
    .where('date', '<=', toDate)
    .orderBy('startsAt')
    .orderBy('id')
    .execute();
}

/** Free meetings visitors booked (issue 35), not cancelled, starting in [from, to), soonest first. */
export async function freeMeetingsBetween(db: DB, from: Date, to: Date) {
  const { rows } = await sql<{ id: string; startsAt: Date; name: string; link: string | null }>`
    select id, starts_at, name, link from free_meetings
     where cancelled_at is null and starts_at >= ${from} and starts_at < ${to}
     order by starts_at, id`.execute(db);
  return rows;
}

/**
 * Classes that start after `now` and on or before `lastDate` (her calendar), soonest first, with
 * their places taken (a sign-up belongs to its event by id, or by title and date, as classSeats
 * counts) and their waitlists. Three queries: the classes, then the counts of just those.
 */
export async function classesAhead(db: DB, now: Date, lastDate: string) {
  const events = await db
    .selectFrom('events')
    .select(['id', 'title', 'date', 'time', 'startsAt', 'location', 'capacity'])
    .where('startsAt', '>', now)
    .where('date', '<=', lastDate)
    .orderBy('startsAt')
    .orderBy('id')
    .execute();
  if (events.length === 0) return [];
  const ids = events.map((e) => e.id);
  const [taken, waiting] = await Promise.all([
    db
      .selectFrom('events as e')
      .innerJoin('classSignups as s', (j) =>
        j.on((eb) => eb.or([eb('s.eventId', '=', eb.ref('e.id')), eb.and([eb('s.classTitle', '=', eb.ref('e.title')), eb('s.date', '=', eb.ref('e.date'))])])),
      )
      .select(['e.id', sql<number>`count(distinct s.id)::int`.as('n')])
      .where('e.id', 'in', ids)
      .groupBy('e.id')
      .execute(),
    db
      .selectFrom('classWaitlist')
      .select(['eventId', sql<number>`count(*)::int`.as('n')])
      .where('eventId', 'in', ids)
      .groupBy('eventId')
      .execute(),
  ]);
  const takenOf = new Map(taken.map((r) => [r.id, r.n]));
  const waitingOf = new Map(waiting.map((r) => [r.eventId, r.n]));
  return events.map((e) => ({ ...e, taken: takenOf.get(e.id) ?? 0, waitlist: waitingOf.get(e.id) ?? 0 }));
}

/** Newsletter mails that failed, by newsletter, newest newsletter first. */
export async function failedNewsletterMails(db: DB) {
  return db
    .selectFrom('newsletterOutbox as o')
    .innerJoin('newsletters as n', 'n.id', 'o.newsletterId')
    .select(['n.id', 'n.subject', sql<number>`count(*)::int`.as('failed')])
    .where('o.state', '=', 'failed')
    .groupBy(['n.id', 'n.subject', 'n.createdAt'])
    .orderBy('n.createdAt', 'desc')
    .execute();
}

/** Class sign-ups made since `since`, newest first. */
export async function signupsSince(db: DB, since: Date) {
  return db
    .selectFrom('classSignups')
    .select(['id', 'createdAt', 'name', 'classTitle', 'date'])
    .where('createdAt', '>=', since)
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
}

/** Clients registered since `since`, newest first. */
export async function clientsSince(db: DB, since: Date) {
  return db
    .selectFrom('users')
    .select(['id', 'createdAt', 'firstName', 'lastName', 'email'])
    .where('createdAt', '>=', since)
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
}

/** Tasting requests she has not answered with a quote yet (issue 34), newest first. */
export async function unquotedTastings(db: DB) {
  return db
    .selectFrom('tastingRequests as r')
    .leftJoin('tastingQuotes as q', 'q.requestId', 'r.id')
    .select(['r.id', 'r.createdAt', 'r.name', 'r.occasion', 'r.guests', 'r.dates'])
    .where('q.id', 'is', null)
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id')
    .execute();
}

/**
 * Products whose label still lacks a fact (issue 48, contract/food.ts missingLabelFacts): no
 * ingredients, allergens not said (an empty list is "none" only when she said so), or no net
 * weight. By name, as her products list. One query; what each lacks is missingLabelFacts's.
 */
export async function productsMissingLabelFacts(db: DB) {
  return db
    .selectFrom('products')
    .select(['id', 'name', 'ingredients', 'allergens', 'allergenFree', 'netWeightGrams'])
    .where((eb) =>
      eb.or([
        // Blank: nothing but white space (what missingLabelFacts's trim() finds empty).
        eb('ingredients', '!~', '\\S'),
        eb('allergens', 'is', null),
        eb.and([eb(sql<number>`cardinality(allergens)`, '=', 0), eb('allergenFree', '=', false)]),
        eb('netWeightGrams', 'is', null),
      ]),
    )
    .orderBy('name')
    .orderBy('id')
    .execute();
}
