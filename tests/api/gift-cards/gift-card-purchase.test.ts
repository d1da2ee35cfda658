/**
 * Issue 33 (decision 0041): a gift card bought through PayPal, the fourth purchase kind of the
 * one payment lifecycle, on PGlite and PostgreSQL. Bought through the emulator: the card made
 * with the amount paid, the recipient mailed the code on its day, the buyer a receipt at once
 * (the last four only) and a note when it went; an amount off refused before PayPal; an order for
 * another amount refused; a replay answers the same card; a checkout overtaken by the reconciler
 * (as after a crash) makes one card; the sale is not income.
 */
import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { reconcilePayments } from '../../../api/money/reconcile.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { deliverDueCards } from '../../../api/gift-cards/gift-cards.ts';
import { emulatorCaptureCount } from '../../../api/services/payments/emulator.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import { until } from '../../helpers/until.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });

const db = () => server.services.db;
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const asAdmin = async (path: string) => server.api(path, { headers: { cookie: await adminCookie(server) } });
const attemptOf = (paypalOrderId: string) => db().selectFrom('paymentAttempts').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
const cardsOf = (paypalOrderId: string) =>
  db()
    .selectFrom('giftCards as g')
    .innerJoin('creditLots as l', 'l.id', 'g.lotId')
    .select(['g.id', 'g.codeLast4', 'g.design', 'g.buyerName', 'g.sendOn', 'g.deliveredAt', 'g.createdBy', 'l.quantity', 'l.priceCents', 'l.method', 'l.unit'])
    .where('l.paypalOrderId', '=', paypalOrderId)
    .execute();
const CODE = /Your code: ([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})/;

let n = 0;
const address = (who: string) => `${who}-${Date.now().toString(36)}-${++n}@example.com`;

const orderFor = (amountCents: unknown) => server.api('/api/gift-cards/paypal-order', { method: 'POST', json: { amountCents } });

/** The PayPal order for a card, approved in the emulator's window; `captureDelayMs`: PayPal slow to answer the capture (after making it). */
async function approvedOrder(amountCents: number, captureDelayMs = 0): Promise<string> {
  const made = await orderFor(amountCents);
  expect(made.status).toBe(200);
  const { orderID } = (await made.json()) as { orderID: string };
  const approved = await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Bea', surname: 'Buyer', captureDelayMs },
  });
  expect(approved.status).toBe(200);
  return orderID;
}

function purchase(paypalOrderId: string, amountCents: number, more: Record<string, unknown> = {}) {
  return {
    paypalOrderId,
    amountCents,
    design: 'chocolates',
    buyerName: 'Bea Buyer',
    buyerEmail: address('bea'),
    recipientName: 'Rae Gift',
    recipientEmail: address('rae'),
    message: 'Merry Christmas!',
    ...more,
  };
}
const buy = (json: Record<string, unknown>) => server.api('/api/gift-cards', { method: 'POST', json });

