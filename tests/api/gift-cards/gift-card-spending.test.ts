/**
 * Issue 33 (decision 0042): a gift card spent in the cart, on PGlite and PostgreSQL. A card pays
 * all of one order (nothing goes to PayPal) and part of another (PayPal is asked for the rest, at
 * the emulator with that amount); while anything is due an order without a PayPal order is
 * refused and takes nothing; twenty orders spending one $50 card at once never take more than
 * $50; a declined payment of the rest gives the card's part back, and so does a refund, made by
 * her button or reported by PayPal's webhook, once; wrong codes all answer alike.
 */
import { describe, expect, it, vi } from 'vitest';
import { PayPalError } from '../../../api/services/payments/paypal.ts';
import { useTestServer } from '../../helpers/server.ts';
import { cardBalance, issueCard, listedCard, uniqueAddress } from '../../helpers/gift-cards.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { packageFixtures } from '../../helpers/packages.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import { GIFT_CARD_PAYS_ALL } from '../../../contract/booking.ts';
import { emulatorCaptureCount, emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const kind = testDbKind();
// Every buyer from their own address, as real buyers are: the code limit counts per address.
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
const db = () => server.services.db;

let n = 0;
const unique = uniqueAddress;
const from = (i: number) => ({ 'x-forwarded-for': `198.51.100.${(i % 250) + 1}` });
const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });

const issue = (amountCents: number) => issueCard(server, amountCents);
const balanceOf = (code: string) => cardBalance(server, code);

async function tin(priceCents: number, inventory = 100): Promise<string> {
  const row = await db()
    .insertInto('products')
    .values({ name: `Gift Tin ${++n}`, priceCents, inventory })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
const inventoryOf = async (id: string) => (await db().selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;

const pickupCart = (productId: string, quantity = 1) => ({ cartItems: [{ _id: productId, quantity }], isLocalPickup: true });
const quote = (json: Record<string, unknown>, headers = from(0)) => server.api('/api/orders/paypal', { method: 'POST', json, headers });
const place = (json: Record<string, unknown>, headers = from(0)) => server.api('/api/orders', { method: 'POST', json, headers });

const approve = (orderID: string, json: Record<string, unknown> = {}) =>
  server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Ana', surname: 'Lima', email: unique('ana'), ...json },
  });

