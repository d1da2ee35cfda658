/**
 * The last tins (issue 6): N buyers, each with their own approved PayPal order for one tin,
 * place their orders at once while K tins are left. Exactly K orders are placed and captured,
 * the stock ends at 0 and never below, and every other buyer is told before being charged.
 * PGlite serialises transactions; PostgreSQL runs them truly in parallel with more buyers.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';

const kind = testDbKind();
const [BUYERS, TINS] = kind === 'postgres' ? [50, 10] : [10, 3];
const SOLD_OUT_DURING_PAYMENT = 'Some items sold out before your payment went through. You have not been charged.';

// Each buyer comes from their own address, as real buyers do, so the per-address rate limits
// see N buyers, not one very busy one.
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });

const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n + 1}` });

describe(`the last tins on ${kind}`, () => {
  it(`${BUYERS} buyers for ${TINS} tins: exactly ${TINS} orders, stock never below 0, losers not charged`, async () => {
    const { db, payments } = server.services;
    const product = await db
      .insertInto('products')
      .values({ name: 'Limited Ruby Tin', priceCents: 2400, inventory: TINS })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup: true };

    // Every buyer sees a tin available, creates a PayPal order and approves it.
    const orderIds = await Promise.all(
      Array.from({ length: BUYERS }, async (_, n) => {
        const res = await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart }, headers: from(n) });
        expect(res.status).toBe(200);
        const { orderID, total } = await res.json();
        expect(total).toBe(24);
        const approved = await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
          method: 'POST',
          json: { givenName: `Buyer${n}`, surname: 'Test', email: `buyer${n}@example.com` },
        });
        expect(approved.status).toBe(200);
        return orderID as string;
      }),
    );

    // A watcher samples the stock while the buyers race.
    let racing = true;
    const seen: number[] = [];
    const watcher = (async () => {
      while (racing) {
        const row = await db.selectFrom('products').select('inventory').where('id', '=', product.id).executeTakeFirstOrThrow();
        seen.push(row.inventory);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const answers = await Promise.all(
      orderIds.map((orderId, n) => server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId, ...cart }, headers: from(n) })),
    );
    racing = false;
    await watcher;
    const bodies = await Promise.all(answers.map((r) => r.json()));

    const won = answers.map((r, i) => ({ status: r.status, body: bodies[i], orderId: orderIds[i]! }));
    const winners = won.filter((w) => w.status === 201);
    const losers = won.filter((w) => w.status !== 201);
    expect(winners).toHaveLength(TINS);
    for (const l of losers) {
      expect(l.status).toBe(409);
      expect(l.body).toEqual({ message: SOLD_OUT_DURING_PAYMENT });
    }

    const left = await db.selectFrom('products').select('inventory').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(left.inventory).toBe(0);
    expect(Math.min(...seen, 0)).toBe(0);
    expect(seen.every((n) => n >= 0 && n <= TINS)).toBe(true);

    const stored = await db
      .selectFrom('orders')
      .innerJoin('orderItems', 'orderItems.orderId', 'orders.id')
      .select(['orders.paypalOrderId', 'orders.paypalCaptureId', 'orders.totalCents', 'orderItems.quantity'])
      .where('orderItems.productId', '=', product.id)
      .execute();
    expect(stored).toHaveLength(TINS);
    expect(new Set(stored.map((s) => s.paypalOrderId))).toEqual(new Set(winners.map((w) => w.orderId)));
    expect(stored.every((s) => s.paypalCaptureId && s.totalCents === 2400 && s.quantity === 1)).toBe(true);

    // Winners were charged; losers' PayPal orders stay approved and uncaptured.
    const statuses = await Promise.all(won.map(async (w) => [w.status, (await payments.getOrder(w.orderId)).status] as const));
    for (const [status, paypal] of statuses) expect(paypal).toBe(status === 201 ? 'COMPLETED' : 'APPROVED');

    const sold = await db
      .selectFrom('orderItems')
      .select(sql<number>`coalesce(sum(quantity), 0)::int`.as('n'))
      .where('productId', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(sold.n).toBe(TINS);
  });
});
