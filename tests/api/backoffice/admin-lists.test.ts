/**
 * Issue 36 (decision 0046): the admin's lists a page at a time. Orders, clients, the admin's
 * bookings and class sign-ups each answer at most `limit` rows (50 when not given, 200 at most) in
 * their own order, the next page's cursor in X-Next-Cursor and Link; walking the cursors meets
 * every row once, rows sharing a timestamp too; `q` and each list's filters narrow on the server;
 * a bad limit or cursor is a 400 with its words; without the admin's session, 401 as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { CURSOR_INVALID, LIMIT_INVALID, MAX_PAGE_SIZE, PAGE_SIZE } from '../../../contract/paging.ts';
import { CURSOR_NEEDS_LIST } from '../../../contract/slots.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
let client: string;

/** One instant many rows share (to the microsecond): the keyset's tie on the id is what orders them. */
const TIE = '2025-03-14 09:26:53.589793+00';

beforeAll(async () => {
  admin = await adminCookie(server);
  client = (await createUser(server)).cookie;
  const { db: database } = server.services;
  // 60 clients: 20 registered at one instant, the rest an hour apart; one of them years back.
  await sql`insert into users (email, first_name, last_name, created_at)
    select 'pager' || g || '@example.com', 'Pager' || g, case when g = 60 then 'Oldenburg_%' else 'Lister' end,
           case when g <= 20 then ${TIE}::timestamptz when g = 60 then now() - interval '9 years' else now() - g * interval '1 hour' end
    from generate_series(1, 60) g`.execute(database);
  // 30 orders: 12 at one instant; statuses in turn, every third a pickup; two items each.
  await sql`insert into orders (paypal_order_id, payer_name, payer_email, items_total_cents, discount_cents, shipping_cents, total_cents, is_local_pickup, status, created_at)
    select 'PAGE-' || g, 'Buyer ' || g, 'buyer' || g || '@example.com', 2400, 0, 0, 2400, g % 3 = 0,
           (array['paid', 'shipped', 'ready_for_pickup', 'picked_up', 'refunded'])[1 + g % 5],
           case when g <= 12 then ${TIE}::timestamptz else now() - g * interval '1 day' end
    from generate_series(1, 30) g`.execute(database);
  await sql`insert into order_items (order_id, name, unit_price_cents, quantity)
    select o.id, item.name, 1200, 1 from orders o cross join (values ('Dark'), ('Milk')) item(name)`.execute(database);
  // 40 sign-ups: 15 for one class made at one instant, the others a class a day back.
  await sql`insert into class_signups (class_title, date, name, email, created_at)
    select case when g <= 15 then 'Full Moon Flow' else 'Flow ' || g end,
           case when g <= 15 then '2025-03-20' else to_char(date '2025-03-19' - g, 'YYYY-MM-DD') end,
           'Student ' || g, 'student' || g || '@example.com', case when g <= 15 then ${TIE}::timestamptz else now() - g * interval '1 day' end
    from generate_series(1, 40) g`.execute(database);
  // Slots: 9 free ahead, 7 booked ahead, 11 passed sessions.
  await sql`insert into slots (date, time, starts_at, booked_at, first_name, last_name, email, session_type)
    select to_char(t at time zone 'America/Los_Angeles', 'YYYY-MM-DD'), to_char(t at time zone 'America/Los_Angeles', 'HH24:MI'), t,
           case when booked then t - interval '30 days' end, case when booked then 'Client' || g end, case when booked then 'Slotter' end,
           case when booked then 'slot' || g || '@example.com' end, case when booked then 'Individual Yoga' end
    from (select g, g > 9, date_trunc('hour', now()) + (case when g <= 16 then g else -(g - 16) end) * interval '1 day 1 hour'
          from generate_series(1, 27) g) x(g, booked, t)`.execute(database);
});

/** A GET with the admin's session, another cookie, or none (null). */
const get = (path: string, cookie: string | null = admin) => server.api(path, { headers: cookie ? { cookie } : {} });

