/**
 * Issue 33 (decision 0041): the server killed with SIGKILL after PayPal captured a gift card's
 * payment and before the card was committed, as tests/api/packages/package-crash.test.ts does for
 * a package. The PayPal emulator runs in a process of its own and holds back its capture answer;
 * after a restart the reconciler completes the open attempt: one card, the recipient and the
 * buyer mailed once, no second capture, and the buyer's retry answers that card.
 *
 * PostgreSQL only, as the other crash tests: PGlite dies with the killed process.
 */
import { describe, expect, it } from 'vitest';
import { usePaymentCrash } from '../../helpers/payment-processes.ts';
import { itemAt } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';
const RECONCILE_INTERVAL_MS = 300;
const STALE_MS = 500;
const BUYER = 'crash.buyer@example.com';
const RECIPIENT = 'crash.recipient@example.com';

describe('a server killed between a gift card’s capture and the card', () => {
  const crash = usePaymentCrash({ zone: ZONE, teacher: TEACHER });
  const { db, until } = crash;
  const call = (path: string, json: unknown) => crash.call(path, { method: 'POST', json });
  const cards = (orderID: string) =>
    db()
      .selectFrom('giftCards as g')
      .innerJoin('creditLots as l', 'l.id', 'g.lotId')
      .select(['g.id', 'g.codeLast4', 'l.method', 'l.priceCents', 'l.quantity'])
      .where('l.paypalOrderId', '=', orderID)
      .execute();

  it('makes one card after a restart, mailed once, and the retry answers that card', async () => {
    // The first server never reconciles on its own during the test (a ten-minute interval).
    const emulator = crash.emulator;
    await crash.start({ interval: 600_000, stale: 600_000 });

    const made = await call('/api/gift-cards/paypal-order', { amountCents: 5_000 });
    expect(made.status).toBe(200);
    const { orderID } = (await made.json()) as { orderID: string };
    await emulator.approve(orderID, { givenName: 'Bea', captureDelayMs: 60_000 });

    const before = await emulator.captures();
    const buy = () =>
      call('/api/gift-cards', {
        paypalOrderId: orderID,
        amountCents: 5_000,
        design: 'chocolates',
        buyerName: 'Bea Buyer',
        buyerEmail: BUYER,
        recipientName: 'Rae Gift',
        recipientEmail: RECIPIENT,
      });
    // PayPal captures and its answer is held back; then the crash.
    await crash.killAfterCapture(buy);

    // What the crash left: charged at PayPal, no card, the attempt open.
    expect(await cards(orderID)).toEqual([]);
    expect(await db().selectFrom('paymentAttempts').select(['kind', 'state']).where('paypalOrderId', '=', orderID).execute()).toEqual([
      { kind: 'gift_card', state: 'capturing' },
    ]);

    // The restart: its reconciler runs at start and every RECONCILE_INTERVAL_MS.
    await crash.start({ interval: RECONCILE_INTERVAL_MS, stale: STALE_MS });
    await until(
      async () => (await db().selectFrom('paymentAttempts').select('state').where('paypalOrderId', '=', orderID).executeTakeFirst())?.state === 'completed',
      () => 'not reconciled',
    );
    expect(await db().selectFrom('paymentAttempts').select('settledBy').where('paypalOrderId', '=', orderID).execute()).toEqual([{ settledBy: 'reconciler' }]);
    const made1 = await cards(orderID);
    expect(made1).toEqual([{ id: itemAt(made1, 0).id, codeLast4: itemAt(made1, 0).codeLast4, method: 'paypal', priceCents: 5_000, quantity: 5_000 }]);

    // Mailed once each, after the completing commit: the card, the receipt, the note it went.
    const mails = () => db().selectFrom('mails').select(['to', 'subject']).where('to', 'in', [BUYER, RECIPIENT]).execute();
    await until(
      async () => (await mails()).length >= 3,
      () => 'not mailed',
    );
    expect((await mails()).map((m) => m.subject).sort()).toEqual([
      'A $50.00 gift card from Bea Buyer',
      'Your gift card to Rae Gift was delivered',
      'Your receipt: a $50.00 gift card for Rae Gift',
    ]);

    // The buyer's retry answers the card made; nothing more is captured, made or mailed.
    const retry = await buy();
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual({ _id: itemAt(made1, 0).id, last4: itemAt(made1, 0).codeLast4 });
    expect(await emulator.captures()).toBe(before + 1);
    expect(await cards(orderID)).toHaveLength(1);
    expect(await mails()).toHaveLength(3);
  }, 60_000);
});