const orderRow = (id: string) =>
  db()
    .selectFrom('orders')
    .select(['paypalOrderId', 'paypalCaptureId', 'totalCents', 'giftCardCents', 'status', 'shipToName', 'shipToAddress'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const cardRowsOfOrder = (orderId: string) =>
  db().selectFrom('ledgerEntries').select(['change', 'reason']).where('orderId', '=', orderId).orderBy('createdAt').execute();

describe(`a gift card spent in the cart on ${kind}`, () => {
  it('pays all of one order with no PayPal at all, and part of another with PayPal asked for the rest', async () => {
    const card = await issue(5_000);
    const truffles = await tin(3_000);
    const capturesBefore = emulatorCaptureCount();
    const finances = async () => (await (await asAdmin('/api/admin/finances')).json()) as FinancesView;
    const booksBefore = await finances();

    // The first order: $30 of $50, all of it on the card.
    const first = await quote({ ...pickupCart(truffles), giftCardCode: card.code.toLowerCase() });
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({ orderID: null, total: 30, giftCardCents: 3_000, amountDueCents: 0 });
    const buyer = unique('ana');
    const placed = await place({ ...pickupCart(truffles), giftCardCode: card.code, payerName: 'Ana Lima', payerEmail: buyer });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const { order } = (await placed.json()) as { order: { _id: string; giftCardCents: number; amountDueCents: number } };
    expect(order).toMatchObject({ giftCardCents: 3_000, amountDueCents: 0 });
    expect(await orderRow(order._id)).toMatchObject({ paypalOrderId: null, paypalCaptureId: null, totalCents: 3_000, giftCardCents: 3_000, status: 'paid' });
    // Spent, the card's money is income (the order's), and what the cards owe falls by as much.
    const booksAfter = await finances();
    expect(booksAfter.totals.ordersPaidCount).toBe(booksBefore.totals.ordersPaidCount + 1);
    expect(booksAfter.totals.shopNetCents).toBe(booksBefore.totals.shopNetCents + 3_000);
    expect(booksAfter.giftCardsOwed.cents).toBe(booksBefore.giftCardsOwed.cents - 3_000);
    expect(await cardRowsOfOrder(order._id)).toEqual([{ change: -3_000, reason: 'used' }]);
    expect(await balanceOf(card.code)).toBe(2_000);
    expect(emulatorCaptureCount()).toBe(capturesBefore);
    const [confirmation] = await readMailbox(server, buyer);
    expect(confirmation?.text).toContain('Paid with a gift card: $30.00');
    expect(confirmation?.text).not.toContain('PayPal');

    // The second order: $30 again, $20 left on the card, $10 through PayPal.
    const second = await quote({ ...pickupCart(truffles), giftCardCode: card.code });
    const checkout = (await second.json()) as { orderID: string; giftCardCents: number; amountDueCents: number };
    expect(checkout).toMatchObject({ giftCardCents: 2_000, amountDueCents: 1_000 });
    const atPayPal = await server.services.payments.getOrder(checkout.orderID);
    expect(atPayPal.amountCents).toBe(1_000);
    expect((await approve(checkout.orderID)).status).toBe(200);
    const paid = await place({ ...pickupCart(truffles), giftCardCode: card.code, orderId: checkout.orderID });
    expect(paid.status, await paid.clone().text()).toBe(201);
    const secondOrder = ((await paid.json()) as { order: { _id: string } }).order;
    expect(await orderRow(secondOrder._id)).toMatchObject({ paypalOrderId: checkout.orderID, totalCents: 3_000, giftCardCents: 2_000, status: 'paid' });
    expect(emulatorCaptureCount()).toBe(capturesBefore + 1);
    expect((await server.services.payments.getOrder(checkout.orderID)).captured?.amountCents).toBe(1_000);
    expect(await cardRowsOfOrder(secondOrder._id)).toEqual([{ change: -2_000, reason: 'used' }]);
    expect(await balanceOf(card.code)).toBe(0);
    // Her list (issue 50): all of it spent, nothing adjusted, and a card she gave, so no buyer paid for it.
    expect(await listedCard(server, card._id)).toMatchObject({
      amountCents: 5_000,
      paidCents: 0,
      adjustedCents: 0,
      spentCents: 5_000,
      refundedCents: 0,
      balanceCents: 0,
      createdBy: 'admin',
    });

    // Spent: the card says so, and the balance look-up shows the order in the card's history.
    const empty = await quote({ ...pickupCart(truffles), giftCardCode: card.code });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'This gift card has nothing left on it.' });
    const history = (await (await asAdmin(`/api/admin/gift-cards/${card._id}`)).json()) as { history: { change: number; reason: string }[] };
    expect(history.history.map((h) => [h.change, h.reason])).toEqual([
      [5_000, 'bought'],
      [-3_000, 'used'],
      [-2_000, 'used'],
    ]);
  });

  it('a shipped order the card pays in full goes to the address given; the tax is still figured on the goods', async () => {
    const card = await issue(20_000);
    const bar = await tin(2_400);
    const shipTo = { name: 'Rae Card', line1: '12 Elm St', line2: 'Apt 3', city: 'Portland', state: 'OR', zip: '97201' };
    const q = await quote({ cartItems: [{ _id: bar, quantity: 2 }], shipToState: 'OR', giftCardCode: card.code });
    const priced = (await q.json()) as { total: number; shipping: number; giftCardCents: number; amountDueCents: number; orderID: string | null };
    expect(priced.orderID).toBeNull();
    expect(priced.giftCardCents).toBe(Math.round(priced.total * 100));
    const placed = await place({ cartItems: [{ _id: bar, quantity: 2 }], giftCardCode: card.code, payerName: 'Ana Lima', payerEmail: unique('ana'), shipTo });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const row = await orderRow(((await placed.json()) as { order: { _id: string } }).order._id);
    expect(row).toMatchObject({ shipToName: 'Rae Card', shipToAddress: '12 Elm St\nApt 3\nPortland, OR 97201\nUS', giftCardCents: row.totalCents });

    // Without the address, or without the payer: refused, nothing taken.
    const before = await balanceOf(card.code);
    const noAddress = await place({
      cartItems: [{ _id: bar, quantity: 1 }],
      shipToState: 'OR',
      giftCardCode: card.code,
      payerName: 'Ana',
      payerEmail: unique('ana'),
    });
    expect(noAddress.status).toBe(400);
    expect((await noAddress.json()).message).toMatch(/address the order ships to/);
    const noPayer = await place({ ...pickupCart(bar), giftCardCode: card.code });
    expect(noPayer.status).toBe(400);
    expect(await balanceOf(card.code)).toBe(before);
  });

  it('while anything is due, an order without a PayPal order is refused with 402 and takes nothing', async () => {
    const card = await issue(1_000);
    const box = await tin(3_600, 5);
    const q = await quote({ ...pickupCart(box), giftCardCode: card.code });
    expect(await q.json()).toMatchObject({ giftCardCents: 1_000, amountDueCents: 2_600 });
    const res = await place({ ...pickupCart(box), giftCardCode: card.code, payerName: 'Ana Lima', payerEmail: unique('ana') });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'Your gift card doesn’t cover the whole order. Please pay the rest with PayPal.' });
    const noCard = await place({ ...pickupCart(box), payerName: 'Ana Lima', payerEmail: unique('ana') });
    expect(noCard.status).toBe(402);
    expect(await balanceOf(card.code)).toBe(1_000);
    expect(await inventoryOf(box)).toBe(5);
  });

  it(`twenty orders spending one $50 card at once never take more than $50 (${kind})`, async () => {
    const card = await issue(5_000);
    const bar = await tin(2_400);
    const buyers = Array.from({ length: 20 }, (_, i) => i);
    const answers = await Promise.all(
      buyers.map((i) => place({ ...pickupCart(bar), giftCardCode: card.code, payerName: `Buyer ${i}`, payerEmail: unique(`b${i}`) }, from(i))),
    );
    const statuses = answers.map((r) => r.status);
    // Two $24 orders fit on $50; the rest find $2 left and must pay through PayPal (402), or lost the race (409).
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.every((s) => s === 201 || s === 402 || s === 409)).toBe(true);
    const debits = await db()
      .selectFrom('ledgerEntries as e')
      .innerJoin('giftCards as g', 'g.lotId', 'e.lotId')
      .select(['e.change'])
      .where('g.id', '=', card._id)
      .where('e.reason', '=', 'used')
      .execute();
    expect(debits.reduce((sum, d) => sum - d.change, 0)).toBe(4_800);
    expect(await balanceOf(card.code)).toBe(200);
    expect(await inventoryOf(bar)).toBe(98);
  });

  it('a declined payment of the rest gives the card its part back; a refund does too, once, by her button or by PayPal', async () => {
    const card = await issue(2_000);
    const tinId = await tin(3_000, 10);

    // PayPal declines the rest: the card's part, taken with the claim, comes back, and so do the tins.
    const q1 = (await (await quote({ ...pickupCart(tinId), giftCardCode: card.code })).json()) as { orderID: string };
    await approve(q1.orderID);
    vi.spyOn(server.services.payments, 'captureOrder').mockRejectedValueOnce(
      new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED'),
    );
    const declined = await place({ ...pickupCart(tinId), giftCardCode: card.code, orderId: q1.orderID });
    expect(declined.status).toBe(402);
    expect(await balanceOf(card.code)).toBe(2_000);
    expect(await inventoryOf(tinId)).toBe(10);
    // The same approval, tried again once PayPal takes it: the card pays its part once more, once.
    const retried = await place({ ...pickupCart(tinId), giftCardCode: card.code, orderId: q1.orderID });
    expect(retried.status).toBe(201);
    const retriedId = ((await retried.json()) as { order: { _id: string } }).order._id;
    expect(await cardRowsOfOrder(retriedId)).toEqual([{ change: -2_000, reason: 'used' }]);
    expect(await balanceOf(card.code)).toBe(0);
    await asAdmin(`/api/admin/gift-cards/${card._id}/adjust`, 'POST', { cents: 2_000, reason: 'Test: filled again' });

    // Paid: $20 on the card, $10 through PayPal; she refunds it from her orders page.
    const q2 = (await (await quote({ ...pickupCart(tinId), giftCardCode: card.code })).json()) as { orderID: string };
    await approve(q2.orderID, { email: 'refund-me@example.com' });
    const paid = await place({ ...pickupCart(tinId), giftCardCode: card.code, orderId: q2.orderID });
    expect(paid.status).toBe(201);
    const orderId = ((await paid.json()) as { order: { _id: string } }).order._id;
    expect(await balanceOf(card.code)).toBe(0);

    const refunded = await asAdmin(`/api/admin/orders/${orderId}/refund`, 'POST');
    expect(refunded.status, await refunded.clone().text()).toBe(200);
    expect(await refunded.json()).toMatchObject({
      status: 'refunded',
      giftCardCents: 2_000,
      message: 'Order refunded. $20.00 is back on the gift card. $10.00 is refunded through PayPal. The buyer was mailed. Its tins were not put back in stock.',
    });
    expect(await balanceOf(card.code)).toBe(2_000);
    const mail = (await readMailbox(server, 'refund-me@example.com')).find((m) => m.subject.endsWith('is refunded'));
    expect(mail?.text).toContain('$20.00 is back on your gift card');
    expect(mail?.text).toContain('$10.00 is refunded through PayPal');

    // PayPal's webhook for the same refund, and her button again: nothing comes back twice.
    const capture = (await orderRow(orderId)).paypalCaptureId!;
    const event = {
      id: `WH-${Date.now()}`,
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: {
        id: `RF-${Date.now()}`,
        status: 'COMPLETED',
        amount: { value: '10.00', currency_code: 'USD' },
        links: [{ rel: 'up', href: `https://api.paypal.test/v2/payments/captures/${capture}` }],
      },
    };
    expect((await server.api('/api/paypal/webhook', { method: 'POST', json: event, headers: emulatorWebhookHeaders() })).status).toBe(200);
    expect((await asAdmin(`/api/admin/orders/${orderId}/refund`, 'POST')).status).toBe(409);
    expect(await balanceOf(card.code)).toBe(2_000);
    expect(await cardRowsOfOrder(orderId)).toEqual([
      { change: -2_000, reason: 'used' },
      { change: 2_000, reason: 'returned' },
    ]);
  });

  it('two taps of her refund at once: both answer the order refunded; PayPal refunds once, the card gets its part back once, the buyer is mailed once', async () => {
    const card = await issue(1_000);
    const tinId = await tin(2_500, 10);
    const buyer = unique('double-tap');
    const q = (await (await quote({ ...pickupCart(tinId), giftCardCode: card.code })).json()) as { orderID: string };
    await approve(q.orderID, { email: buyer });
    const paid = await place({ ...pickupCart(tinId), giftCardCode: card.code, orderId: q.orderID });
    const orderId = ((await paid.json()) as { order: { _id: string } }).order._id;
    expect(await balanceOf(card.code)).toBe(0);
    // Both taps read the order paid before either reaches PayPal: the race of two quick taps, every time.
    const payments = server.services.payments;
    const realRefund = payments.refundCapture.bind(payments);
    let arrived = 0;
    let bothThere: () => void = () => {};
    const atPayPal = new Promise<void>((resolve) => (bothThere = resolve));
    const refundSpy = vi.spyOn(payments, 'refundCapture').mockImplementation(async (captureId) => {
      if (++arrived === 2) bothThere();
      await atPayPal;
      return realRefund(captureId);
    });

    const taps = await Promise.all([asAdmin(`/api/admin/orders/${orderId}/refund`, 'POST'), asAdmin(`/api/admin/orders/${orderId}/refund`, 'POST')]);
    // PayPal refunded the first and refused the second as refunded already: both taps answer the order refunded.
    for (const t of taps) expect(t.status, await t.clone().text()).toBe(200);
    for (const t of taps) expect(await t.json()).toMatchObject({ status: 'refunded' });
    expect((await orderRow(orderId)).status).toBe('refunded');
    expect(await balanceOf(card.code)).toBe(1_000);
    expect(await cardRowsOfOrder(orderId)).toEqual([
      { change: -1_000, reason: 'used' },
      { change: 1_000, reason: 'returned' },
    ]);
    const refundedCaptures = await Promise.all(refundSpy.mock.results.map((r) => (r.value as Promise<unknown>).then(() => 'refunded').catch(() => 'refused')));
    expect(refundedCaptures.filter((r) => r === 'refunded')).toHaveLength(1);
    expect((await readMailbox(server, buyer)).filter((m) => m.subject.endsWith('is refunded'))).toHaveLength(1);
    refundSpy.mockRestore();
  });

  it("a refund PayPal reports of an order's whole PayPal part gives the card's part back", async () => {
    const card = await issue(1_500);
    const tinId = await tin(2_500, 10);
    const q = (await (await quote({ ...pickupCart(tinId), giftCardCode: card.code })).json()) as { orderID: string };
    await approve(q.orderID);
    const orderId = ((await (await place({ ...pickupCart(tinId), giftCardCode: card.code, orderId: q.orderID })).json()) as { order: { _id: string } }).order
      ._id;
    const capture = (await orderRow(orderId)).paypalCaptureId!;
    const refund = (value: string) => ({
      id: `WH-${Date.now()}-${value}`,
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: {
        id: `RF-${Date.now()}-${value}`,
        status: 'COMPLETED',
        amount: { value, currency_code: 'USD' },
        seller_payable_breakdown: { total_refunded_amount: { value, currency_code: 'USD' } },
        links: [{ rel: 'up', href: `https://api.paypal.test/v2/payments/captures/${capture}` }],
      },
    });
    // $5 of the $10 PayPal took: a partial refund leaves the order and the card as they are.
    await server.api('/api/paypal/webhook', { method: 'POST', json: refund('5.00'), headers: emulatorWebhookHeaders() });
    expect((await orderRow(orderId)).status).toBe('paid');
    expect(await balanceOf(card.code)).toBe(0);
    await server.api('/api/paypal/webhook', { method: 'POST', json: refund('10.00'), headers: emulatorWebhookHeaders() });
    expect((await orderRow(orderId)).status).toBe('refunded');
    expect(await balanceOf(card.code)).toBe(1_500);
  });

  it('every wrong code answers alike, in the cart as at the balance, and the tries are limited per address', async () => {
    const bar = await tin(1_000);
    const wrong = ['ABCD-EFGH-JKLM-NPQR', '0000', 'x'.repeat(39)];
    for (const code of wrong) {
      const res = await quote({ ...pickupCart(bar), giftCardCode: code }, from(200));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: 'We couldn’t find a gift card with that code. Please check it and try again.' });
    }
    let refused = 0;
    for (let i = 0; i < 25; i++) {
      const res = await quote({ ...pickupCart(bar), giftCardCode: `ZZZZ-ZZZZ-ZZZZ-ZZ${i.toString().padStart(2, '2')}` }, from(201));
      if (res.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    // Another address is not slowed by that one.
    expect((await quote({ ...pickupCart(bar) }, from(202))).status).toBe(200);
  });
});

