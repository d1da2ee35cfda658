/**
 * Races at full size against PostgreSQL (issue 8, "Races"), everything through HTTP as browsers
 * send it, with the server's default pool of 10 connections, so requests really contend for
 * connections and row locks:
 *
 *  - 100 clients finalise one slot at once, each with their own approved PayPal order: one
 *    booking, and every loser's order still APPROVED (never captured, never charged);
 *  - 50 buyers check out the last 10 tins at once, each all the way (price the cart, approve,
 *    place the order): exactly 10 orders, stock exactly 0 and never below it;
 *  - 20 uses of one login link at once: one 200 and one session row;
 *  - 20 identical subscriptions at once, in mixed letter case: one row.
 *
 * The smaller versions in booking-payments, shop-race, user-accounts and forms-newsletter run on
 * both databases; these are the sizes the issue names.
 *
 * Only on PostgreSQL: PGlite is one connection that runs one query at a time, so nothing would
 * race there. `describe.runIf` splits the suite by project (api-postgres runs it, api-pglite
 * has nothing to run), it does not skip a test that could run.
 */
import { BOOKING_CONFIRMED, BOOKING_FAILED } from '../../helpers/spec-words.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sessionStore } from '../../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../../api/middleware/session-cookies.ts';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { BOOKING_SESSION, Fixtures } from '../../helpers/endpoints.ts';
import { itemAt } from '../../helpers/guards.ts';

const onPostgres = process.env.TEST_DB === 'postgres';

const SOLD_OUT_DURING_PAYMENT = 'Some items sold out before your payment went through. You have not been charged.';
const LOGIN_INVALID = 'Your login link is invalid or has expired. Please request a new link and try again.';