/** Every page of `path` at `limit`, following X-Next-Cursor; the ids in the order met, and each page's size. */
async function walk(path: string, limit: number): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let url: string | null = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`;
  while (url) {
    const res = await get(url);
    expect(res.status, url).toBe(200);
    const rows = (await res.json()) as { _id: string }[];
    expect(Array.isArray(rows)).toBe(true);
    sizes.push(rows.length);
    ids.push(...rows.map((r) => r._id));
    const next = res.headers.get('x-next-cursor');
    if (next) {
      // The Link header is the same page's address with the cursor: the browser may follow either.
      const link = res.headers.get('link')!;
      expect(link).toMatch(/^<\/api\/[^>]+>; rel="next"$/);
      const linked = new URL(link.slice(1, link.indexOf('>')), 'http://x');
      expect(linked.searchParams.get('cursor')).toBe(next);
      expect(linked.searchParams.get('limit')).toBe(String(limit));
    } else expect(res.headers.get('link')).toBeNull();
    url = next ? `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&cursor=${encodeURIComponent(next)}` : null;
    expect(sizes.length).toBeLessThan(100);
  }
  return { ids, sizes };
}

/** The database the server under test writes (known once it started). */
const db = () => server.services.db;

describe(`the admin's lists, a page at a time, on ${testDbKind()}`, () => {
  it('clients: 50 by default, pages bounded at the limit, every client once in order (ties on the instant too)', async () => {
    const first = await get('/api/admin/users');
    const rows = (await first.json()) as { _id: string }[];
    expect(rows).toHaveLength(PAGE_SIZE);
    expect(first.headers.get('x-next-cursor')).toBeTruthy();

    const expected = (await db().selectFrom('users').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()).map((u) => u.id);
    expect(expected.length).toBeGreaterThan(60);
    const { ids, sizes } = await walk('/api/admin/users', 7);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sizes.slice(0, -1).every((n) => n === 7)).toBe(true);
    expect(sizes.at(-1)).toBeLessThanOrEqual(7);
    // The body is still the spec's list of users, their fields as before.
    expect(rows[0]).toEqual(
      expect.objectContaining({ _id: expect.any(String), id: expect.any(String), email: expect.any(String), createdAt: expect.any(String) }),
    );

    const all = await get(`/api/admin/users?limit=${MAX_PAGE_SIZE}`);
    expect(((await all.json()) as unknown[]).length).toBe(expected.length);
    expect(all.headers.get('x-next-cursor')).toBeNull();
  });

  it('clients: the search finds an old client by name or e-mail in any case; LIKE’s wildcards are letters', async () => {
    const byName = (await (await get('/api/admin/users?q=OLDENBURG')).json()) as { email: string }[];
    expect(byName.map((u) => u.email)).toEqual(['pager60@example.com']);
    const byEmail = (await (await get('/api/admin/users?q=%20Pager60@EXAMPLE%20')).json()) as { email: string }[];
    expect(byEmail.map((u) => u.email)).toEqual(['pager60@example.com']);
    // "%" and "_" find themselves: only the one whose name holds them.
    expect(((await (await get('/api/admin/users?q=_%25')).json()) as unknown[]).length).toBe(1);
    expect(((await (await get('/api/admin/users?q=no-such-person')).json()) as unknown[]).length).toBe(0);
    // The Today panel's "new clients": those since an instant.
    const since = new Date(Date.now() - 5.5 * 3_600_000).toISOString();
    const recent = (await (await get(`/api/admin/users?since=${encodeURIComponent(since)}&limit=200`)).json()) as { createdAt: string }[];
    const count = await db()
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('createdAt', '>=', new Date(since))
      .executeTakeFirstOrThrow();
    expect(recent).toHaveLength(count.n);
    expect(recent.every((u) => Date.parse(u.createdAt) >= Date.parse(since))).toBe(true);
  });

  it('clients: the search ignores accents and case both ways, as it did in the browser before paging', async () => {
    await sql`insert into users (email, first_name, last_name, created_at)
      values ('zoe@example.com', 'Zoë', 'NÚÑEZ-Łukasz', now() - interval '8 years')`.execute(db());
    const found = async (q: string) => ((await (await get(`/api/admin/users?q=${encodeURIComponent(q)}`)).json()) as { email: string }[]).map((u) => u.email);
    for (const q of ['zoe nunez', 'ZOË', 'núñez', 'Nunez-lukasz', 'zoe\u0308']) expect(await found(q), q).toEqual(['zoe@example.com']);
    expect(await found('zoa')).toEqual([]);
  });

  it('orders: pages newest first with their items, ties included; status, pickups and the search narrow them', async () => {
    const expected = (await db().selectFrom('orders').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()).map((o) => o.id);
    const { ids, sizes } = await walk('/api/admin/orders', 5);
    expect(ids).toEqual(expected);
    expect(Math.max(...sizes)).toBe(5);
    const page = (await (await get('/api/admin/orders?limit=4')).json()) as { items: unknown[] }[];
    expect(page).toHaveLength(4);
    expect(page.every((o) => o.items.length === 2)).toBe(true);

    const paid = await walk('/api/admin/orders?status=paid', 2);
    const paidIds = (
      await db().selectFrom('orders').select('id').where('status', '=', 'paid').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()
    ).map((o) => o.id);
    expect(paid.ids).toEqual(paidIds);
    const coming = (await (await get('/api/admin/orders?pickup=coming&limit=200')).json()) as { status: string; isLocalPickup: boolean }[];
    expect(coming.length).toBeGreaterThan(0);
    expect(coming.every((o) => o.isLocalPickup && ['paid', 'ready_for_pickup'].includes(o.status))).toBe(true);
    const comingCount = await db()
      .selectFrom('orders')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('isLocalPickup', '=', true)
      .where('status', 'in', ['paid', 'ready_for_pickup'])
      .executeTakeFirstOrThrow();
    expect(coming).toHaveLength(comingCount.n);

    // An old order by its buyer, and by its number (the id's first part, as the screen prints it).
    const old = (await (await get('/api/admin/orders?q=buyer30')).json()) as { _id: string; payerEmail: string }[];
    expect(old.map((o) => o.payerEmail)).toEqual(['buyer30@example.com']);
    const number = itemAt(old, 0)._id.slice(0, 8).toUpperCase();
    expect(((await (await get(`/api/admin/orders?q=${number}`)).json()) as { _id: string }[]).map((o) => o._id)).toContain(itemAt(old, 0)._id);
  });

  it('sign-ups: latest class first, every sign-up once (15 alike in class, day and instant); since and search', async () => {
    const expected = (
      await db().selectFrom('classSignups').select('id').orderBy('date', 'desc').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()
    ).map((s) => s.id);
    const { ids } = await walk('/api/admin/signups', 4);
    expect(ids).toEqual(expected);
    const found = (await (await get('/api/admin/signups?q=student40')).json()) as { email: string; classTitle: string }[];
    expect(found.map((s) => s.email)).toEqual(['student40@example.com']);
    const byClass = await walk('/api/admin/signups?q=full%20moon', 6);
    expect(byClass.ids).toHaveLength(15);
    // The events page's "n of m places taken" comes counted, not from the whole list.
    await sql`insert into class_signups (class_title, date, name, email)
      select 'Taken Today', to_char(now() at time zone 'America/Los_Angeles', 'YYYY-MM-DD'), 'Walk ' || g, 'walk' || g || '@example.com'
      from generate_series(1, 3) g`.execute(db());
    const taken = (await (await get('/api/admin/signups/taken')).json()) as { classTitle: string; date: string; taken: number }[];
    expect(taken.find((t) => t.classTitle === 'Taken Today')?.taken).toBe(3);
    // A class of 2025 is before the events page's window (a month back): not counted for it.
    expect(taken.find((t) => t.classTitle === 'Full Moon Flow')).toBeUndefined();
  });

  it('bookings: the spec’s object with a page of each list and their cursors; one list continues alone', async () => {
    const res = await get('/api/bookings?limit=4');
    expect(res.status).toBe(200);
    const view = (await res.json()) as {
      availableSlots: { _id: string; startsAt: string }[];
      bookedSlots: { _id: string; startsAt: string }[];
      passedSessions: { _id: string; startsAt: string }[];
      next: Record<string, string>;
    };
    expect(view.availableSlots).toHaveLength(4);
    expect(view.bookedSlots).toHaveLength(4);
    expect(view.passedSessions).toHaveLength(4);
    expect(Object.keys(view.next).sort()).toEqual(['availableSlots', 'bookedSlots', 'passedSessions']);
    // Ahead soonest first; passed latest first.
    const times = (l: { startsAt: string }[]) => l.map((s) => Date.parse(s.startsAt));
    expect(times(view.availableSlots)).toEqual([...times(view.availableSlots)].sort((a, b) => a - b));
    expect(times(view.passedSessions)).toEqual([...times(view.passedSessions)].sort((a, b) => b - a));

    for (const [list, count] of [
      ['availableSlots', 9],
      ['bookedSlots', 7],
      ['passedSessions', 11],
    ] as const) {
      const rest = await get(`/api/bookings?limit=4&list=${list}&cursor=${encodeURIComponent(view.next[list]!)}`);
      expect(rest.status).toBe(200);
      const more = (await rest.json()) as { _id: string }[];
      const seen = [...view[list].map((s) => s._id), ...more.map((s) => s._id)];
      expect(new Set(seen).size).toBe(seen.length);
      const whole = await walk(`/api/bookings?list=${list}`, 4);
      expect(whole.ids).toHaveLength(count);
      expect(whole.ids.slice(0, seen.length)).toEqual(seen);
    }
    // A search narrows the sessions and leaves her free slots in view.
    const found = (await (await get('/api/bookings?q=SLOT27@')).json()) as typeof view;
    expect(found.passedSessions.map((s) => s._id)).toHaveLength(1);
    expect(found.bookedSlots).toHaveLength(0);
    expect(found.availableSlots.length).toBeGreaterThan(0);
    // A cursor alone says not which list it continues.
    const bare = await get(`/api/bookings?cursor=${encodeURIComponent(view.next.passedSessions!)}`);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ message: CURSOR_NEEDS_LIST });
  });

  it('refuses a bad limit or cursor with its words, and changes nothing', async () => {
    const before = await db()
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    for (const path of ['/api/admin/users', '/api/admin/orders', '/api/admin/signups', '/api/bookings']) {
      for (const limit of ['0', '201', 'ten', '-5', '2.5']) {
        const res = await get(`${path}?limit=${limit}`);
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        expect(((await res.json()) as { message: string }).message).toContain(LIMIT_INVALID);
      }
      // Not base64 JSON; the right shape with a malformed instant; an array of the wrong length.
      const wrong = [
        'not a cursor',
        btoa(JSON.stringify(['2025-01-01 00:00', 'abc'])),
        btoa(JSON.stringify(['x'])),
        btoa(JSON.stringify(['2025-01-01T00:00:00.000000Z', "x' or 1=1 --"])),
      ];
      for (const cursor of wrong) {
        const res = await get(`${path}?cursor=${encodeURIComponent(cursor)}${path === '/api/bookings' ? '&list=passedSessions' : ''}`);
        expect(res.status, `${path} cursor=${cursor}`).toBe(400);
        expect(((await res.json()) as { message: string }).message).toContain(CURSOR_INVALID);
      }
    }
    expect(
      await db()
        .selectFrom('users')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });

  it('is refused without the admin’s session, a client’s session, or a forged one, as before', async () => {
    for (const cookie of [null, client, 'admin_session=forged-token']) {
      for (const path of [
        '/api/admin/users?limit=5',
        '/api/admin/orders?limit=5',
        '/api/admin/signups?limit=5',
        '/api/admin/signups/taken',
        '/api/bookings?limit=5',
      ]) {
        const res = await get(path, cookie);
        expect(res.status, `${path} ${cookie}`).toBe(401);
        expect(res.headers.get('x-next-cursor')).toBeNull();
      }
    }
  });
});