describe(`a gift card spent on a session on ${kind}`, () => {
  const YOGA = 'Individual Yoga Session (60 min)';
  const { addSlot } = packageFixtures(server);
  const book = (client: { id: string; cookie: string }, slotId: string, extra: Record<string, unknown>) =>
    server.api(`/api/bookings/${slotId}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie },
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: 'ignored@example.com', sessionType: YOGA, message: '', ...extra },
    });

  it('pays a session in full with no PayPal order: the card debited, the session sold as a lot of one that the books read, the mail naming the card', async () => {
    const card = await issue(10_000);
    const client = await createUser(server);
    const slot = await addSlot();

    const res = await book(client, slot.id, { giftCardCode: card.code, amount: 90 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
    expect(await balanceOf(card.code)).toBe(1_000);
    const row = await db().selectFrom('slots').select(['bookedBy', 'paypalOrderId', 'creditLotId']).where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ bookedBy: client.id, paypalOrderId: null });
    const lot = await db()
      .selectFrom('creditLots')
      .select(['method', 'priceCents', 'quantity', 'userId'])
      .where('id', '=', row.creditLotId!)
      .executeTakeFirstOrThrow();
    expect(lot).toEqual({ method: 'gift_card', priceCents: 9_000, quantity: 1, userId: client.id });
    const debit = await db().selectFrom('ledgerEntries').select(['change', 'reason']).where('slotId', '=', slot.id).where('userId', 'is', null).execute();
    expect(debit).toEqual([{ change: -9_000, reason: 'used' }]);
    // Her confirmation says what paid for it.
    const confirmation = itemAt(await readMailbox(server, client.email), 0);
    expect(confirmation.text).toContain('Payment: $90.00 paid with a gift card');
  });

  it("a card that holds less pays what it holds and PayPal the rest; the books count the whole; a cancel refunds PayPal's part and gives the card its part back", async () => {
    const card = await issue(5_000);
    const client = await createUser(server);
    const slot = await addSlot();
    const finances = async () => ((await (await asAdmin('/api/admin/finances')).json()) as FinancesView).totals;
    const before = await finances();

    const made = await server.api(`/api/bookings/${slot.id}/paypal-order`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { amount: 90, sessionType: YOGA, giftCardCode: card.code },
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const { orderID } = (await made.json()) as { orderID: string };
    expect((await server.services.payments.getOrder(orderID)).amountCents).toBe(4_000);
    await approve(orderID);

    const res = await book(client, slot.id, { paypalOrderId: orderID, giftCardCode: card.code, amount: 90 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await balanceOf(card.code)).toBe(0);
    const row = await db().selectFrom('slots').select(['bookedBy', 'paypalOrderId', 'amountCents']).where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ bookedBy: client.id, paypalOrderId: orderID, amountCents: 4_000 });
    const confirmation = itemAt(await readMailbox(server, client.email), 0);
    expect(confirmation.text).toContain('Payment: $50.00 paid with a gift card and $40.00 through PayPal');
    // Her books: one session, its whole $90 (the card's money is income when it buys it).
    const after = await finances();
    expect(after.sessionsPaidCount).toBe(before.sessionsPaidCount + 1);
    expect(after.sessionsCents).toBe(before.sessionsCents + 9_000);

    // Moved to another time: the card's part goes along (in the books, and back on a cancel).
    const later = await addSlot();
    const moved = await server.api(`/api/bookings/${slot.id}/reschedule`, { method: 'POST', headers: { cookie: client.cookie }, json: { toSlotId: later.id } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await finances()).sessionsCents).toBe(before.sessionsCents + 9_000);

    // Cancelled in time: PayPal's $40 refunded, the card's $50 back on the card, once.
    const cancelled = await server.api(`/api/bookings/${later.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(await balanceOf(card.code)).toBe(5_000);
    expect(emulatorCaptureCount(orderID)).toBe(1);
    const notice = (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Booking cancelled') || /cancel/i.test(m.subject));
    expect(notice?.text, JSON.stringify((await readMailbox(server, client.email)).map((m) => m.subject))).toContain(
      'The $50.00 your gift card paid is back on the card.',
    );
    await expect(
      server.services.payments.refundCapture(
        (await db().selectFrom('bookingCancellations').select('paypalCaptureId').where('paypalOrderId', '=', orderID).executeTakeFirstOrThrow())
          .paypalCaptureId!,
      ),
    ).rejects.toMatchObject({ issue: 'CAPTURE_FULLY_REFUNDED' });
    expect((await finances()).sessionsCents).toBe(before.sessionsCents);
  });

  it('a card spent elsewhere between the order and the booking is refused before any capture; PayPal declining the rest gives the card its part back', async () => {
    const card = await issue(3_000);
    const client = await createUser(server);
    const order = async (slotId: string) => {
      const made = await server.api(`/api/bookings/${slotId}/paypal-order`, {
        method: 'POST',
        headers: { cookie: client.cookie },
        json: { amount: 90, sessionType: YOGA, giftCardCode: card.code },
      });
      const { orderID } = (await made.json()) as { orderID: string };
      await approve(orderID);
      return orderID;
    };
    // A card that pays it all: no PayPal order at all (book with the card alone).
    const big = await issue(10_000);
    const all = await server.api(`/api/bookings/${(await addSlot()).id}/paypal-order`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { amount: 90, sessionType: YOGA, giftCardCode: big.code },
    });
    expect(all.status).toBe(400);
    expect((await all.json()).message).toBe(GIFT_CARD_PAYS_ALL);

    const first = await addSlot();
    const firstOrder = await order(first.id);
    await asAdmin(`/api/admin/gift-cards/${card._id}/adjust`, 'POST', { cents: -1_000, reason: 'Spent at the market' });
    const changed = await book(client, first.id, { paypalOrderId: firstOrder, giftCardCode: card.code, amount: 90 });
    expect(changed.status).toBe(409);
    expect(emulatorCaptureCount(firstOrder)).toBe(0);
    expect(await balanceOf(card.code)).toBe(2_000);

    const second = await addSlot();
    const secondOrder = await order(second.id);
    vi.spyOn(server.services.payments, 'captureOrder').mockRejectedValueOnce(
      new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED'),
    );
    const declined = await book(client, second.id, { paypalOrderId: secondOrder, giftCardCode: card.code, amount: 90 });
    expect(declined.status).toBe(402);
    expect(await balanceOf(card.code)).toBe(2_000);
    expect((await db().selectFrom('slots').select('bookedAt').where('id', '=', second.id).executeTakeFirstOrThrow()).bookedAt).toBeNull();
  });

  it('a card that holds less than the amount is refused with what it holds; a wrong code and an amount outside her range too; nothing booked or taken', async () => {
    const card = await issue(5_000);
    const client = await createUser(server);
    const slot = await addSlot();
    const short = await book(client, slot.id, { giftCardCode: card.code, amount: 90 });
    expect(short.status).toBe(402);
    expect(await short.json()).toEqual({
      message: 'Your gift card holds $50.00, less than the $90.00 you chose. Choose an amount it covers, or pay with PayPal.',
    });
    const wrong = await book(client, slot.id, { giftCardCode: 'ABCD-EFGH-JKLM-NPQR', amount: 90 });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('We couldn’t find a gift card with that code. Please check it and try again.');
    expect((await book(client, slot.id, { giftCardCode: card.code, amount: 20 })).status).toBe(400);
    expect((await book(client, slot.id, { giftCardCode: card.code })).status).toBe(400);
    expect((await book(client, slot.id, { giftCardCode: card.code, amount: 90, useCredit: true })).status).toBe(400);
    expect(await balanceOf(card.code)).toBe(5_000);
    expect((await db().selectFrom('slots').select('bookedAt').where('id', '=', slot.id).executeTakeFirstOrThrow()).bookedAt).toBeNull();
  });
});