describe(`buying a gift card through PayPal on ${testDbKind()}`, () => {
  it('a $50 chocolates card for today: the recipient gets the code, the buyer a receipt with the last four and the note it went; once for a replay; not income', async () => {
    const finances = async () => {
      const f = (await (await asAdmin('/api/admin/finances')).json()) as FinancesView;
      return { totals: f.totals, sessionsOwed: f.sessionsOwed, giftCardsOwedCents: f.giftCardsOwed.cents };
    };
    const before = await finances();
    const orderId = await approvedOrder(5_000);
    const json = purchase(orderId, 5_000);

    const res = await buy(json);
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { _id: string; last4: string };
    expect(body.last4).toMatch(/^[2-9A-HJ-NP-Z]{4}$/);
    expect(await cardsOf(orderId)).toMatchObject([
      { id: body._id, codeLast4: body.last4, design: 'chocolates', buyerName: 'Bea Buyer', sendOn: today(), createdBy: 'buyer' },
    ]);
    expect(await cardsOf(orderId)).toMatchObject([{ quantity: 5_000, priceCents: 5_000, method: 'paypal', unit: 'cents' }]);
    expect(itemAt(await cardsOf(orderId), 0).deliveredAt).not.toBeNull();
    expect(await attemptOf(orderId)).toMatchObject({ kind: 'gift_card', state: 'completed', settledBy: 'checkout', userId: null, amountCents: 5_000 });

    // The recipient: the code, the amount, the buyer's words.
    const [card, ...moreToRae] = await readMailbox(server, json.recipientEmail as string);
    expect(moreToRae).toEqual([]);
    expect(must(card, 'card').subject).toBe('A $50.00 gift card from Bea Buyer');
    expect(must(card, 'card').text).toContain('“Merry Christmas!”');
    const code = must(CODE.exec(must(card, 'card').text), 'CODE.exec(card.text)')[1]!;
    expect(code.slice(-4)).toBe(body.last4);

    // The buyer: the receipt and the note it went, each naming the last four and never the code.
    const toBea = await readMailbox(server, json.buyerEmail as string);
    expect(toBea.map((m) => m.subject).sort()).toEqual(['Your gift card to Rae Gift was delivered', 'Your receipt: a $50.00 gift card for Rae Gift']);
    const receipt = toBea.find((m) => m.subject.startsWith('Your receipt'))!;
    expect(receipt.text).toContain(`(ending ${body.last4})`);
    expect(receipt.text).toContain('today');
    expect(receipt.text).toContain('never expires');
    expect(receipt.text).toContain('No sales tax');
    expect(receipt.text).toContain(orderId);
    for (const m of toBea) expect(m.text).not.toContain(code.slice(0, 14));

    // The balance by the code.
    const balance = await server.api(`/api/gift-cards/balance?code=${encodeURIComponent(code)}`);
    expect(await balance.json()).toEqual({ balanceCents: 5_000 });

    // Paying again with the same order answers the same card: nothing more is captured, made or mailed.
    const again = await buy(json);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(body);
    expect(await cardsOf(orderId)).toHaveLength(1);
    expect(await readMailbox(server, json.recipientEmail as string)).toHaveLength(1);
    expect(await readMailbox(server, json.buyerEmail as string)).toHaveLength(2);

    // A card is owed, not earned: neither income nor sessions owed move at its sale; the cards owed do.
    expect(await finances()).toEqual({ ...before, giftCardsOwedCents: before.giftCardsOwedCents + 5_000 });
  });

  it('refuses an amount off ($5, $501, $12.50, $49.99) before PayPal, and an order for another amount', async () => {
    const attempts = async () => Number((await db().selectFrom('paymentAttempts').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await attempts();
    const createOrder = vi.spyOn(server.services.payments, 'createOrder');
    for (const cents of [500, 50_100, 1_250, 4_999]) {
      const res = await orderFor(cents);
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual([
        { path: 'amountCents', message: 'A gift card can be bought for a whole number of dollars from $10 to $500.' },
      ]);
    }
    expect(createOrder).not.toHaveBeenCalled();
    createOrder.mockRestore();
    const captures = emulatorCaptureCount();

    // An order approved for $20, sent as a $50 card: refused, nothing captured or made.
    const twenty = await approvedOrder(2_000);
    const other = await buy(purchase(twenty, 5_000));
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ message: 'This payment was made for another gift card. Please pay for this card.' });
    // An order not approved: refused.
    const made = (await (await orderFor(2_000)).json()) as { orderID: string };
    const unapproved = await buy(purchase(made.orderID, 2_000));
    expect(unapproved.status).toBe(400);
    expect(await unapproved.json()).toEqual({ message: 'Your payment could not be processed. Please check your payment details and try again.' });
    // A day before today, or a year away: refused before PayPal.
    const past = await buy(purchase(twenty, 2_000, { sendOn: addDays(today(), -1) }));
    expect(past.status).toBe(400);
    expect((await past.json()).message).toBe('The delivery day must be today or later.');
    expect(await attempts()).toBe(before);
    expect(emulatorCaptureCount()).toBe(captures);
    expect(await cardsOf(twenty)).toEqual([]);
  });

  it('a card for next week, bought signed in: not delivered now; on its day the periodic delivery mails it once', async () => {
    const client = await createUser(server, { firstName: 'Bea' });
    const orderId = await approvedOrder(2_500);
    const nextWeek = addDays(today(), 7);
    const json = purchase(orderId, 2_500, { sendOn: nextWeek, design: 'yoga', message: undefined });
    const res = await server.api('/api/gift-cards', { method: 'POST', json, headers: { cookie: client.cookie } });
    expect(res.status).toBe(201);
    expect(await attemptOf(orderId)).toMatchObject({ kind: 'gift_card', state: 'completed', userId: client.id });
    const { last4 } = (await res.json()) as { last4: string };
    expect(await readMailbox(server, json.recipientEmail as string)).toEqual([]);
    const [receipt, ...more] = await readMailbox(server, json.buyerEmail as string);
    expect(more).toEqual([]);
    expect(must(receipt, 'receipt').text).toContain(`(ending ${last4})`);
    expect(must(receipt, 'receipt').text).toContain(`on ${nextWeek}`);

    await deliverDueCards(server.services, addDays(today(), 6));
    expect(await readMailbox(server, json.recipientEmail as string)).toEqual([]);
    await deliverDueCards(server.services, nextWeek);
    await deliverDueCards(server.services, nextWeek);
    const [card, ...again] = await readMailbox(server, json.recipientEmail as string);
    expect(again).toEqual([]);
    expect(itemAt(must(CODE.exec(must(card, 'card').text), 'CODE.exec(card.text)'), 1).slice(-4)).toBe(last4);
    expect((await readMailbox(server, json.buyerEmail as string)).map((m) => m.subject)).toContain('Your gift card to Rae Gift was delivered');
  });

  it("the receipt's link lets the buyer change the recipient and the day until it is sent; today sends it at once; a wrong link says nothing", async () => {
    const orderId = await approvedOrder(3_000);
    const nextWeek = addDays(today(), 7);
    const json = purchase(orderId, 3_000, { sendOn: nextWeek });
    expect((await buy(json)).status).toBe(201);
    const receipt = itemAt(await readMailbox(server, json.buyerEmail as string), 0);
    const link = /(https?:\/\/\S+\/gift-cards\/change\?card=(\S+)&token=(\S+))/.exec(receipt.text);
    expect(link, receipt.text).not.toBeNull();
    const [, , id, token] = link! as unknown as [string, string, string, string];
    const delivery = (t: string) => server.api(`/api/gift-cards/${id}/delivery?token=${encodeURIComponent(t)}`);
    const change = (body: Record<string, unknown>) =>
      server.api(`/api/gift-cards/${id}/delivery`, { method: 'PUT', json: { token, recipientName: 'Rae Gift', ...body } });

    const shown = await delivery(token);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ recipientEmail: json.recipientEmail, sendOn: nextWeek, delivered: false, amountCents: 3_000 });
    // A link that is not the card's (another token, another card's) is refused alike, and nothing changes.
    // One character off the real one (the first: a base64 token's last characters carry few bits, so "AA" there can be the token itself).
    const wrong = await delivery(`${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`);
    expect(wrong.status).toBe(404);
    const other = address('other');
    const forged = await server.api(`/api/gift-cards/${id}/delivery`, {
      method: 'PUT',
      json: { token: 'AAAAAAAAAAAAAAAAAAAAAA', recipientName: 'Mallory', recipientEmail: other, sendOn: today() },
    });
    expect(forged.status).toBe(404);
    expect(await forged.json()).toEqual(await wrong.json());
    expect(await readMailbox(server, other)).toEqual([]);

    // The right link: a new address for the day after; then today, which sends it now, once.
    const later = addDays(today(), 8);
    expect((await change({ recipientEmail: other, sendOn: later })).status).toBe(200);
    expect(await (await delivery(token)).json()).toMatchObject({ recipientEmail: other, sendOn: later });
    expect((await change({ recipientEmail: other, sendOn: addDays(today(), -1) })).status).toBe(400);
    const now = await change({ recipientEmail: other, sendOn: today() });
    expect(now.status).toBe(200);
    expect(await now.json()).toMatchObject({ delivered: true });
    const [card, ...again] = await readMailbox(server, other);
    expect(again).toEqual([]);
    expect(must(card, 'card').text).toMatch(CODE);
    expect(await readMailbox(server, json.recipientEmail as string)).toEqual([]);
    // Sent: nothing changes any more.
    const late = await change({ recipientEmail: json.recipientEmail, sendOn: later });
    expect(late.status).toBe(409);
    expect(await (await delivery(token)).json()).toMatchObject({ recipientEmail: other, delivered: true });
  });

  it('is made once when the reconciler overtakes a checkout whose capture answer is late, as after a crash', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const orderId = await approvedOrder(10_000, 1_500);
    const json = purchase(orderId, 10_000);

    const buying = buy(json);
    // PayPal has captured; its answer is on its way. The attempt is committed and open.
    await until(async () => (await attemptOf(orderId))?.state === 'capturing');
    expect(await cardsOf(orderId)).toEqual([]);

    // Another replica's reconciler takes it over (stale at once here) and finds PayPal's capture.
    const report = await reconcilePayments(server.services, PURCHASE_KINDS, { staleMs: 0, holder: 'another-replica' });
    expect(report.completed).toBe(1);
    expect(await attemptOf(orderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler' });

    // The checkout's late answer finds it recorded and answers that card: made once.
    const res = await buying;
    expect(res.status).toBe(201);
    const body = (await res.json()) as { _id: string; last4: string };
    const cards = await cardsOf(orderId);
    expect(cards.map((c) => c.id)).toEqual([body._id]);
    await until(async () => (await readMailbox(server, json.recipientEmail as string)).length === 1);
    await until(async () => (await readMailbox(server, json.buyerEmail as string)).length === 2);
    expect(await readMailbox(server, json.recipientEmail as string)).toHaveLength(1);
  });
});
