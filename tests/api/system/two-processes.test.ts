/**
 * Two processes, one truth (issue 13): two real server processes (A and B, as two replicas
 * behind a load balancer) on one PostgreSQL database, the PayPal emulator in a process of its
 * own, everything through HTTP. Shows that nothing either process keeps to itself decides an
 * outcome:
 *
 *  - 50 concurrent finalisations of one slot, spread over both, book it once and capture once;
 *  - a limit of N holds across both (a client address's coupon attempts, a recipient's mails);
 *  - a session made on one is valid on the other (admin and client), and ended on one it is
 *    ended on the other;
 *  - an image uploaded on one is served by the other, byte for byte;
 *  - each session and class reminder goes out once with both checking every 25 ms (so their
 *    checks overlap);
 *  - a payment left half way by a third process killed mid-capture is recovered once, by A or
 *    B, whose reconcilers both run every 250 ms.
 *
 * PostgreSQL only (vitest.config.ts leaves it out of the PGlite project): PGlite is an embedded
 * database inside one process, so a second process cannot share it; replicas run PostgreSQL.
 *
 * The replicas check for due reminders every REMINDER_INTERVAL_MS (25 ms here, a minute by
 * default), so their checks overlap as they would in production, only faster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET } from '../../../api/services/payments/emulator.ts';
import { SESSION_COOKIES } from '../../../api/middleware/session-cookies.ts';
import { LIMITS } from '../../../api/services/limits.ts';
import { freshDatabase, type FreshDatabase } from '../../helpers/database.ts';
import { createUser } from '../../helpers/auth.ts';
import type { TestServer } from '../../helpers/server.ts';
import { startChild, type Child } from '../../helpers/child.ts';
import { serverProcessEnv, startEmulator, type EmulatorChild } from '../../helpers/payment-processes.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const SERVER = 'tests/helpers/server-process.ts';
const YOGA = 'Individual Yoga Session (60 min)';
const TEACHER = 'teacher@example.com';
const ADMIN_EMAIL = 'owner@example.com';
const ADMIN_PASSWORD = 'two-processes-one-truth';
const ZONE = 'America/Los_Angeles';
const RECONCILE_INTERVAL_MS = 250;
/** Long enough that no payment under way in the race is taken for abandoned. */
const STALE_MS = 2_000;
/** Short enough that the two processes' checks (and a process's own, which may overlap) run into each other. */
const REMINDER_INTERVAL_MS = 25;
const HOUR = 3_600_000;

type Init = RequestInit & { json?: unknown; headers?: Record<string, string> };