describe(`a package bought with a gift card on ${kind}`, () => {
  const { packageNamed } = packageFixtures(server);
  const buyWithCard = (client: { id: string; cookie: string }, packageId: string, json: Record<string, unknown>) =>
    server.api(`/api/user/${client.id}/packages/${packageId}/gift-card`, { method: 'POST', headers: { cookie: client.cookie }, json });

  it('a card that holds it all buys the package: the credits granted, the card debited in the same transaction, the mail naming the card', async () => {
    const five = await packageNamed('Five individual yoga sessions');
    const card = await issue(50_000);
    const client = await createUser(server);
    const res = await buyWithCard(client, five._id, { giftCardCode: card.code, amountCents: five.suggestedPriceCents });
    expect(res.status, await res.clone().text()).toBe(201);
    const { lotId, balance } = (await res.json()) as { lotId: string; balance: { credits: { lotId: string; remaining: number }[] } };
    expect(balance.credits.find((c) => c.lotId === lotId)?.remaining).toBe(five.sessions);
    expect(await balanceOf(card.code)).toBe(50_000 - five.suggestedPriceCents);
    const lot = await db().selectFrom('creditLots').select(['method', 'priceCents', 'userId']).where('id', '=', lotId).executeTakeFirstOrThrow();
    expect(lot).toEqual({ method: 'gift_card', priceCents: five.suggestedPriceCents, userId: client.id });
    const mail = itemAt(await readMailbox(server, client.email), 0);
    expect(mail.text).toContain(`paid with a gift card`);
  });

  it('a card that holds less pays its part and PayPal the rest: the credits at the whole price; PayPal declining the rest gives the card its part back', async () => {
    const five = await packageNamed('Five individual yoga sessions');
    const price = five.suggestedPriceCents;
    const card = await issue(10_000);
    const client = await createUser(server);
    const made = await server.api(`/api/user/${client.id}/packages/${five._id}/gift-card/paypal-order`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { giftCardCode: card.code, amountCents: price },
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const { orderID } = (await made.json()) as { orderID: string };
    expect((await server.services.payments.getOrder(orderID)).amountCents).toBe(price - 10_000);
    await approve(orderID);

    vi.spyOn(server.services.payments, 'captureOrder').mockRejectedValueOnce(
      new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED'),
    );
    const declined = await buyWithCard(client, five._id, { giftCardCode: card.code, amountCents: price, paypalOrderId: orderID });
    expect(declined.status).toBe(402);
    expect(await balanceOf(card.code)).toBe(10_000);

    const res = await buyWithCard(client, five._id, { giftCardCode: card.code, amountCents: price, paypalOrderId: orderID });
    expect(res.status, await res.clone().text()).toBe(201);
    const { lotId } = (await res.json()) as { lotId: string };
    expect(await balanceOf(card.code)).toBe(0);
    const lot = await db().selectFrom('creditLots').select(['method', 'priceCents', 'paypalOrderId']).where('id', '=', lotId).executeTakeFirstOrThrow();
    expect(lot).toEqual({ method: 'paypal', priceCents: price, paypalOrderId: orderID });
    const mail = must(
      (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Your package')),
      'mail',
    );
    expect(mail.text).toContain(`$100.00 paid with a gift card and $${((price - 10_000) / 100).toFixed(2)} paid through PayPal`);
  });

  it('a card that holds less, a wrong code, an amount off the scale, or another client: refused, nothing granted or taken', async () => {
    const five = await packageNamed('Five individual yoga sessions');
    const card = await issue(five.minPriceCents - 100);
    const client = await createUser(server);
    const lots = async () => (await db().selectFrom('creditLots').select('id').where('userId', '=', client.id).execute()).length;

    const short = await buyWithCard(client, five._id, { giftCardCode: card.code, amountCents: five.minPriceCents });
    expect(short.status).toBe(402);
    expect((await short.json()).message).toMatch(/^Your gift card holds \$/);
    expect((await buyWithCard(client, five._id, { giftCardCode: 'ABCD-EFGH-JKLM-NPQR', amountCents: five.minPriceCents })).status).toBe(400);
    expect((await buyWithCard(client, five._id, { giftCardCode: card.code, amountCents: five.minPriceCents - 100 })).status).toBe(400);
    const other = await createUser(server);
    expect(
      (
        await server.api(`/api/user/${client.id}/packages/${five._id}/gift-card`, {
          method: 'POST',
          headers: { cookie: other.cookie },
          json: { giftCardCode: card.code, amountCents: five.minPriceCents },
        })
      ).status,
    ).toBe(403);
    expect(await lots()).toBe(0);
    expect(await balanceOf(card.code)).toBe(five.minPriceCents - 100);
  });
});

describe(`a gift card in a client's data and erasure on ${kind}`, () => {
  it('her export lists the cards she bought and the cards given to her, with their history; her erasure takes her name and address off them and their money stays', async () => {
    const client = await createUser(server, { email: unique('holder') });
    // A card she was given (delivered today), of which she spent $12 on a tin.
    const given = await asAdmin('/api/admin/gift-cards', 'POST', { amountCents: 4_000, recipientName: 'Ana Lima', recipientEmail: client.email.toUpperCase() });
    const { code } = (await given.json()) as { code: string };
    const tinId = await tin(1_200);
    const spent = await place({ ...pickupCart(tinId), giftCardCode: code, payerName: 'Ana Lima', payerEmail: client.email });
    expect(spent.status, await spent.clone().text()).toBe(201);
    // A card she bought for a friend, not yet sent.
    const made = await server.api('/api/gift-cards/paypal-order', { method: 'POST', json: { amountCents: 2_000 } });
    const { orderID } = (await made.json()) as { orderID: string };
    await approve(orderID);
    const later = new Date(server.services.clock.now().getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
    const bought = await server.api('/api/gift-cards', {
      method: 'POST',
      json: {
        paypalOrderId: orderID,
        amountCents: 2_000,
        design: 'yoga',
        buyerName: 'Ana Lima',
        buyerEmail: client.email,
        recipientName: 'Fay Friend',
        recipientEmail: unique('friend'),
        sendOn: later,
      },
    });
    expect(bought.status, await bought.clone().text()).toBe(201);

    const exported = (await (await server.api(`/api/user/${client.id}/export`, { headers: { cookie: client.cookie } })).json()) as {
      giftCards: { endingIn: string; bought: boolean; received: boolean; amount: string; balance: string; history: { change: string; reason: string }[] }[];
    };
    expect(exported.giftCards).toEqual([
      expect.objectContaining({
        endingIn: code.slice(-4),
        received: true,
        bought: false,
        amount: '40.00',
        balance: '28.00',
        history: [expect.objectContaining({ change: '40.00', reason: 'bought' }), expect.objectContaining({ change: '-12.00', reason: 'used' })],
      }),
      expect.objectContaining({ bought: true, received: false, amount: '20.00', balance: '20.00' }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(code);
    const html = await (await server.api(`/api/user/${client.id}/export/html`, { headers: { cookie: client.cookie } })).text();
    expect(html).toContain('Gift cards');

    expect((await asAdmin(`/api/admin/users/${client.id}`, 'DELETE')).status).toBe(200);
    const left = await db()
      .selectFrom('giftCards')
      .select(['buyerName', 'buyerEmail', 'recipientName', 'recipientEmail', 'message'])
      .where((w) => w.or([w('codeLast4', '=', code.slice(-4)), w('buyerName', '=', '')]))
      .execute();
    expect(JSON.stringify(left)).not.toContain(client.email);
    expect(JSON.stringify(left).toLowerCase()).not.toContain(client.email.toLowerCase());
    // Its money stays on the card: whoever holds the code spends it.
    expect(await balanceOf(code)).toBe(2_800);
  });
});
