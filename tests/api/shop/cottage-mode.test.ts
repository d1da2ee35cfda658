/**
 * Issue 48 (decision 0057): in cottage mode she sells in person only. The server is the judge:
 * POST /api/orders/paypal for a cart that is not local pickup answers 409 with the hand-over rule
 * (COTTAGE_HAND_OVER_ONLY), even before its address is checked; placing an order that ships is
 * refused the same way, whether a gift card pays it all or PayPal was set up before she switched
 * (nothing captured, no tin or card dollar taken); a pickup cart is priced exactly as before and
 * placed. Switching back to licensed makes shipping work again. The public config tells the cart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { rowCount, testDbKind } from '../../helpers/database.ts';
import { addTin } from '../../helpers/orders.ts';
import { cardBalance, issueCard, uniqueAddress } from '../../helpers/gift-cards.ts';
import { COTTAGE_HAND_OVER_ONLY, DEFAULT_FOOD_LICENCE } from '../../../contract/food.ts';
import type { PublicConfigView } from '../../../contract/config.ts';

const server = useTestServer({ resetRateLimits: true });
const db = () => server.services.db;
let tin = '';

const HER_KITCHEN = { businessName: 'Cacao Kitchen', businessAddress: '12 Elm St, Portland, OR 97201', phone: '503-555-0100' };
async function sellAs(mode: 'licensed' | 'cottage') {
  const res = await server.api('/api/admin/settings/food-licence', {
    method: 'PUT',
    json: { mode, ...HER_KITCHEN },
    headers: { cookie: await adminCookie(server) },
  });
  expect(res.status).toBe(200);
}

const shipped = () => ({ cartItems: [{ _id: tin, quantity: 2 }], isLocalPickup: false, shipToState: 'OR' });
const pickup = () => ({ cartItems: [{ _id: tin, quantity: 2 }], isLocalPickup: true });
const checkout = (json: unknown) => server.api('/api/orders/paypal', { method: 'POST', json });
const place = (json: unknown) => server.api('/api/orders', { method: 'POST', json });
const approve = (orderID: string) =>
  server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Ana', surname: 'Lima', email: uniqueAddress('ana') } });
const inventory = async () => (await db().selectFrom('products').select('inventory').where('id', '=', tin).executeTakeFirstOrThrow()).inventory;
const handOverOnly = async () => ((await (await server.api('/api/config/public')).json()) as PublicConfigView).pickup.handOverOnly;
const SHIP_TO = { name: 'Rae Card', line1: '12 Elm St', city: 'Portland', state: 'OR', zip: '97201' };

/** What a quote says, without PayPal's order id (a new one each time). */
const priced = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  const { orderID: _id, ...rest } = (await res.json()) as Record<string, unknown>;
  return rest;
};

beforeAll(async () => {
  tin = await addTin(db(), 50);
});
afterAll(async () => {
  await sellAs('licensed');
});

describe(`cottage mode at the checkout on ${testDbKind()}`, () => {
  let pickupBefore: Record<string, unknown>;
  let approvedShipped = '';

  it('while licensed (the seed), a shipped cart is priced and the cart is not told hand-over only', async () => {
    expect(DEFAULT_FOOD_LICENCE.mode).toBe('licensed');
    expect(await handOverOnly()).toBe(false);
    expect((await priced(await checkout(shipped()))).shipping).toBe(5);
    pickupBefore = await priced(await checkout(pickup()));
    // A PayPal order for a shipped cart, set up and approved before she switches.
    const res = await checkout(shipped());
    approvedShipped = ((await res.json()) as { orderID: string }).orderID;
    expect((await approve(approvedShipped)).status).toBe(200);
  });

  it('in cottage mode refuses a shipped cart with the hand-over rule, even one without its state', async () => {
    await sellAs('cottage');
    expect(await handOverOnly()).toBe(true);
    for (const cart of [shipped(), { cartItems: shipped().cartItems }, { ...shipped(), shipToState: undefined }]) {
      const res = await checkout(cart);
      expect(res.status, JSON.stringify(cart)).toBe(409);
      expect(await res.json()).toEqual({ message: COTTAGE_HAND_OVER_ONLY });
    }
    expect(COTTAGE_HAND_OVER_ONLY).toMatch(/only in person/);
  });

  it('refuses to place a shipped order the PayPal way set up before the switch: nothing captured, no tin taken', async () => {
    const [orders, tins] = [await rowCount(db(), 'orders'), await inventory()];
    const res = await place({ ...shipped(), orderId: approvedShipped });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: COTTAGE_HAND_OVER_ONLY });
    expect((await server.services.payments.getOrder(approvedShipped)).status).toBe('APPROVED');
    expect(await rowCount(db(), 'orders')).toBe(orders);
    expect(await inventory()).toBe(tins);
  });

  it('refuses a shipped order a gift card pays in full the same way, taking nothing from the card', async () => {
    const card = await issueCard(server, 20_000);
    const [orders, tins] = [await rowCount(db(), 'orders'), await inventory()];
    const res = await place({ ...shipped(), giftCardCode: card.code, payerName: 'Ana Lima', payerEmail: uniqueAddress('ana'), shipTo: SHIP_TO });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: COTTAGE_HAND_OVER_ONLY });
    expect(await cardBalance(server, card.code)).toBe(20_000);
    expect(await rowCount(db(), 'orders')).toBe(orders);
    expect(await inventory()).toBe(tins);

    // Picked up, the same card pays for the same tins.
    const picked = await place({ ...pickup(), giftCardCode: card.code, payerName: 'Ana Lima', payerEmail: uniqueAddress('ana') });
    expect(picked.status, await picked.clone().text()).toBe(201);
    expect(await inventory()).toBe(tins - 2);
  });

  it('prices a pickup cart exactly as before and places it', async () => {
    expect(await priced(await checkout(pickup()))).toEqual(pickupBefore);
    const { orderID } = (await (await checkout(pickup())).json()) as { orderID: string };
    expect((await approve(orderID)).status).toBe(200);
    const res = await place({ ...pickup(), orderId: orderID });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { order: { isLocalPickup: boolean } }).order.isLocalPickup).toBe(true);
  });

  it('licensed again, shipping works again: the cart is priced, and the order set up before is placed', async () => {
    await sellAs('licensed');
    expect(await handOverOnly()).toBe(false);
    expect((await priced(await checkout(shipped()))).shipping).toBe(5);
    const res = await place({ ...shipped(), orderId: approvedShipped });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(((await res.json()) as { order: { isLocalPickup: boolean } }).order.isLocalPickup).toBe(false);
  });
});