describe('two server processes on one PostgreSQL database', () => {
  let fresh: FreshDatabase;
  let handle: DatabaseHandle;
  let emulator: EmulatorChild;
  let a: Child;
  let b: Child;
  let crashing: Child | undefined;
  const connections: Promise<void>[] = [];

  const serverEnv = (reconcile: { interval: number; stale: number }, extra: Record<string, string> = {}) =>
    serverProcessEnv(
      { database: { DATABASE_URL: fresh.env.DATABASE_URL! }, zone: ZONE, teacher: TEACHER, emulator, reconcile },
      {
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        APP_SECRET: 'two-processes-share-this-secret-of-32+chars',
        // Behind one balancer: the client's address is the last X-Forwarded-For entry.
        TRUST_PROXY: '1',
        ...extra,
      },
    );

  beforeAll(async () => {
    fresh = await freshDatabase('postgres');
    emulator = await startEmulator();
    // Both start at once on the empty database, as two replicas of a first deploy: each migrates and seeds.
    const replica = serverEnv({ interval: RECONCILE_INTERVAL_MS, stale: STALE_MS }, { REMINDER_INTERVAL_MS: String(REMINDER_INTERVAL_MS) });
    [a, b] = await Promise.all([startChild(SERVER, replica), startChild(SERVER, replica)]);
    handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' });
    must(handle.pool, 'handle.pool').on('connect', (client) => connections.push(new Promise((resolve) => client.once('end', () => resolve()))));
  });
  afterAll(async () => {
    await crashing?.kill();
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await emulator?.kill('SIGTERM');
    await handle?.close();
    // pg's pool.end() resolves before its sockets have closed; dropping the database then would cut them off.
    await Promise.all(connections);
    await fresh?.drop();
  });

  const db = () => handle.db;
  /** Request `i` goes to A when even, B when odd: the balancer's round robin. */
  const pick = (i: number) => (i % 2 === 0 ? a : b);
  const call = (server: Child, path: string, init: Init = {}) => {
    const { json, headers, ...rest } = init;
    return fetch(`${server.url}${path}`, {
      ...rest,
      headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  const cookieOf = (res: Response, name: string) => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
    if (!set) throw new Error(`no ${name} cookie in ${res.status} answer`);
    return set.split(';')[0]!;
  };
  const user = (email: string, firstName = 'Ana') => createUser({ services: { db: db() } } as unknown as TestServer, { email, firstName });
  const mailsTo = (to: string) => db().selectFrom('mails').select(['subject', 'text']).where('to', '=', to).orderBy('sentAt').execute();
  const approve = async (orderId: string, body: Record<string, unknown> = {}) => {
    const res = await call(emulator, `/v2/checkout/orders/${orderId}/approve`, { method: 'POST', json: { givenName: 'Pat', ...body } });
    expect(res.status).toBe(200);
  };
  const paypalStatuses = async (orderIds: string[]) => {
    const basic = Buffer.from(`${EMULATOR_CLIENT_ID}:${EMULATOR_CLIENT_SECRET}`).toString('base64');
    const token = await call(emulator, '/v1/oauth2/token', { method: 'POST', headers: { authorization: `Basic ${basic}` } });
    const { access_token } = (await token.json()) as { access_token: string };
    return Promise.all(
      orderIds.map(
        async (id) =>
          ((await (await call(emulator, `/v2/checkout/orders/${id}`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as { status: string })
            .status,
      ),
    );
  };
  /** Polls until `what` gives something truthy, failing with `why` after `ms`. */
  const until = async <T>(why: string, what: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await what();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`${why}: not within ${ms} ms\nA:\n${a.output()}\nB:\n${b.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** That nothing more happens can only be shown by waiting: a bounded wait of several rounds of the timers involved. */
  const quietFor = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let slotCounter = 0;
  /** A free slot `days` ahead, at its own time. */
  const freeSlot = async (days = 3) => {
    const n = ++slotCounter;
    const date = addDays(zonedNow(ZONE).date, days);
    const time = `${String(8 + n).padStart(2, '0')}:00`;
    return db()
      .insertInto('slots')
      .values({ date, time, startsAt: zonedInstant(date, time, ZONE) })
      .returning('id')
      .executeTakeFirstOrThrow();
  };
  const adminLogin = async (on: Child) => {
    const res = await call(on, '/api/admin/login', {
      method: 'POST',
      json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' },
    });
    expect(res.status).toBe(200);
    return cookieOf(res, SESSION_COOKIES.admin);
  };

  it('runs two processes, each with its own pid, on the same database', async () => {
    expect(a.process.pid).not.toBe(b.process.pid);
    for (const server of [a, b]) expect((await call(server, '/api/health')).status).toBe(200);
    // One administrator, seeded by whichever started first.
    expect(await db().selectFrom('admins').select('email').execute()).toEqual([{ email: ADMIN_EMAIL }]);
  });

  it('accepts on one process a session made on the other, and ends it on both', async () => {
    // The administrator logs in on A and is known on B.
    const admin = await adminLogin(a);
    const verified = await call(b, '/api/admin/verify', { headers: { cookie: admin } });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ admin: { email: ADMIN_EMAIL } });

    // A client asks B for a login link and redeems it on A; B knows the session.
    const client = await db()
      .insertInto('users')
      .values({ email: 'roaming.client@example.com', firstName: 'Rae', lastName: 'Lee', emailVerifiedAt: new Date() })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    expect((await call(b, '/api/user/login', { method: 'POST', json: { email: client.email } })).status).toBe(200);
    const link = itemAt(await mailsTo(client.email), 0);
    const token = decodeURIComponent(must(/verify-login\?token=([^\s"&<]+)/.exec(link.text), 'a match in link.text')[1]!);
    const redeemed = await call(a, '/api/user/verify-login', { method: 'POST', json: { token } });
    expect(redeemed.status).toBe(200);
    const cookie = cookieOf(redeemed, SESSION_COOKIES.user);
    const profile = await call(b, `/api/user/${client.id}`, { headers: { cookie } });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ email: client.email });

    // Logging out on one process ends the session on the other.
    expect((await call(b, '/api/user/logout', { method: 'POST', headers: { cookie } })).status).toBe(200);
    expect((await call(a, `/api/user/${client.id}`, { headers: { cookie } })).status).toBe(401);
    expect((await call(a, '/api/admin/logout', { method: 'POST', headers: { cookie: admin } })).ok).toBe(true);
    expect((await call(b, '/api/admin/verify', { headers: { cookie: admin } })).status).toBe(401);
  });

  it('serves from one process an image uploaded to the other', async () => {
    const admin = await adminLogin(b);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(800, 600, '#3b7a57'))], { type: 'image/jpeg' }), 'mat.jpg');
    const uploaded = await call(a, '/api/admin/images', { method: 'POST', body: form, headers: { cookie: admin } });
    expect(uploaded.status).toBe(201);
    const { url, picture } = (await uploaded.json()) as { url: string; picture: { webp: string; avif: string } };

    const fromB = await call(b, url);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/webp');
    const bytesB = Buffer.from(await fromB.arrayBuffer());
    const bytesA = Buffer.from(await (await call(a, url)).arrayBuffer());
    expect(bytesB.length).toBeGreaterThan(0);
    expect(bytesB.equals(bytesA)).toBe(true);
    // And every responsive size the upload made.
    const sizes = [...picture.webp.split(','), ...picture.avif.split(',')].map((s) => s.trim().split(' ')[0]!);
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) {
      const res = await call(b, size);
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/(webp|avif)$/);
    }
  });

  it(`holds a client address to ${LIMITS.shopCoupon.max} coupon attempts across both processes`, async () => {
    const N = LIMITS.shopCoupon.max;
    const from = { 'x-forwarded-for': '203.0.113.7' };
    const tries = (n: number, offset: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          call(pick(offset + i), '/api/chocolates/validate-coupon', { method: 'POST', json: { code: `GUESS${offset + i}` }, headers: from }),
        ),
      );
    // N at once, half on each: every one is answered (no such coupon), none refused.
    const first = await tries(N, 0);
    expect(first.map((r) => r.status)).toEqual(Array.from({ length: N }, () => 404));
    // The next one is refused on either process.
    for (const server of [a, b]) {
      const res = await call(server, '/api/chocolates/validate-coupon', { method: 'POST', json: { code: 'ONEMORE' }, headers: from });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another address is its own client.
    const other = await call(b, '/api/chocolates/validate-coupon', { method: 'POST', json: { code: 'GUESS' }, headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(other.status).toBe(404);
  });

  it(`sends one address at most ${LIMITS.mailTo.max} mails an hour, asked through both processes from many addresses`, async () => {
    const target = 'someone.else@example.com';
    const statuses: number[] = [];
    // One after the other, alternating A and B, each from a new address: the count is per recipient, in the database.
    for (let i = 0; i < 2 * LIMITS.mailTo.max; i++) {
      const res = await call(pick(i), '/api/user/login', { method: 'POST', json: { email: target }, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array.from({ length: LIMITS.mailTo.max }, () => 200), ...Array.from({ length: LIMITS.mailTo.max }, () => 429)]);
    expect(await mailsTo(target)).toHaveLength(LIMITS.mailTo.max);
  });

  it('books one slot once when 50 clients finalise it at the same moment through both processes', async () => {
    const N = 50;
    const slot = await freeSlot();
    const clients = await Promise.all(Array.from({ length: N }, (_, i) => user(`finaliser-${i}@example.com`)));
    // Each client's order is made through one process and approved at PayPal...
    const orders = await Promise.all(
      clients.map(async (client, i) => {
        const res = await call(pick(i), `/api/bookings/${slot.id}/paypal-order`, {
          method: 'POST',
          json: { amount: 80, sessionType: YOGA },
          headers: { cookie: client.cookie },
        });
        expect(res.status).toBe(200);
        const { orderID } = (await res.json()) as { orderID: string };
        await approve(orderID);
        return orderID;
      }),
    );
    const before = await emulator.captures();

    // ... and finalised through the other one, all at once.
    const answers = await Promise.all(
      clients.map((client, i) =>
        call(pick(i + 1), `/api/bookings/${slot.id}/book`, {
          method: 'PUT',
          json: { userId: client.id, firstName: 'Ana', lastName: `Racer ${i}`, email: client.email, sessionType: YOGA, paypalOrderId: orders[i] },
          headers: { cookie: client.cookie },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N - 1);
    const winner = statuses.indexOf(200);
    expect(bodies[winner]).toMatchObject({ success: true, payerFirstName: 'Pat' });

    // One booking, the winner's; one attempt, captured once, by the process that answered.
    expect(await db().selectFrom('slots').select(['bookedBy', 'paypalOrderId', 'lastName']).where('id', '=', slot.id).executeTakeFirstOrThrow()).toEqual({
      bookedBy: itemAt(clients, winner).id,
      paypalOrderId: orders[winner],
      lastName: `Racer ${winner}`,
    });
    const attempts = await db()
      .selectFrom('paymentAttempts')
      .select(['paypalOrderId', 'state', 'settledBy', 'claimedBy'])
      .where('slotId', '=', slot.id)
      .execute();
    expect(attempts).toEqual([
      { paypalOrderId: orders[winner], state: 'completed', settledBy: 'checkout', claimedBy: expect.stringContaining(`:${pick(winner + 1).process.pid}:`) },
    ]);
    expect(await emulator.captures()).toBe(before + 1);
    const paypal = await paypalStatuses(orders);
    expect(paypal[winner]).toBe('COMPLETED');
    expect(paypal.filter((s) => s === 'APPROVED')).toHaveLength(N - 1);

    // One confirmation to the winner, none to the others, one notice to the teacher.
    await until('the confirmation', async () => (await mailsTo(itemAt(clients, winner).email)).length > 0);
    const confirmations = await Promise.all(clients.map(async (c) => (await mailsTo(c.email)).length));
    expect(confirmations.reduce((x, y) => x + y, 0)).toBe(1);
    expect((await mailsTo(TEACHER)).filter((m) => m.text.includes(orders[winner]!))).toHaveLength(1);
  });

  it('sends each session and class reminder once with both processes checking', async () => {
    // Ten booked sessions due for a reminder: six tomorrow (booked days ago), four within two hours.
    const due = [
      ...Array.from({ length: 6 }, (_, i) => ({ inHours: 6 + i, kind: 'day' })),
      ...Array.from({ length: 4 }, (_, i) => ({ inHours: 0.5 + i / 4, kind: 'soon' })),
    ];
    const booked = await Promise.all(
      due.map(async ({ inHours, kind }, i) => {
        const client = await user(`reminded-${i}@example.com`, 'Rae');
        const startsAt = new Date(Date.now() + inHours * HOUR);
        const iso = startsAt.toISOString();
        await db()
          .insertInto('slots')
          .values({
            date: iso.slice(0, 10),
            time: iso.slice(11, 16),
            startsAt,
            bookedBy: client.id,
            bookedAt: new Date(Date.now() - 72 * HOUR),
            firstName: 'Rae',
            lastName: 'Lee',
            email: client.email,
            sessionType: YOGA,
            message: '',
          })
          .execute();
        return { email: client.email, kind };
      }),
    );
    // And a class tomorrow evening with three students signed up days ago: one reminder each.
    const classStarts = new Date(Date.now() + 20 * HOUR);
    const classIso = classStarts.toISOString();
    const event = await db()
      .insertInto('events')
      .values({ title: 'Replica Flow', date: classIso.slice(0, 10), time: classIso.slice(11, 16), startsAt: classStarts, location: 'Studio', capacity: 10 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const students = ['student-a@example.com', 'student-b@example.com', 'student-c@example.com'];
    await db()
      .insertInto('classSignups')
      .values(
        students.map((email) => ({
          eventId: event.id,
          classTitle: 'Replica Flow',
          date: classIso.slice(0, 10),
          name: 'Sam Student',
          email,
          createdAt: new Date(Date.now() - 72 * HOUR),
        })),
      )
      .execute();
    const expected = booked.length + students.length;
    await until('every reminder', async () => {
      const sent = await db().selectFrom('mails').select('to').where('subject', 'like', 'Reminder:%').execute();
      return sent.length >= expected;
    });
    // Both processes check twenty times more: nothing else goes out.
    await quietFor(20 * REMINDER_INTERVAL_MS);
    for (const { email, kind } of booked) {
      const mails = await mailsTo(email);
      expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(kind === 'day' ? /^Reminder: .* tomorrow at/ : /^Reminder: .* today at/)]);
    }
    for (const email of students) expect((await mailsTo(email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Reminder: Replica Flow tomorrow, /)]);
    expect(await db().selectFrom('mails').select('to').where('subject', 'like', 'Reminder:%').execute()).toHaveLength(expected);
  });

  it('recovers a payment left half way by a killed third process once, through one of the two', async () => {
    // A third process, whose reconciler never runs during the test, takes the buyer's and the client's payments...
    crashing = await startChild(SERVER, serverEnv({ interval: 600_000, stale: 600_000 }));
    const product = await db().insertInto('products').values({ name: 'Replica Tin', priceCents: 1800, inventory: 5 }).returning('id').executeTakeFirstOrThrow();
    const slot = await freeSlot();
    const buyer = 'replica.buyer@example.com';
    const client = await user('replica.client@example.com');
    const cart = { cartItems: [{ _id: product.id, quantity: 2 }], isLocalPickup: true };
    const quote = (await (await call(crashing, '/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json()) as { orderID: string };
    await approve(quote.orderID, { surname: 'Lima', email: buyer, captureDelayMs: 60_000 });
    const made = await call(crashing, `/api/bookings/${slot.id}/paypal-order`, {
      method: 'POST',
      json: { amount: 80, sessionType: YOGA },
      headers: { cookie: client.cookie },
    });
    expect(made.status).toBe(200);
    const { orderID: bookingOrder } = (await made.json()) as { orderID: string };
    await approve(bookingOrder, { captureDelayMs: 60_000 });

    const before = await emulator.captures();
    const hanging = [
      call(crashing, '/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: quote.orderID, ...cart } }).catch(() => 'killed'),
      call(crashing, `/api/bookings/${slot.id}/book`, {
        method: 'PUT',
        json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, paypalOrderId: bookingOrder },
        headers: { cookie: client.cookie },
      }).catch(() => 'killed'),
    ];
    // ... PayPal captures both and holds its answers; the third process dies before it hears them.
    await until('both captures', async () => (await emulator.captures()) >= before + 2);
    await crashing.kill('SIGKILL');
    expect(await Promise.all(hanging)).toEqual(['killed', 'killed']);

    // A and B both look every 250 ms for attempts silent for 2 s: one of them settles each, once.
    const ids = [quote.orderID, bookingOrder];
    const settled = await until(
      'the recovery',
      async () => {
        const rows = await db()
          .selectFrom('paymentAttempts')
          .select(['paypalOrderId', 'state', 'settledBy', 'claimedBy'])
          .where('paypalOrderId', 'in', ids)
          .execute();
        return rows.length === 2 && rows.every((r) => r.state === 'completed') && rows;
      },
      20_000,
    );
    const survivors = [a, b].map((s) => `:${s.process.pid}:`);
    for (const row of settled) {
      expect(row.settledBy).toBe('reconciler');
      expect(survivors.some((pid) => row.claimedBy.includes(pid))).toBe(true);
    }
    expect(await db().selectFrom('orders').select(['status', 'totalCents', 'payerEmail']).where('paypalOrderId', '=', quote.orderID).execute()).toEqual([
      { status: 'paid', totalCents: 3600, payerEmail: buyer },
    ]);
    expect((await db().selectFrom('products').select('inventory').where('id', '=', product.id).executeTakeFirstOrThrow()).inventory).toBe(3);
    expect(await db().selectFrom('slots').select(['bookedBy', 'paypalOrderId']).where('id', '=', slot.id).executeTakeFirstOrThrow()).toEqual({
      bookedBy: client.id,
      paypalOrderId: bookingOrder,
    });

    // Mailed once each, after the completing commits; several more reconcile rounds change nothing.
    const teacherAbout = async (id: string) => (await mailsTo(TEACHER)).filter((m) => m.text.includes(id)).length;
    await until('the mails', async () => (await mailsTo(buyer)).length > 0 && (await mailsTo(client.email)).length > 0);
    await until('the teacher’s mails', async () => (await teacherAbout(quote.orderID)) > 0 && (await teacherAbout(bookingOrder)) > 0);
    await quietFor(4 * RECONCILE_INTERVAL_MS);
    expect(await mailsTo(buyer)).toHaveLength(1);
    expect(await mailsTo(client.email)).toHaveLength(1);
    expect(await teacherAbout(quote.orderID)).toBe(1);
    expect(await teacherAbout(bookingOrder)).toBe(1);
    expect(await emulator.captures()).toBe(before + 2);
    expect(await db().selectFrom('orders').select('id').where('paypalOrderId', '=', quote.orderID).execute()).toHaveLength(1);
  }, 60_000);
});
