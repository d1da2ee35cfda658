/**
 * Issue 32 (decision 0038): a client buys a package through PayPal, the third purchase kind of
 * the one payment lifecycle, on PGlite and PostgreSQL. Bought through the emulator: the credits
 * granted with the package's terms, paid as PayPal, mailed once through the outbox; an amount off
 * the package's scale refused with its words and nothing changed; a capture whose checkout is
 * overtaken by the reconciler (as after a crash) or by PayPal's webhook granted once, whoever
 * records it; a refund of a package with unused sessions takes them back (once), used ones stay
 * used, the PayPal capture refunded and its price counted among the refunds; a sale recorded by
 * hand refunded the same way, its money hers to return.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addMonths, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { reconcilePayments } from '../../../api/money/reconcile.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import type { BalanceView, LotRefundedView, PackageBoughtView, PackageView } from '../../../contract/packages.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import { until } from '../../helpers/until.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
beforeAll(async () => {
  server.services.realtime = { kind: 'partykit-dev', host: 'test', notifySlotBooked: async () => true, notifySlotFreed: async () => true };
});

const EIGHT = 'Eight weeks of yoga therapy';
const THERAPY = 'Yoga Therapy Session (60 min)';
const FIVE = 'Five individual yoga sessions';
const YOGA = 'Individual Yoga Session (60 min)';
const TEACHER = 'teacher@example.com';

const db = () => server.services.db;
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const balanceOf = async (id: string): Promise<BalanceView> => (await asAdmin(`/api/user/${id}/balance`)).json();
const attemptOf = (paypalOrderId: string) => db().selectFrom('paymentAttempts').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
const lotsOf = (userId: string) => db().selectFrom('creditLots').selectAll().where('userId', '=', userId).execute();

async function packageNamed(name: string): Promise<PackageView> {
  const list = (await (await server.api('/api/packages')).json()) as PackageView[];
  return list.find((p) => p.name === name)!;
}

type Client = Awaited<ReturnType<typeof createUser>>;

const orderFor = (client: Client, packageId: string, amountCents: number) =>
  server.api(`/api/user/${client.id}/packages/${packageId}/paypal-order`, { method: 'POST', json: { amountCents }, headers: { cookie: client.cookie } });
const buy = (client: Client, packageId: string, paypalOrderId: string) =>
  server.api(`/api/user/${client.id}/packages/${packageId}/buy`, { method: 'POST', json: { paypalOrderId }, headers: { cookie: client.cookie } });

/** The PayPal order for the package, approved in the emulator's window; `captureDelayMs`: PayPal slow to answer the capture (after making it). */
async function approvedOrder(client: Client, packageId: string, amountCents: number, captureDelayMs = 0): Promise<string> {
  const made = await orderFor(client, packageId, amountCents);
  expect(made.status).toBe(200);
  const { orderID } = (await made.json()) as { orderID: string };
  const approved = await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Pat', surname: 'Payer', captureDelayMs },
  });
  expect(approved.status).toBe(200);
  return orderID;
}

/** The mails about this PayPal order (the client's confirmation and the teacher's note name it). */
const mailsAbout = async (to: string, paypalOrderId: string) => (await readMailbox(server, to)).filter((m) => m.text.includes(paypalOrderId));