describe.runIf(onPostgres)('races on postgres', () => {
  // Each simulated client has its own address behind the trusted balancer, as real clients
  // do, so the per-address rate limits see many clients, not one very busy one.
  const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
  let fx: Fixtures;
  const notified: string[] = [];

  beforeAll(async () => {
    server.services.realtime = recordingRealtime(notified);
    fx = new Fixtures(server);
  });

  /**
   * Holds every request that reads its PayPal order until `n` have (or `ms` passed), then lets
   * them all go: each has passed its checks on a free slot or a tin in stock by then, so all
   * `n` meet at the claim itself instead of trickling in after the winner. `reached` tells
   * how many got there.
   */
  function gateAtPayPal(n: number, ms = 30_000) {
    const payments = server.services.payments;
    const getOrder = payments.getOrder;
    let reached = 0;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const timer = setTimeout(open, ms);
    payments.getOrder = async (id) => {
      const answer = await getOrder(id);
      if (++reached >= n) open();
      await opened;
      return answer;
    };
    return {
      get reached() {
        return reached;
      },
      restore() {
        clearTimeout(timer);
        payments.getOrder = getOrder;
      },
    };
  }

  /** Client `i`'s address (a.b.c.d, distinct for i < 65 536). */
  const from = (i: number) => ({ 'x-forwarded-for': `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}` });
  const mailbox = async (to: string): Promise<{ subject: string; text: string; links: string[] }[]> =>
    (await server.api(`/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json();

  it('runs with the default pool of 10 connections', () => {
    expect(server.services.database.kind).toBe('postgres');
    expect(server.env.DATABASE_POOL_MAX).toBe(10);
  });

  it('gives one slot to exactly one of 100 concurrent finalisations and charges none of the others', async () => {
    const N = 100;
    const slot = await fx.slot(12);
    const clients = [];
    for (let i = 0; i < N; i++) clients.push(await fx.user({ email: `finaliser-${i}-${Date.now()}@example.com` }));

    // Each client's browser makes its order through our endpoint and approves it at PayPal.
    const orders = await Promise.all(
      clients.map(async (client, i) => {
        const res = await server.api(`/api/bookings/${slot.id}/paypal-order`, {
          method: 'POST',
          json: { amount: 80 + (i % 31), sessionType: BOOKING_SESSION },
          headers: { cookie: client.cookie, ...from(i) },
        });
        expect(res.status).toBe(200);
        const { orderID } = (await res.json()) as { orderID: string };
        await fx.approve(orderID);
        return orderID;
      }),
    );

    const gate = gateAtPayPal(N);
    const answers = await Promise.all(
      clients.map((client, i) =>
        server.api(`/api/bookings/${slot.id}/book`, {
          method: 'PUT',
          json: { userId: client.id, firstName: 'Ana', lastName: `Racer ${i}`, email: client.email, sessionType: BOOKING_SESSION, paypalOrderId: orders[i] },
          headers: { cookie: client.cookie, ...from(i) },
        }),
      ),
    ).finally(() => gate.restore());
    // All 100 found the slot free and their payment in order, then raced for the claim.
    expect(gate.reached).toBe(N);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N - 1);
    const winner = statuses.indexOf(200);
    expect(bodies[winner]).toEqual({ success: true, message: BOOKING_CONFIRMED, payerFirstName: 'Pat' });
    for (const [i, body] of bodies.entries()) if (i !== winner) expect(body).toEqual({ message: BOOKING_FAILED });

    // One booking: the slot is the winner's, paid with the winner's order.
    const row = await server.services.db.selectFrom('slots').selectAll().where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      bookedBy: itemAt(clients, winner).id,
      paypalOrderId: orders[winner],
      amountCents: (80 + (winner % 31)) * 100,
      lastName: `Racer ${winner}`,
    });
    expect(row.bookedAt).not.toBeNull();
    const bookedByRacers = await server.services.db
      .selectFrom('slots')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(
        'bookedBy',
        'in',
        clients.map((c) => c.id),
      )
      .executeTakeFirstOrThrow();
    expect(bookedByRacers.n).toBe(1);

    // The winner was charged; every loser's order is still only APPROVED.
    const paypal = await Promise.all(orders.map(async (id) => (await server.services.payments.getOrder(id)).status));
    expect(paypal[winner]).toBe('COMPLETED');
    expect(paypal.filter((s, i) => i !== winner && s === 'APPROVED')).toHaveLength(N - 1);

    // One confirmation, one notice to the room.
    const confirmations = await Promise.all(clients.map(async (c) => (await mailbox(c.email)).length));
    expect(confirmations.reduce((a, b) => a + b, 0)).toBe(1);
    expect(confirmations[winner]).toBe(1);
    expect(notified.filter((id) => id === slot.id)).toHaveLength(1);
  });

  it('sells exactly the last 10 tins to 50 buyers checking out at once, stock never below 0', async () => {
    const BUYERS = 50;
    const TINS = 10;
    const product = await fx.product({ inventory: TINS, priceCents: 2400, name: `Last Ruby Tins ${Date.now()}` });
    const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup: true };

    // A watcher reads the stock the whole time the buyers race.
    let racing = true;
    const seen: number[] = [];
    const watcher = (async () => {
      while (racing) {
        const row = await server.services.db.selectFrom('products').select('inventory').where('id', '=', product.id).executeTakeFirstOrThrow();
        seen.push(row.inventory);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    // Each buyer goes all the way at once: price the cart, approve at PayPal, place the order.
    const gate = gateAtPayPal(BUYERS);
    const outcomes = await Promise.all(
      Array.from({ length: BUYERS }, async (_, i) => {
        const headers = from(1000 + i);
        const priced = await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart }, headers });
        if (priced.status !== 200) return { step: 'price', status: priced.status, body: await priced.json(), orderId: undefined };
        const { orderID } = (await priced.json()) as { orderID: string };
        await fx.approve(orderID);
        const placed = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: orderID, ...cart }, headers });
        return { step: 'place', status: placed.status, body: await placed.json(), orderId: orderID };
      }),
    ).finally(() => gate.restore());
    racing = false;
    await watcher;
    // Every buyer priced the cart while 10 tins were left and met the others at the stock claim.
    expect(gate.reached).toBe(BUYERS);

    const sold = outcomes.filter((o) => o.status === 201);
    expect(sold).toHaveLength(TINS);
    for (const o of outcomes.filter((o) => o.status !== 201)) {
      expect(o.status, JSON.stringify(o.body)).toBe(409);
      // Refused while pricing (sold out already) or after paying was set up (never charged).
      if (o.step === 'place') expect(o.body).toEqual({ message: SOLD_OUT_DURING_PAYMENT });
      else expect(o.body.message).toMatch(/sold out|only \d+ left/);
    }

    const left = await server.services.db.selectFrom('products').select('inventory').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(left.inventory).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n) => n >= 0 && n <= TINS)).toBe(true);

    const items = await server.services.db
      .selectFrom('orderItems')
      .innerJoin('orders', 'orders.id', 'orderItems.orderId')
      .select(['orders.paypalOrderId', 'orders.paypalCaptureId', 'orderItems.quantity'])
      .where('orderItems.productId', '=', product.id)
      .execute();
    expect(items).toHaveLength(TINS);
    expect(items.reduce((n, i) => n + i.quantity, 0)).toBe(TINS);
    expect(new Set(items.map((i) => i.paypalOrderId))).toEqual(new Set(sold.map((o) => o.orderId)));
    expect(items.every((i) => i.paypalCaptureId)).toBe(true);

    // Buyers refused after approving were never charged.
    for (const o of outcomes.filter((o) => o.orderId)) {
      const status = (await server.services.payments.getOrder(o.orderId!)).status;
      expect(status, `${o.orderId} answered ${o.status}`).toBe(o.status === 201 ? 'COMPLETED' : 'APPROVED');
    }
  });

  it('gives exactly one session to 20 concurrent uses of one login link', async () => {
    // An account with no session yet, so every session row afterwards came from the link.
    const email = `link-race-${Date.now()}@example.com`;
    const user = await server.services.db
      .insertInto('users')
      .values({ email, firstName: 'Lou', lastName: 'Link', emailVerifiedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await server.api('/api/user/login', { method: 'POST', json: { email } })).status).toBe(200);
    const mail = itemAt(await mailbox(email), 0);
    const link = mail.links.find((l) => l.includes('/verify-login?token='))!;
    const token = new URL(link).searchParams.get('token')!;

    // Twenty browsers, several already signed in as someone else, open the link at once.
    const others = await Promise.all(Array.from({ length: 5 }, () => fx.user()));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.api('/api/user/verify-login', {
          method: 'POST',
          json: { token },
          headers: { ...from(2000 + i), ...(i < 5 ? { cookie: itemAt(others, i).cookie } : {}) },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const r of answers) if (r.status === 400) expect(await r.json()).toEqual({ message: LOGIN_INVALID });
    const cookies = answers.flatMap((r) => r.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIES.user}=`) && !/max-age=0/i.test(c)));
    expect(cookies).toHaveLength(1);

    const sessions = await server.services.db.selectFrom('userSessions').select('id').where('userId', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    const token_ = itemAt(itemAt(cookies, 0).split(';'), 0).split('=')[1]!;
    expect((await sessionStore(server.services.db, 'user').validate(token_))?.subjectId).toBe(user.id);
    const used = await server.services.db.selectFrom('loginTokens').select(['usedAt']).where('userId', '=', user.id).execute();
    expect(used).toHaveLength(1);
    expect(itemAt(used, 0).usedAt).not.toBeNull();
  });

  it('makes one row from 20 concurrent identical subscriptions in mixed letter case', async () => {
    const local = `race-${Date.now()}`;
    const spellings = [
      `${local}@example.com`,
      `${local.toUpperCase()}@EXAMPLE.COM`,
      ` ${local}@Example.com `,
      `${itemAt(local, 0).toUpperCase()}${local.slice(1)}@example.COM`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.api('/api/subscribers/subscribe', { method: 'POST', json: { email: spellings[i % spellings.length] }, headers: from(3000 + i) }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    const rows = await server.services.db
      .selectFrom('subscribers')
      .select('email')
      .where(sql<boolean>`lower(email) = ${`${local}@example.com`}`)
      .execute();
    expect(rows).toEqual([{ email: `${local}@example.com` }]);
    expect(await mailbox(`${local}@example.com`)).toHaveLength(1);
  });
});
