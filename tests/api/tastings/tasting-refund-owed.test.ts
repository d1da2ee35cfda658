/**
 * Issue 47: a tasting called off by its client's erasure, its deposit's PayPal refund refused.
 * The refund stays owed (written with the cancellation), the teacher is mailed once that it is
 * owed and retried, and the refund runner makes it once PayPal answers again: one refund at PayPal,
 * none more on a later run. On PGlite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { linkToken } from '../../../api/lib/link-token.ts';
import { emulatorRefundCount } from '../../../api/services/payments/emulator.ts';
import { refundDueTastingPayments } from '../../../api/tastings/tastings-of-deleted-account.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const db = () => server.services.db;
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const refundMode = async (mode: 'ok' | 'fail') =>
  expect((await server.api('/dev/paypal/v2/emulator/refunds', { method: 'POST', json: { mode } })).status).toBe(200);
afterEach(() => refundMode('ok'));

describe(`a tasting's refund owed after its client's erasure, ${testDbKind()}`, () => {
  it('stays owed while PayPal refuses, the teacher mailed once; the runner makes it once PayPal is back', async () => {
    const client = await createUser(server, { email: `tove-${Date.now().toString(36)}@example.com`, firstName: 'Tove', lastName: 'Arnesen' });
    const date = addDays(today(), 20);
    const asked = await server.api('/api/tastings', {
      method: 'POST',
      json: {
        name: 'Tove Arnesen',
        email: client.email,
        phone: '503-555-0188',
        occasion: 'A birthday',
        guests: 12,
        dates: [date, addDays(date, 1)],
        place: '9 Alder Street, Portland',
        recaptchaToken: 'dev:tasting_request',
      },
    });
    expect(asked.status, await asked.clone().text()).toBe(201);
    const requestId = ((await asked.json()) as { _id: string })._id;
    const quoted = await asAdmin(`/api/admin/tastings/${requestId}/quote`, 'POST', {
      priceCents: 40_000,
      depositCents: 20_000,
      date,
      time: '18:00',
      place: '9 Alder Street, Portland',
    });
    expect(quoted.status).toBe(201);
    const quoteId = ((await quoted.json()) as { _id: string })._id;
    const token = linkToken(server.env.APP_SECRET, 'tasting-pay', quoteId);
    const order = await server.api(`/api/tastings/quotes/${quoteId}/paypal-order`, { method: 'POST', json: { token, part: 'deposit' } });
    const { orderID } = (await order.json()) as { orderID: string };
    expect(
      (await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Tove', surname: 'Arnesen' } })).status,
    ).toBe(200);
    const paid = await server.api(`/api/tastings/quotes/${quoteId}/pay`, { method: 'POST', json: { token, part: 'deposit', paypalOrderId: orderID } });
    expect(paid.status, await paid.clone().text()).toBe(201);
    const refund = async () => (await db().selectFrom('tastingPayments').select('refund').where('quoteId', '=', quoteId).executeTakeFirstOrThrow()).refund;

    await refundMode('fail');
    const before = emulatorRefundCount();
    expect((await asAdmin(`/api/admin/users/${client.id}`, 'DELETE')).status).toBeLessThan(300);
    expect(await refund()).toBe('due');
    expect(emulatorRefundCount()).toBe(before);
    // The runner while PayPal still refuses: still owed, and no second mail.
    expect(await refundDueTastingPayments(server.services)).toBe(0);
    const owedMails = (await readMailbox(server, server.env.TEACHER_EMAIL)).filter((m) => /^Refund owed: a deleted account's tasting/.test(m.subject));
    expect(owedMails).toHaveLength(1);
    expect(itemAt(owedMails, 0).text).toContain('$200.00');
    expect(itemAt(owedMails, 0).text).not.toMatch(/Tove|Arnesen|Alder/);

    await refundMode('ok');
    expect(await refundDueTastingPayments(server.services)).toBe(1);
    expect(await refund()).toBe('refunded');
    expect(emulatorRefundCount()).toBe(before + 1);
    expect(await refundDueTastingPayments(server.services)).toBe(0);
    expect(emulatorRefundCount()).toBe(before + 1);
  });
});
