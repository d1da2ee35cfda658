/**
 * Issue 47 (decision 0055): a package's PayPal refund is never forgotten. With PayPal refusing
 * refunds (the emulator's switch), her refund of a package takes the sessions back and owes the
 * money: the answer says it is owed and retried, a second press is 409 and owes nothing twice,
 * Today and the client's page (hers and the client's own balance) show "refund owed" with its
 * amount and what for, and she is mailed once, on its first failure, however often it fails
 * again (each wait longer than the last). Once PayPal is back the runner makes it: one refund at
 * the emulator, shown nowhere any more, and never made again. On PGlite and PostgreSQL.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { until } from '../../helpers/until.ts';
import { emulatorRefundCount } from '../../../api/services/payments/emulator.ts';
import { makeDueRefunds } from '../../../api/money/refunds-owed.ts';
import type { BalanceView, LotRefundedView, PackageBoughtView, PackageView } from '../../../contract/packages.ts';
import type { TodayView } from '../../../contract/backoffice.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
beforeAll(() => {
  server.services.realtime = { kind: 'partykit-dev', host: 'test', notifySlotBooked: async () => true, notifySlotFreed: async () => true };
});

const FIVE = 'Five individual yoga sessions';
const TEACHER = 'teacher@example.com';
const db = () => server.services.db;
const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const refundMode = async (mode: 'ok' | 'fail') =>
  expect((await server.api('/dev/paypal/v2/emulator/refunds', { method: 'POST', json: { mode } })).status).toBe(200);
afterEach(() => refundMode('ok'));

type Client = Awaited<ReturnType<typeof createUser>>;

async function boughtFive(client: Client, amountCents: number): Promise<{ lotId: string; orderId: string }> {
  const five = ((await (await server.api('/api/packages')).json()) as PackageView[]).find((p) => p.name === FIVE)!;
  const made = await server.api(`/api/user/${client.id}/packages/${five._id}/paypal-order`, {
    method: 'POST',
    json: { amountCents },
    headers: { cookie: client.cookie },
  });
  expect(made.status).toBe(200);
  const { orderID } = (await made.json()) as { orderID: string };
  expect((await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Pat' } })).status).toBe(200);
  const bought = await server.api(`/api/user/${client.id}/packages/${five._id}/buy`, {
    method: 'POST',
    json: { paypalOrderId: orderID },
    headers: { cookie: client.cookie },
  });
  expect(bought.status).toBe(201);
  return { lotId: ((await bought.json()) as PackageBoughtView).lotId, orderId: orderID };
}

const owedRow = (lotId: string) =>
  db().selectFrom('refundsOwed').selectAll().where('kind', '=', 'package').where('subjectId', '=', lotId).executeTakeFirstOrThrow();
/** The wait is over: the row's next try is due now. */
const due = (id: string) =>
  db()
    .updateTable('refundsOwed')
    .set({ nextTryAt: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
const today = async () => (await (await asAdmin('/api/admin/today')).json()) as TodayView;
const mailsToHer = async () => (await readMailbox(server, TEACHER)).filter((m) => m.subject.startsWith('Refund owed:') && m.subject.includes(FIVE));

describe(`a package refund PayPal refuses, on ${testDbKind()}`, () => {
  it('is owed, shown on Today and the client’s pages, mailed to her once, and made once PayPal is back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await createUser(server);
    const { lotId } = await boughtFive(client, 41_300);
    const refundsBefore = emulatorRefundCount();

    await refundMode('fail');
    const res = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(res.status).toBe(200);
    const body = (await res.json()) as LotRefundedView;
    expect(body).toMatchObject({ sessionsTakenBack: 5, paypalRefund: 'owed' });
    expect(body.message).toContain('the refund is owed and the site will try again');
    expect(body.message).not.toMatch(/by hand/);
    expect(body.balance.refundsOwed).toEqual([{ _id: expect.any(String), what: FIVE, amountCents: 41_300, since: expect.any(String) }]);

    // A second press: 409 as before, and nothing owed twice.
    const again = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(again.status).toBe(409);
    expect(await db().selectFrom('refundsOwed').select('id').where('subjectId', '=', lotId).execute()).toHaveLength(1);

    const row = await owedRow(lotId);
    expect(row).toMatchObject({ state: 'owed', attempts: 1, userId: client.id, amountCents: 41_300, paypalOrderId: expect.any(String) });
    expect(row.lastError).toMatch(/503 SERVICE_UNAVAILABLE/);

    // Today, her client page (the balance it reads) and the client's own balance.
    const view = await today();
    expect(view.refundsOwed.count).toBe(1);
    expect(view.refundsOwed.cents).toBe(41_300);
    expect(view.refundsOwed.items[0]).toMatchObject({
      what: FIVE,
      amountCents: 41_300,
      clientName: expect.any(String),
      attempts: 1,
      href: `/admin/client?id=${client.id}`,
    });
    const hers = (await (await asAdmin(`/api/user/${client.id}/balance`)).json()) as BalanceView;
    expect(hers.refundsOwed).toMatchObject([{ what: FIVE, amountCents: 41_300 }]);
    const own = (await (await server.api(`/api/user/${client.id}/balance`, { headers: { cookie: client.cookie } })).json()) as BalanceView;
    expect(own.refundsOwed).toMatchObject([{ what: FIVE, amountCents: 41_300 }]);

    // Mailed once, through the outbox.
    await until(async () => (await mailsToHer()).length === 1);
    expect(itemAt(await mailsToHer(), 0).text).toContain('$413.00');

    // Still failing: tried again after the wait, each wait longer; no second mail.
    const waits: number[] = [];
    for (let i = 0; i < 2; i++) {
      await due(row.id);
      expect(await makeDueRefunds(server.services)).toBe(0);
      const r = await owedRow(lotId);
      waits.push(new Date(r.nextTryAt).getTime() - Date.now());
    }
    expect((await owedRow(lotId)).attempts).toBe(3);
    expect(waits[1]!).toBeGreaterThan(waits[0]! * 1.5);
    // Not due yet: the runner leaves it alone.
    expect(await makeDueRefunds(server.services)).toBe(0);
    expect((await owedRow(lotId)).attempts).toBe(3);
    expect(await mailsToHer()).toHaveLength(1);
    expect(emulatorRefundCount()).toBe(refundsBefore);

    // PayPal is back: the next run makes it, once.
    await refundMode('ok');
    await due(row.id);
    expect(await makeDueRefunds(server.services)).toBe(1);
    expect(emulatorRefundCount()).toBe(refundsBefore + 1);
    expect(await owedRow(lotId)).toMatchObject({ state: 'done', doneAt: expect.any(Date) });
    expect((await today()).refundsOwed.count).toBe(0);
    expect(((await (await asAdmin(`/api/user/${client.id}/balance`)).json()) as BalanceView).refundsOwed).toEqual([]);
    // Done is done: later runs and presses make no second refund.
    await due(row.id);
    expect(await makeDueRefunds(server.services)).toBe(0);
    expect((await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST')).status).toBe(409);
    expect(emulatorRefundCount()).toBe(refundsBefore + 1);
    expect(await mailsToHer()).toHaveLength(1);
  });

  it('is made at once when PayPal answers: nothing left owed, nothing mailed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = await createUser(server);
    const { lotId } = await boughtFive(client, 42_000);
    const before = emulatorRefundCount();
    const res = await asAdmin(`/api/admin/users/${client.id}/lots/${lotId}/refund`, 'POST');
    expect(await res.json()).toMatchObject({ paypalRefund: 'refunded', balance: { refundsOwed: [] } });
    expect(await owedRow(lotId)).toMatchObject({ state: 'done', attempts: 0, toldAt: null });
    expect(emulatorRefundCount()).toBe(before + 1);
  });
});
