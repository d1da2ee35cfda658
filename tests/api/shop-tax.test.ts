/**
 * Issue 24: sales tax on shipped chocolate orders, through the PayPal emulator. A shipped order
 * to a taxing state is charged items − discount + shipping + tax (the PayPal order's breakdown
 * carries tax_total); a state without sales tax and local pickup pay none; the state is required
 * for a shipped order; a buyer who picks an address in another state in PayPal is refused before
 * the capture (nothing charged); the order stores its tax, the admin's list, the CSV and the
 * mails carry it; a refund returns it (the books count it back); a rate applies from its start.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetRateLimits } from '../../api/middleware/rate-limit.ts';
import { emulatorCaptureCount, emulatorWebhookHeaders } from '../../api/services/payments/emulator.ts';
import { zonedNow } from '../../api/lib/time.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminCookie } from '../helpers/auth.ts';
import { testDbKind } from '../helpers/database.ts';
import { readMailbox } from '../helpers/mail.ts';
import type { TaxYearView } from '../../contract/books.ts';

let server: TestServer;
let admin: string;
let caramel = '';
let espresso = '';
const SHIP_STATE_CHANGED =
  'The shipping address you chose in PayPal is in another state than the one in your cart, so the sales tax would be different. You have not been charged. Please choose that state in your cart and pay again.';

beforeAll(async () => {
  server = await startTestServer();
  admin = await adminCookie(server);
  const { db } = server.services;
  caramel = (
    await db.insertInto('products').values({ name: 'Sea Salt Caramel Tin', priceCents: 1800, inventory: 50 }).returning('id').executeTakeFirstOrThrow()
  ).id;
  espresso = (
    await db.insertInto('products').values({ name: 'Espresso Crunch Bar', priceCents: 1250, inventory: 50 }).returning('id').executeTakeFirstOrThrow()
  ).id;
  await db.insertInto('coupons').values({ code: 'TAX15', percentOff: 15 }).execute();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => resetRateLimits());

const asAdmin = { cookie: () => ({ cookie: admin, origin: server.url }) };
const checkout = (json: unknown) => server.api('/api/orders/paypal', { method: 'POST', json });
const approve = (orderID: string, extra: Record<string, unknown> = {}) =>
  server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Ana', surname: 'Lima', email: 'ana.tax@example.com', ...extra },
  });
const place = (json: unknown) => server.api('/api/orders', { method: 'POST', json });
const emulatorOrder = async (id: string) => (await server.api(`/dev/paypal/v2/checkout/orders/${id}`, { headers: { authorization: await bearer() } })).json();
let token = '';
async function bearer() {
  if (token) return token;
  const res = await server.api('/dev/paypal/v1/oauth2/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('emulator-client-id:emulator-client-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  token = `Bearer ${(await res.json()).access_token}`;
  return token;
}
const orderRow = (paypalOrderId: string) => server.services.db.selectFrom('orders').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();

describe(`sales tax at checkout on ${testDbKind()}`, () => {
  it('charges a shipped order to WA items − discount + shipping + tax, with tax_total at PayPal, and stores and mails it', async () => {
    // 2 × $18 + 1 × $12.50 = $48.50; 15% off = $7.28 (727.5¢ → 728¢); taxable $41.22 × 6.5% = 267.93¢ → 268¢.
    const cart = {
      cartItems: [
        { _id: caramel, quantity: 2 },
        { _id: espresso, quantity: 1 },
      ],
      couponCode: 'tax15',
      shipToState: 'wa',
    };
    const res = await checkout(cart);
    expect(res.status).toBe(200);
    const quote = await res.json();
    expect(quote).toMatchObject({
      itemsTotal: 48.5,
      discount: 7.28,
      shipping: 5,
      tax: 2.68,
      taxCents: 268,
      taxState: 'WA',
      taxRatePercent: 6.5,
      taxLabel: 'Tax (WA 6.5%)',
      taxOnShipping: false,
      total: 48.5 - 7.28 + 5 + 2.68,
    });
    const paypal = await emulatorOrder(quote.orderID);
    expect(paypal.purchase_units[0].amount).toEqual({
      currency_code: 'USD',
      value: '48.90',
      breakdown: {
        item_total: { currency_code: 'USD', value: '48.50' },
        discount: { currency_code: 'USD', value: '7.28' },
        shipping: { currency_code: 'USD', value: '5.00' },
        tax_total: { currency_code: 'USD', value: '2.68' },
      },
    });

    // The buyer keeps a Washington address in PayPal (the emulator's buyer follows the order's state).
    expect((await approve(quote.orderID)).status).toBe(200);
    const placed = await place({ orderId: quote.orderID, ...cart });
    expect(placed.status).toBe(201);
    expect((await placed.json()).order).toMatchObject({ total: 48.9, taxCents: 268, taxState: 'WA', taxLabel: 'Tax (WA 6.5%)' });
    expect(emulatorCaptureCount(quote.orderID)).toBe(1);
    const captured = await emulatorOrder(quote.orderID);
    expect(captured.purchase_units[0].payments.captures[0].amount.value).toBe('48.90');
    expect(await orderRow(quote.orderID)).toMatchObject({ totalCents: 4890, taxCents: 268, taxRatePpm: 65_000, taxState: 'WA', taxOnShipping: false });

    const buyer = (await readMailbox(server, 'ana.tax@example.com')).find((m) => m.text.includes('Tax (WA 6.5%)'));
    expect(buyer?.text).toContain('Tax (WA 6.5%): $2.68');
    expect(buyer?.text).toContain('Total paid: $48.90 USD');

    const list = await (await server.api('/api/admin/orders', { headers: asAdmin.cookie() })).json();
    const stored = (await orderRow(quote.orderID))!;
    expect(list.find((o: { _id: string }) => o._id === stored.id)).toMatchObject({ taxCents: 268, taxState: 'WA', tax: 2.68, taxLabel: 'Tax (WA 6.5%)' });
    const csv = await (await server.api('/api/admin/exports/orders.csv', { headers: asAdmin.cookie() })).text();
    expect(csv).toContain(',2.68,WA,6.5%');
  });

  it('the emulator, as PayPal, refuses a breakdown that does not add up to the amount', async () => {
    const create = (breakdown: Record<string, string>) =>
      server.api('/dev/paypal/v2/checkout/orders', {
        method: 'POST',
        headers: { authorization: token },
        json: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              amount: {
                currency_code: 'USD',
                value: '24.17',
                breakdown: Object.fromEntries(Object.entries(breakdown).map(([k, v]) => [k, { currency_code: 'USD', value: v }])),
              },
            },
          ],
        },
      });
    await bearer();
    expect((await create({ item_total: '18.00', shipping: '5.00', tax_total: '1.17', discount: '0.00' })).status).toBe(201);
    const wrong = await create({ item_total: '18.00', shipping: '5.00', tax_total: '1.00', discount: '0.00' });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).details[0].issue).toBe('AMOUNT_MISMATCH');
  });

  it('charges no tax to a state without sales tax, nor for local pickup', async () => {
    const or = await (await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'OR' })).json();
    expect(or).toMatchObject({ taxCents: 0, taxState: 'OR', total: 23 });
    expect((await emulatorOrder(or.orderID)).purchase_units[0].amount.breakdown.tax_total.value).toBe('0.00');
    expect((await approve(or.orderID)).status).toBe(200);
    expect((await place({ orderId: or.orderID, cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'OR' })).status).toBe(201);
    expect(await orderRow(or.orderID)).toMatchObject({ totalCents: 2300, taxCents: 0, taxState: 'OR' });

    // Pickup: the state is neither needed nor used.
    const pickup = await (await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: true, shipToState: 'WA' })).json();
    expect(pickup).toMatchObject({ taxCents: 0, taxState: null, taxLabel: '', total: 18 });
    expect((await approve(pickup.orderID)).status).toBe(200);
    expect((await place({ orderId: pickup.orderID, cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: true })).status).toBe(201);
    expect(await orderRow(pickup.orderID)).toMatchObject({ totalCents: 1800, taxCents: 0, taxState: null });
  });

  it('refuses a shipped cart without a state, or with an unknown one, with 400', async () => {
    for (const shipToState of [undefined, '', 'XX', 'Washington', 12, null]) {
      const res = await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: false, ...(shipToState === undefined ? {} : { shipToState }) });
      expect(res.status, String(shipToState)).toBe(400);
      expect((await res.json()).message).toMatch(/state/);
    }
  });

  it('never captures when the buyer picks an address in another state in PayPal: refused, nothing charged, no order, stock kept', async () => {
    const cart = { cartItems: [{ _id: caramel, quantity: 3 }], shipToState: 'WA' };
    const quote = await (await checkout(cart)).json();
    expect(quote.taxCents).toBe(351);
    const stock = async () =>
      (await server.services.db.selectFrom('products').select('inventory').where('id', '=', caramel).executeTakeFirstOrThrow()).inventory;
    const before = await stock();
    const oregon = {
      name: { full_name: 'Ana Lima' },
      address: { address_line_1: '1 Rose St', admin_area_2: 'Portland', admin_area_1: 'OR', postal_code: '97201', country_code: 'US' },
    };
    expect((await approve(quote.orderID, { shipping: oregon })).status).toBe(200);
    const res = await place({ orderId: quote.orderID, ...cart });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(SHIP_STATE_CHANGED);
    expect(emulatorCaptureCount(quote.orderID)).toBe(0);
    expect((await emulatorOrder(quote.orderID)).status).toBe('APPROVED');
    expect(await orderRow(quote.orderID)).toBeUndefined();
    expect(await stock()).toBe(before);
    // Sending the PayPal address's state instead does not help: the PayPal order was made for WA's tax.
    const again = await place({ orderId: quote.orderID, ...cart, shipToState: 'OR' });
    expect(again.status).toBe(409);
    expect(emulatorCaptureCount(quote.orderID)).toBe(0);
  });

  it('returns the tax with a refund: the refunded order’s tax leaves what was collected', async () => {
    const cart = { cartItems: [{ _id: espresso, quantity: 2 }], shipToState: 'WA' };
    const quote = await (await checkout(cart)).json();
    // $25.00 × 6.5% = 162.5¢ → 163¢.
    expect(quote.taxCents).toBe(163);
    await approve(quote.orderID);
    expect((await place({ orderId: quote.orderID, ...cart })).status).toBe(201);
    const row = (await orderRow(quote.orderID))!;
    const year = Number(zonedNow(server.env.SITE_TIMEZONE).date.slice(0, 4));
    const taxYear = async () => (await (await server.api(`/api/admin/tax-year/${year}`, { headers: asAdmin.cookie() })).json()) as TaxYearView;
    const before = await taxYear();

    // PayPal refunds the whole total, tax included.
    const event = {
      id: `WH-${row.id.slice(0, 8)}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'refund',
      resource_version: '2.0',
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      summary: 'A payment was returned',
      resource: {
        id: `RF${row.id.slice(0, 8)}`,
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: '31.63' },
        seller_payable_breakdown: { total_refunded_amount: { currency_code: 'USD', value: '31.63' } },
        links: [{ href: `https://api.sandbox.paypal.com/v2/payments/captures/${row.paypalCaptureId}`, rel: 'up', method: 'GET' }],
      },
    };
    const delivered = await server.api('/api/paypal/webhook', { method: 'POST', json: event, headers: emulatorWebhookHeaders() });
    expect(delivered.status).toBe(200);
    expect((await orderRow(quote.orderID))!.status).toBe('refunded');
    const teacher = (await readMailbox(server)).find((m) => m.subject.includes('was refunded in PayPal') && m.text.includes('Of which sales tax returned'));
    expect(teacher?.text).toContain('Of which sales tax returned (WA): $1.63');

    const after = await taxYear();
    expect(after.totals.salesTaxCents).toBe(before.totals.salesTaxCents - 163);
    expect(after.totals.refundedTaxCents).toBe(before.totals.refundedTaxCents + 163);
    expect(after.totals.refundsCents).toBe(before.totals.refundsCents + 3163);
    const wa = (v: TaxYearView) => v.salesTaxByState.find((s) => s.state === 'WA')?.taxCents ?? 0;
    expect(wa(after)).toBe(wa(before) - 163);
  });

  it('applies a rate from its start date, and shipping where she marks it taxable', async () => {
    const today = zonedNow(server.env.SITE_TIMEZONE).date;
    const put = (json: unknown) => server.api('/api/admin/tax-rates/WA', { method: 'PUT', json, headers: asAdmin.cookie() });
    // A rate that starts tomorrow changes nothing today.
    const next = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await put({ ratePercent: 10, shippingTaxable: true, startsOn: next })).status).toBe(200);
    const cart = { cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA' };
    expect((await (await checkout(cart)).json()).taxCents).toBe(117);
    // From today: 7% on items and shipping: (18 + 5) × 7% = 161¢.
    expect((await put({ ratePercent: 7, shippingTaxable: true, startsOn: today })).status).toBe(200);
    expect(await (await checkout(cart)).json()).toMatchObject({ taxCents: 161, taxOnShipping: true, taxLabel: 'Tax (WA 7%)' });
    const publicRates = await (await server.api('/api/tax-rates')).json();
    expect(publicRates.rates.find((r: { state: string }) => r.state === 'WA')).toMatchObject({ ratePercent: 7, shippingTaxable: true, startsOn: today });
    expect(publicRates.rates).toHaveLength(51);
    expect(publicRates.note).toMatch(/base \(state-level\)/);
    const all = await (await server.api('/api/admin/tax-rates', { headers: asAdmin.cookie() })).json();
    expect(all.rates.filter((r: { state: string }) => r.state === 'WA').map((r: { startsOn: string; current: boolean }) => [r.startsOn, r.current])).toEqual([
      ['2026-01-01', false],
      [today, true],
      [next, false],
    ]);
    expect(
      (
        await server.api('/api/admin/tax-rates/XX', {
          method: 'PUT',
          json: { ratePercent: 1, shippingTaxable: false, startsOn: today },
          headers: asAdmin.cookie(),
        })
      ).status,
    ).toBe(404);
  });
});