describe(`buying a package through PayPal on ${testDbKind()}`, () => {
  it('grants the package’s sessions once, paid through PayPal, lasting its months, and mails the client and the teacher', async () => {
    const client = await createUser(server);
    const eight = await packageNamed(EIGHT);
    const orderId = await approvedOrder(client, eight._id, 36_000);

    const res = await buy(client, eight._id, orderId);
    expect(res.status).toBe(201);
    const body = (await res.json()) as PackageBoughtView;
    expect(body.payerFirstName).toBe('Pat');
    expect(body.balance.sessionsRemaining).toBe(8);
    expect(body.balance.credits).toEqual([
      { lotId: body.lotId, packageName: EIGHT, sessionTypes: [THERAPY], remaining: 8, expiresOn: addMonths(today(), eight.monthsValid) },
    ]);
    expect(body.balance.history).toMatchObject([{ change: 8, reason: 'bought', packageName: EIGHT }]);
    expect(await lotsOf(client.id)).toMatchObject([
      { id: body.lotId, method: 'paypal', priceCents: 36_000, paidOn: today(), paypalOrderId: orderId, createdBy: 'client' },
    ]);
    expect(await attemptOf(orderId)).toMatchObject({ kind: 'package', state: 'completed', settledBy: 'checkout', userId: client.id, amountCents: 36_000 });

    // Mailed once each, through the outbox.
    const mine = itemAt(
      await until(async () => {
        const m = await mailsAbout(client.email, orderId);
        return m.length ? m : undefined;
      }),
      0,
    );
    expect(mine.subject).toBe(`Your package: ${EIGHT}`);
    expect(mine.text).toContain('8 sessions');
    expect(await mailsAbout(TEACHER, orderId)).toHaveLength(1);

    // Paying again with the same order answers the same lot: nothing more is captured or granted.
    const again = await buy(client, eight._id, orderId);
    expect(again.status).toBe(201);
    expect(((await again.json()) as PackageBoughtView).lotId).toBe(body.lotId);
    expect(await lotsOf(client.id)).toHaveLength(1);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(8);
    expect(await mailsAbout(client.email, orderId)).toHaveLength(1);
  });

  it('refuses an amount off the package’s scale with its words, and makes no order', async () => {
    const client = await createUser(server);
    const eight = await packageNamed(EIGHT);
    for (const cents of [eight.minPriceCents - 1, eight.maxPriceCents + 1]) {
      const res = await orderFor(client, eight._id, cents);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: `The amount for ${EIGHT} must be between $80 and $600.` });
    }
    expect(await db().selectFrom('paymentAttempts').select('id').where('userId', '=', client.id).execute()).toEqual([]);
    expect(await lotsOf(client.id)).toEqual([]);
  });

  it('refuses an order for another package or another client, an unapproved one, and one whose scale she has since changed', async () => {
    const client = await createUser(server);
    const other = await createUser(server);
    const eight = await packageNamed(EIGHT);
    const five = await packageNamed('Five individual yoga sessions');
    const orderId = await approvedOrder(client, eight._id, 20_000);

    const wrongPackage = await buy(client, five._id, orderId);
    expect(wrongPackage.status).toBe(400);
    expect((await wrongPackage.json()).message).toMatch(/another package/);
    // Someone else's order, sent by its owner to her own account's route: made for another client.
    expect((await buy(other, eight._id, orderId)).status).toBe(400);
    // Another client's route: refused before anything (a client buys for herself).
    expect(
      (
        await server.api(`/api/user/${other.id}/packages/${eight._id}/buy`, {
          method: 'POST',
          json: { paypalOrderId: orderId },
          headers: { cookie: client.cookie },
        })
      ).status,
    ).toBe(403);

    const unapproved = (await (await orderFor(client, eight._id, 20_000)).json()) as { orderID: string };
    expect((await buy(client, eight._id, unapproved.orderID)).status).toBe(400);

    // She raises the lowest price above the approved amount: the order no longer fits, nothing is captured.
    const created = await asAdmin('/api/admin/packages', 'POST', {
      name: 'Three therapy sessions',
      sessionTypes: [THERAPY],
      sessions: 3,
      minPriceCents: 9_000,
      suggestedPriceCents: 12_000,
      maxPriceCents: 15_000,
      monthsValid: 2,
    });
    const three = (await created.json()) as PackageView;
    const cheap = await approvedOrder(client, three._id, 9_000);
    await asAdmin(`/api/admin/packages/${three._id}`, 'PUT', { ...three, minPriceCents: 10_000, suggestedPriceCents: 12_000 });
    const refused = await buy(client, three._id, cheap);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('The amount for Three therapy sessions must be between $100 and $150.');
    // Retired: not offered any more.
    await asAdmin(`/api/admin/packages/${three._id}`, 'PUT', { ...three, active: false });
    expect((await orderFor(client, three._id, 12_000)).status).toBe(404);

    expect(await db().selectFrom('paymentAttempts').select('id').where('userId', '=', client.id).execute()).toEqual([]);
    expect(await lotsOf(client.id)).toEqual([]);
  });

  it('is completed once when the reconciler overtakes a checkout whose capture answer is late, as after a crash', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await createUser(server);
    const eight = await packageNamed(EIGHT);
    const orderId = await approvedOrder(client, eight._id, 36_000, 1_500);

    const buying = buy(client, eight._id, orderId);
    // PayPal has captured; its answer is on its way. The attempt is committed and open.
    await until(async () => (await attemptOf(orderId))?.state === 'capturing');
    expect(await lotsOf(client.id)).toEqual([]);

    // Another replica's reconciler takes it over (stale at once here) and finds PayPal's capture.
    const report = await reconcilePayments(server.services, PURCHASE_KINDS, { staleMs: 0, holder: 'another-replica' });
    expect(report.completed).toBe(1);
    expect(await attemptOf(orderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler' });

    // The checkout's late answer finds it recorded and answers that lot: granted once.
    const res = await buying;
    expect(res.status).toBe(201);
    const body = (await res.json()) as PackageBoughtView;
    const lots = await lotsOf(client.id);
    expect(lots.map((l) => l.id)).toEqual([body.lotId]);
    expect(await db().selectFrom('ledgerEntries').select(['change', 'reason']).where('lotId', '=', body.lotId).execute()).toEqual([
      { change: 8, reason: 'bought' },
    ]);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(8);
    await until(async () => (await mailsAbout(client.email, orderId)).length === 1);
    expect(await mailsAbout(TEACHER, orderId)).toHaveLength(1);
  });

  it('is completed once by PayPal’s webhook while the checkout waits for its capture answer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await createUser(server);
    const eight = await packageNamed(EIGHT);
    const orderId = await approvedOrder(client, eight._id, 30_000, 1_500);

    const buying = buy(client, eight._id, orderId);
    await until(async () => (await attemptOf(orderId))?.state === 'capturing');
    // PAYMENT.CAPTURE.COMPLETED names the PayPal order: the open attempt is completed from PayPal's record.
    const event = {
      id: `WH-PACKAGE-${orderId}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAPTUREFROMEVENT', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: orderId } } },
    };
    const hook = await server.api('/api/paypal/webhook', { method: 'POST', json: event, headers: emulatorWebhookHeaders() });
    expect(hook.status).toBe(200);
    expect(await attemptOf(orderId)).toMatchObject({ state: 'completed', settledBy: 'webhook' });

    const res = await buying;
    expect(res.status).toBe(201);
    const { lotId } = (await res.json()) as PackageBoughtView;
    expect((await lotsOf(client.id)).map((l) => [l.id, l.priceCents])).toEqual([[lotId, 30_000]]);
    // A repeat of the event grants nothing more.
    await server.api('/api/paypal/webhook', { method: 'POST', json: { ...event, id: `${event.id}-again` }, headers: emulatorWebhookHeaders() });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(8);
    await until(async () => (await mailsAbout(client.email, orderId)).length === 1);
  });
});

describe(`refunding a package on ${testDbKind()}`, () => {
  let minute = 0;
  async function yogaSlot() {
    const at = new Date(server.services.clock.now().getTime() + 5 * 86_400_000 + ++minute * 61 * 60_000);
    const wall = zonedNow(server.env.SITE_TIMEZONE, at);
    return db()
      .insertInto('slots')
      .values({ date: wall.date, time: wall.time, startsAt: zonedInstant(wall.date, wall.time, server.env.SITE_TIMEZONE) })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  const bookWithCredit = async (client: Client) => {
    const slot = await yogaSlot();
    const res = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie },
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message: '', useCredit: true },
    });
    expect(res.status).toBe(200);
  };

  it('takes back the unused sessions of a package bought through PayPal, once, keeps the used ones used, and refunds the capture', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await createUser(server);
    const five = await packageNamed(FIVE);
    const orderId = await approvedOrder(client, five._id, 45_000);
    const { lotId } = (await (await buy(client, five._id, orderId)).json()) as PackageBoughtView;
    await bookWithCredit(client);
    await bookWithCredit(client);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(3);

    const month = today().slice(0, 7);
    const books = async () => {
      const f = (await (await asAdmin(`/api/admin/finances?from=${month}&to=${month}`)).json()) as FinancesView;
      return { kept: f.totals.sessionsCents, refunded: f.totals.sessionRefundsCents };
    };
    const before = await books();
    const res = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(res.status).toBe(200);
    const body = (await res.json()) as LotRefundedView;
    // The books: its price leaves the session payments kept for the refunds line (decision 0031), same month.
    expect(await books()).toEqual({ kept: before.kept - 45_000, refunded: before.refunded + 45_000 });
    expect(body).toMatchObject({ sessionsTakenBack: 3, paypalRefund: 'refunded' });
    expect(body.message).toMatch(/^3 unused sessions taken back; sessions already used stay used\. The PayPal payment was refunded in full\./);
    expect(body.balance.sessionsRemaining).toBe(0);
    expect(body.balance.history[0]).toMatchObject({ change: -3, reason: 'refunded', note: '2 of 5 used before the refund' });
    // The two sessions booked with it stay booked.
    expect(await db().selectFrom('slots').select('id').where('creditLotId', '=', lotId).execute()).toHaveLength(2);
    // PayPal has the refund: the capture cannot be refunded twice.
    const { paypalCaptureId } = (await attemptOf(orderId))!;
    await expect(server.services.payments.refundCapture(paypalCaptureId!)).rejects.toMatchObject({ issue: 'CAPTURE_FULLY_REFUNDED' });

    // Once: a second refund changes nothing.
    const again = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('This package was refunded already.');
    expect(await db().selectFrom('ledgerEntries').select('id').where('lotId', '=', lotId).where('reason', '=', 'refunded').execute()).toHaveLength(1);
  });

  it('takes back the unused credits of a sale recorded by hand, with no PayPal; refuses another client’s lot', async () => {
    const client = await createUser(server);
    const stranger = await createUser(server);
    const five = await packageNamed(FIVE);
    const sold = await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', {
      packageId: five._id,
      amountCents: 40_000,
      method: 'venmo',
      paidOn: today(),
    });
    const { _id: lotId } = (await sold.json()) as { _id: string };
    await bookWithCredit(client);

    expect((await asAdmin(`/api/admin/users/${stranger.id}/lots/${lotId}/refund`, 'POST')).status).toBe(404);
    // The client herself may not.
    expect((await server.api(`/api/admin/users/${client.id}/lots/${lotId}/refund`, { method: 'POST', headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(4);

    const res = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sessionsTakenBack: 4, paypalRefund: 'none', balance: { sessionsRemaining: 0 } });
  });
});
