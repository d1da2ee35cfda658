/**
 * Issue 24: sales tax on shipped chocolate orders, through the PayPal emulator; issue 29: only
 * where she is registered, at the rate of the place of sale. A fresh site (her shop in Portland,
 * Oregon) charges none anywhere; registered in Washington with a shop in Seattle, a shipped order
 * to WA is charged items − discount + shipping + tax at the buyer's ZIP's combined rate from the
 * rate service (the stand-in here: offline), with its location code and jurisdiction; a pickup
 * pays her shop's rate; a state she doesn't collect in pays none and names no tax; a WA order
 * without a ZIP is refused, naming shipToZip; a buyer who picks an address in another state in
 * PayPal is refused before the capture; the order, the admin's list, the CSV and the mails carry
 * the tax; a refund returns it; the tax year groups it by location code and quarter. A second
 * server asks a local fake of Washington's service: a failure or a timeout falls back to her
 * imported table and the order says so; the service is asked once per ZIP within the cache's time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorCaptureCount, emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import { zonedNow } from '../../../api/lib/time.ts';
import { startTestServer, type TestServer, useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import type { TaxYearView } from '../../../contract/books.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
let caramel = '';
let espresso = '';
const SHIP_STATE_CHANGED =
  'The shipping address you chose in PayPal is in another state than the one in your cart, so the sales tax would be different. You have not been charged. Please choose that state in your cart and pay again.';

beforeAll(async () => {
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

const SEATTLE_SHOP = { line1: '500 Pike St', city: 'Seattle', state: 'WA', zip: '98101' };
const taxSettings = () => server.api('/api/admin/settings/tax', { headers: asAdmin.cookie() });
const putTaxSettings = (json: unknown) => server.api('/api/admin/settings/tax', { method: 'PUT', json, headers: asAdmin.cookie() });
const thisYear = () => Number(zonedNow(server.env.SITE_TIMEZONE).date.slice(0, 4));

describe(`sales tax at checkout on ${testDbKind()}`, () => {
  it('a fresh site (her shop in Portland, Oregon) charges no tax anywhere and names none', async () => {
    expect(await (await taxSettings()).json()).toEqual({ collectsIn: ['OR'], shopAddress: { line1: '', city: 'Portland', state: 'OR', zip: '97201' } });
    const wa = await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA' });
    expect(wa.status).toBe(200);
    expect(await wa.json()).toMatchObject({ taxCents: 0, tax: 0, taxState: 'WA', taxLabel: '', taxRateSource: null, taxLocationCode: null, total: 23 });
    const or = await (await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'OR', shipToZip: '97201' })).json();
    expect(or).toMatchObject({ taxCents: 0, taxLabel: '', total: 23 });
    const pickup = await (await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: true })).json();
    expect(pickup).toMatchObject({ taxCents: 0, taxState: null, taxLabel: '', total: 18 });
    // The cart is told no state is taxed: it asks for no ZIP and shows no tax line.
    expect(await (await server.api('/api/tax-rates')).json()).toMatchObject({ taxing: [], rates: [], pickup: null });
    expect(await (await server.api('/api/tax-rates/at?state=WA&zip=98101')).json()).toEqual({ rate: null });
  });

  it('her registrations are a setting: admin only, validated, a refusal changes nothing', async () => {
    expect((await server.api('/api/admin/settings/tax')).status).toBe(401);
    expect((await server.api('/api/admin/settings/tax', { method: 'PUT', json: { collectsIn: ['WA'], shopAddress: SEATTLE_SHOP } })).status).toBe(401);
    const before = await (await taxSettings()).json();
    for (const bad of [
      { collectsIn: ['XX'], shopAddress: SEATTLE_SHOP },
      { collectsIn: 'WA', shopAddress: SEATTLE_SHOP },
      { collectsIn: ['WA'] },
      { collectsIn: ['WA'], shopAddress: { ...SEATTLE_SHOP, zip: 'none' } },
      { collectsIn: ['WA'], shopAddress: { ...SEATTLE_SHOP, state: 'Washington' } },
      null,
      [],
    ]) {
      const res = await putTaxSettings(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await (await taxSettings()).json()).toEqual(before);

    const saved = await putTaxSettings({ collectsIn: ['WA'], shopAddress: SEATTLE_SHOP });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ collectsIn: ['WA'], shopAddress: SEATTLE_SHOP });
    expect(await (await taxSettings()).json()).toEqual({ collectsIn: ['WA'], shopAddress: SEATTLE_SHOP });
    const admin = await (await server.api('/api/admin/tax-rates', { headers: asAdmin.cookie() })).json();
    expect(admin).toMatchObject({ taxing: ['WA'], settings: { collectsIn: ['WA'] }, service: { states: ['WA'], standIn: true } });
    expect(admin.collectsInWords).toMatch(/^You collect sales tax in Washington \(WA\)/);
  });

  it('charges a shipped order to WA items − discount + shipping + tax at the ZIP’s combined rate, with tax_total at PayPal, and stores and mails it', async () => {
    // 2 × $18 + 1 × $12.50 = $48.50; 15% off = $7.28 (727.5¢ → 728¢); taxable $41.22 × 9.8% (Olympia) = 403.956¢ → 404¢.
    const cart = {
      cartItems: [
        { _id: caramel, quantity: 2 },
        { _id: espresso, quantity: 1 },
      ],
      couponCode: 'tax15',
      shipToState: 'wa',
      shipToZip: '98501',
    };
    const res = await checkout(cart);
    expect(res.status).toBe(200);
    const quote = await res.json();
    expect(quote).toMatchObject({
      itemsTotal: 48.5,
      discount: 7.28,
      shipping: 5,
      tax: 4.04,
      taxCents: 404,
      taxState: 'WA',
      taxRatePercent: 9.8,
      taxLabel: 'Tax (WA 9.8%)',
      taxOnShipping: false,
      taxZip: '98501',
      taxLocationCode: '3406',
      taxJurisdiction: 'OLYMPIA',
      taxRateSource: 'service',
      total: 50.26,
    });
    const paypal = await emulatorOrder(quote.orderID);
    expect(paypal.purchase_units[0].amount).toEqual({
      currency_code: 'USD',
      value: '50.26',
      breakdown: {
        item_total: { currency_code: 'USD', value: '48.50' },
        discount: { currency_code: 'USD', value: '7.28' },
        shipping: { currency_code: 'USD', value: '5.00' },
        tax_total: { currency_code: 'USD', value: '4.04' },
      },
    });

    // The buyer keeps a Washington address in PayPal (the emulator's buyer follows the order's state).
    expect((await approve(quote.orderID)).status).toBe(200);
    const placed = await place({ orderId: quote.orderID, ...cart });
    expect(placed.status).toBe(201);
    expect((await placed.json()).order).toMatchObject({ total: 50.26, taxCents: 404, taxState: 'WA', taxLabel: 'Tax (WA 9.8%)', taxLocationCode: '3406' });
    expect(emulatorCaptureCount(quote.orderID)).toBe(1);
    const captured = await emulatorOrder(quote.orderID);
    expect(captured.purchase_units[0].payments.captures[0].amount.value).toBe('50.26');
    expect(await orderRow(quote.orderID)).toMatchObject({
      totalCents: 5026,
      taxCents: 404,
      taxRatePpm: 98_000,
      taxState: 'WA',
      taxOnShipping: false,
      taxZip: '98501',
      taxLocationCode: '3406',
      taxJurisdiction: 'OLYMPIA',
      taxRateSource: 'service',
    });

    const buyer = (await readMailbox(server, 'ana.tax@example.com')).find((m) => m.text.includes('Tax (WA 9.8%)'));
    expect(buyer?.text).toContain('Tax (WA 9.8%): $4.04');
    expect(buyer?.text).toContain('Total paid: $50.26 USD');

    const list = await (await server.api('/api/admin/orders', { headers: asAdmin.cookie() })).json();
    const stored = (await orderRow(quote.orderID))!;
    expect(list.find((o: { _id: string }) => o._id === stored.id)).toMatchObject({
      taxCents: 404,
      taxState: 'WA',
      tax: 4.04,
      taxLabel: 'Tax (WA 9.8%)',
      taxLocationCode: '3406',
      taxJurisdiction: 'OLYMPIA',
      taxRateSource: 'service',
    });
    const csv = await (await server.api('/api/admin/exports/orders.csv', { headers: asAdmin.cookie() })).text();
    expect(csv).toContain(',4.04,WA,9.8%,98501,3406,OLYMPIA,service');
  });

  it('two ZIPs in her state give their own rates and location codes (ZIP+4 accepted)', async () => {
    const at = async (shipToZip: string) => (await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA', shipToZip })).json();
    // $18 × 10.35% = 186.3¢ → 186¢ (Seattle); × 9% = 162¢ (Spokane).
    expect(await at('98101')).toMatchObject({ taxCents: 186, taxRatePercent: 10.35, taxLocationCode: '1726', taxJurisdiction: 'SEATTLE', total: 24.86 });
    expect(await at('99201')).toMatchObject({ taxCents: 162, taxRatePercent: 9, taxLocationCode: '3210', taxJurisdiction: 'SPOKANE', total: 24.62 });
    expect(await at('98101-1234')).toMatchObject({ taxCents: 186, taxZip: '98101-1234', taxLocationCode: '1726' });
    // The cart's preview says the same before payment.
    expect(await (await server.api('/api/tax-rates/at?state=WA&zip=99201')).json()).toEqual({
      rate: {
        state: 'WA',
        zip: '99201',
        ratePpm: 90_000,
        ratePercent: 9,
        rate: '9%',
        shippingTaxable: false,
        locationCode: '3210',
        jurisdiction: 'SPOKANE',
        source: 'service',
      },
    });
  });

  it('asks for the ZIP in a state where she collects (400 naming shipToZip), and taxes nothing where she doesn’t', async () => {
    for (const shipToZip of [undefined, '', null]) {
      const res = await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA', ...(shipToZip === undefined ? {} : { shipToZip }) });
      expect(res.status, String(shipToZip)).toBe(400);
      expect((await res.json()).message).toContain('shipToZip');
    }
    const bad = await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA', shipToZip: '9810' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/ZIP/);
    const noZipPlace = await place({ orderId: 'NOSUCHORDER1', cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'WA' });
    expect(noZipPlace.status).toBe(400);
    expect((await noZipPlace.json()).message).toContain('shipToZip');

    // California: she is not registered there, so no ZIP is needed and no tax is named.
    const cart = { cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'CA' };
    const ca = await (await checkout(cart)).json();
    expect(ca).toMatchObject({ taxCents: 0, taxState: 'CA', taxLabel: '', taxRateSource: null, total: 23 });
    expect((await emulatorOrder(ca.orderID)).purchase_units[0].amount.breakdown.tax_total.value).toBe('0.00');
    expect((await approve(ca.orderID)).status).toBe(200);
    expect((await place({ orderId: ca.orderID, ...cart })).status).toBe(201);
    expect(await orderRow(ca.orderID)).toMatchObject({ totalCents: 2300, taxCents: 0, taxState: 'CA', taxRateSource: null, taxLocationCode: null });
  });

  it('taxes a pickup at her shop’s address', async () => {
    const cart = { cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: true };
    // The cart is told the rate of a pickup before payment.
    expect((await (await server.api('/api/tax-rates')).json()).pickup).toMatchObject({ state: 'WA', zip: '98101', ratePpm: 103_500, locationCode: '1726' });
    const pickup = await (await checkout({ ...cart, shipToState: 'CA' })).json();
    expect(pickup).toMatchObject({ taxCents: 186, taxState: 'WA', taxZip: '98101', taxLocationCode: '1726', taxLabel: 'Tax (WA 10.35%)', total: 19.86 });
    expect((await emulatorOrder(pickup.orderID)).purchase_units[0].description).toBe('Handmade chocolates');
    expect((await approve(pickup.orderID)).status).toBe(200);
    expect((await place({ orderId: pickup.orderID, ...cart })).status).toBe(201);
    expect(await orderRow(pickup.orderID)).toMatchObject({ totalCents: 1986, taxCents: 186, taxState: 'WA', taxLocationCode: '1726', isLocalPickup: true });
  });

  it('refuses a shipped cart without a state, or with an unknown one, with 400', async () => {
    for (const shipToState of [undefined, '', 'XX', 'Washington', 12, null]) {
      const res = await checkout({ cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup: false, ...(shipToState === undefined ? {} : { shipToState }) });
      expect(res.status, String(shipToState)).toBe(400);
      expect((await res.json()).message).toMatch(/state/);
    }
  });

  it('never captures when the buyer picks an address in another state in PayPal: refused, nothing charged, no order, stock kept', async () => {
    const cart = { cartItems: [{ _id: caramel, quantity: 3 }], shipToState: 'WA', shipToZip: '98101' };
    const quote = await (await checkout(cart)).json();
    // $54 × 10.35% = 558.9¢ → 559¢.
    expect(quote.taxCents).toBe(559);
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
    const cart = { cartItems: [{ _id: espresso, quantity: 2 }], shipToState: 'WA', shipToZip: '99201' };
    const quote = await (await checkout(cart)).json();
    // $25.00 × 9% (Spokane) = 225¢.
    expect(quote.taxCents).toBe(225);
    await approve(quote.orderID);
    expect((await place({ orderId: quote.orderID, ...cart })).status).toBe(201);
    const row = (await orderRow(quote.orderID))!;
    const taxYear = async () => (await (await server.api(`/api/admin/tax-year/${thisYear()}`, { headers: asAdmin.cookie() })).json()) as TaxYearView;
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
        amount: { currency_code: 'USD', value: '32.25' },
        seller_payable_breakdown: { total_refunded_amount: { currency_code: 'USD', value: '32.25' } },
        links: [{ href: `https://api.sandbox.paypal.com/v2/payments/captures/${row.paypalCaptureId}`, rel: 'up', method: 'GET' }],
      },
    };
    const delivered = await server.api('/api/paypal/webhook', { method: 'POST', json: event, headers: emulatorWebhookHeaders() });
    expect(delivered.status).toBe(200);
    expect(must(await orderRow(quote.orderID), 'orderRow(quote.orderID)').status).toBe('refunded');
    const teacher = (await readMailbox(server)).find((m) => m.subject.includes('was refunded in PayPal') && m.text.includes('Of which sales tax returned'));
    expect(teacher?.text).toContain('Of which sales tax returned (WA): $2.25');

    const after = await taxYear();
    expect(after.totals.salesTaxCents).toBe(before.totals.salesTaxCents - 225);
    expect(after.totals.refundedTaxCents).toBe(before.totals.refundedTaxCents + 225);
    expect(after.totals.refundsCents).toBe(before.totals.refundsCents + 3225);
    const wa = (v: TaxYearView) => v.salesTaxByState.find((s) => s.state === 'WA')?.taxCents ?? 0;
    expect(wa(after)).toBe(wa(before) - 225);
  });

  it('in a state without a rate service: her imported ZIP table, else the state’s rate from its start date, shipping where she marks it taxable', async () => {
    expect((await putTaxSettings({ collectsIn: ['WA', 'ID'], shopAddress: SEATTLE_SHOP })).status).toBe(200);
    const today = zonedNow(server.env.SITE_TIMEZONE).date;
    const put = (json: unknown) => server.api('/api/admin/tax-rates/ID', { method: 'PUT', json, headers: asAdmin.cookie() });
    // A rate that starts tomorrow changes nothing today: Idaho's 6% on $18 = 108¢.
    const next = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await put({ ratePercent: 10, shippingTaxable: true, startsOn: next })).status).toBe(200);
    const cart = { cartItems: [{ _id: caramel, quantity: 1 }], shipToState: 'ID', shipToZip: '83702' };
    expect(await (await checkout(cart)).json()).toMatchObject({ taxCents: 108, taxRateSource: 'table', taxLocationCode: null, taxJurisdiction: 'IDAHO' });
    // From today: 7% on items and shipping: (18 + 5) × 7% = 161¢.
    expect((await put({ ratePercent: 7, shippingTaxable: true, startsOn: today })).status).toBe(200);
    expect(await (await checkout(cart)).json()).toMatchObject({ taxCents: 161, taxOnShipping: true, taxLabel: 'Tax (ID 7%)' });
    const publicRates = await (await server.api('/api/tax-rates')).json();
    expect(publicRates.taxing).toEqual(['ID', 'WA']);
    expect(publicRates.rates.map((r: { state: string }) => r.state)).toEqual(['ID', 'WA']);
    expect(publicRates.rates[0]).toMatchObject({ ratePercent: 7, shippingTaxable: true, startsOn: today });
    const all = await (await server.api('/api/admin/tax-rates', { headers: asAdmin.cookie() })).json();
    expect(all.rates.filter((r: { state: string }) => r.state === 'ID').map((r: { startsOn: string; current: boolean }) => [r.startsOn, r.current])).toEqual([
      ['2026-01-01', false],
      [today, true],
      [next, false],
    ]);

    // Her copy of Idaho's published table: the ZIP's own rate and location code, the state's shipping rule.
    const zips = (state: string, csv: string, headers: Record<string, string> = asAdmin.cookie()) =>
      server.api(`/api/admin/tax-rates/${state}/zips`, { method: 'POST', json: { csv }, headers });
    expect((await zips('ID', 'zip,rate,location code,name\n83702,0.06,0101,BOISE', {})).status).toBe(401);
    const bad = await zips('ID', 'zip,rate\n83702,0.06');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/name the columns/);
    expect((await zips('XX', 'zip,rate,location code,name\n83702,0.06,0101,BOISE')).status).toBe(404);
    const imported = await zips('ID', 'ZIP,Rate,Location code,Name\n83702,6,0101,BOISE\n83814,0.06,2801,COEUR D’ALENE');
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ message: 'ID: 2 ZIP codes imported.', zipTables: [{ state: 'ID', zips: 2 }] });
    // (18 + 5) × 6% = 138¢.
    expect(await (await checkout(cart)).json()).toMatchObject({ taxCents: 138, taxRateSource: 'table', taxLocationCode: '0101', taxJurisdiction: 'BOISE' });
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

  it('the tax year and finances report the tax by state and, within it, by location code and quarter', async () => {
    for (const [product, shipToZip] of [
      [caramel, '99201'],
      [espresso, '98101'],
    ] as const) {
      const cart = { cartItems: [{ _id: product, quantity: 1 }], shipToState: 'WA', shipToZip };
      const quote = await (await checkout(cart)).json();
      await approve(quote.orderID);
      expect((await place({ orderId: quote.orderID, ...cart })).status).toBe(201);
    }
    // Recomputed from the rows: what she collected per location code (orders paid and kept).
    const rows = await server.services.db
      .selectFrom('orders')
      .select(['taxLocationCode', 'taxCents', 'taxState', 'status', 'taxRateSource'])
      .where('status', 'in', ['paid', 'shipped', 'picked_up'])
      .execute();
    const expected = new Map<string, number>();
    for (const r of rows.filter((r) => r.taxState === 'WA' && r.taxRateSource)) {
      expected.set(r.taxLocationCode!, (expected.get(r.taxLocationCode!) ?? 0) + r.taxCents);
    }
    expect([...expected.keys()].sort()).toEqual(['1726', '3210', '3406']);

    const year = (await (await server.api(`/api/admin/tax-year/${thisYear()}`, { headers: asAdmin.cookie() })).json()) as TaxYearView;
    // California (not registered) collected nothing and is not listed.
    expect(year.salesTaxByState.map((s) => s.state)).toEqual(['WA']);
    const wa = year.salesTaxByState[0]!;
    expect(wa.locations.map((l) => [l.locationCode, l.jurisdiction, l.taxCents])).toEqual(
      [...expected]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, cents]) => [code, { '1726': 'SEATTLE', '3210': 'SPOKANE', '3406': 'OLYMPIA' }[code], cents]),
    );
    const quarter = Math.floor((Number(zonedNow(server.env.SITE_TIMEZONE).date.slice(5, 7)) - 1) / 3);
    for (const l of wa.locations) expect(l.quarters[quarter]).toBe(l.taxCents);
    expect(wa.taxCents).toBe(wa.locations.reduce((n, l) => n + l.taxCents, 0));
    expect(wa.taxCents).toBe(year.totals.salesTaxCents);

    const finances = (await (await server.api('/api/admin/finances', { headers: asAdmin.cookie() })).json()) as FinancesView;
    const fwa = finances.salesTaxByState.find((s) => s.state === 'WA')!;
    expect(fwa.locations.map((l) => [l.locationCode, l.taxCents])).toEqual(wa.locations.map((l) => [l.locationCode, l.taxCents]));
    const csv = await (await server.api(`/api/admin/exports/tax-year-${thisYear()}.csv`, { headers: asAdmin.cookie() })).text();
    expect(csv).toContain('Sales tax by location,Jurisdiction,Taxable sales,Tax collected,Q1,Q2,Q3,Q4');
    for (const l of wa.locations)
      expect(csv).toContain(`WA ${l.locationCode},${l.jurisdiction},${(l.taxableCents / 100).toFixed(2)},${(l.taxCents / 100).toFixed(2)},`);
  });
});

describe(`the rate service behind a cache, with her table as its fallback, on ${testDbKind()}`, () => {
  let fake: FakeServer;
  let other: TestServer;
  let otherAdmin = '';
  let tin = '';
  const OLYMPIA_XML =
    '<response loccode="3406" localrate="0.033" rate="0.098" code="0"><addressline zip="98501"/><rate name="OLYMPIA" code="3406" staterate="0.065" localrate="0.033"/></response>';
  const asked = (zip: string) => fake.requests.filter((r) => new URL(r.url, fake.url).searchParams.get('zip') === zip).length;
  const quote = (shipToZip: string) =>
    other.api('/api/orders/paypal', { method: 'POST', json: { cartItems: [{ _id: tin, quantity: 1 }], shipToState: 'WA', shipToZip } });

  beforeAll(async () => {
    fake = await startFakeServer((req) => {
      const zip = new URL(req.url, 'http://x').searchParams.get('zip');
      if (zip === '98501') return { headers: { 'content-type': 'text/xml' }, body: OLYMPIA_XML };
      // Spokane hangs past the timeout; anything else: the service is down.
      if (zip === '99201') return new Promise((resolve) => setTimeout(() => resolve({ body: OLYMPIA_XML }), 2_000));
      return { status: 503, body: 'Service Unavailable' };
    });
    other = await startTestServer({ env: { TAX_RATE_SERVICE_URL: `${fake.url}/webapi/AddressRates.aspx`, TAX_RATE_TIMEOUT_MS: '300' } });
    otherAdmin = await adminCookie(other);
    tin = (
      await other.services.db
        .insertInto('products')
        .values({ name: 'Cacao Nib Tin', priceCents: 2000, inventory: 50 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const headers = { cookie: otherAdmin, origin: other.url };
    expect((await other.api('/api/admin/settings/tax', { method: 'PUT', json: { collectsIn: ['WA'], shopAddress: SEATTLE_SHOP }, headers })).status).toBe(200);
    // Her copy of Washington's published table, a quarter older than the service's figures.
    const csv = 'Zip5,Total Rate,Location Code,Name\n98101,0.1025,1726,SEATTLE\n99201,0.089,3210,SPOKANE';
    expect((await other.api('/api/admin/tax-rates/WA/zips', { method: 'POST', json: { csv }, headers })).status).toBe(200);
  });
  afterAll(async () => {
    await other?.close();
    await fake?.close();
  });

  it('a service that fails falls back to her imported table, says so on the order, and is not asked again meanwhile', async () => {
    await expect((await other.api('/api/admin/tax-rates', { headers: { cookie: otherAdmin } })).json()).resolves.toMatchObject({
      service: { states: ['WA'], standIn: false },
    });
    const res = await quote('98101');
    expect(res.status).toBe(200);
    const q = await res.json();
    // $20 × 10.25% = 205¢, from her table.
    expect(q).toMatchObject({ taxCents: 205, taxRatePercent: 10.25, taxLocationCode: '1726', taxJurisdiction: 'SEATTLE', taxRateSource: 'fallback' });
    expect(asked('98101')).toBe(1);
    await other.api(`/dev/paypal/v2/checkout/orders/${q.orderID}/approve`, {
      method: 'POST',
      json: { givenName: 'Bo', surname: 'Fell', email: 'bo.fell@example.com' },
    });
    const placed = await other.api('/api/orders', {
      method: 'POST',
      json: { orderId: q.orderID, cartItems: [{ _id: tin, quantity: 1 }], shipToState: 'WA', shipToZip: '98101' },
    });
    expect(placed.status).toBe(201);
    const row = await other.services.db.selectFrom('orders').selectAll().where('paypalOrderId', '=', q.orderID).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ taxCents: 205, taxRatePpm: 102_500, taxLocationCode: '1726', taxJurisdiction: 'SEATTLE', taxRateSource: 'fallback' });
    // The second quote (placing the order) agreed with the first without asking the failing service again.
    expect(asked('98101')).toBe(1);
  });

  it('a lookup that times out falls back too: the checkout does not wait for it', async () => {
    const started = Date.now();
    const res = await quote('99201');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_800);
    // $20 × 8.9% = 178¢.
    expect(await res.json()).toMatchObject({ taxCents: 178, taxLocationCode: '3210', taxRateSource: 'fallback' });
    // A ZIP her table lacks: Washington's own rate (6.5%), no location code; still no checkout stopped.
    expect(await (await quote('98004')).json()).toMatchObject({ taxCents: 130, taxLocationCode: null, taxRateSource: 'fallback' });
  });

  it('never asks the service for the same ZIP twice within the cache’s time; after it, asks again', async () => {
    expect(await (await quote('98501')).json()).toMatchObject({ taxCents: 196, taxLocationCode: '3406', taxJurisdiction: 'OLYMPIA', taxRateSource: 'service' });
    await Promise.all([quote('98501'), quote('98501'), other.api('/api/tax-rates/at?state=WA&zip=98501')]);
    expect(asked('98501')).toBe(1);
    const cached = await other.services.db.selectFrom('taxRateLookups').selectAll().where('zip', '=', '98501').executeTakeFirstOrThrow();
    expect(cached).toMatchObject({ ratePpm: 98_000, locationCode: '3406', asked: 1 });
    // The cache's time (TAX_RATE_CACHE_HOURS, 24 by default) has passed: the next quote asks again.
    await other.services.db
      .updateTable('taxRateLookups')
      .set({ lookedUpAt: new Date(Date.now() - 25 * 3_600_000) })
      .where('zip', '=', '98501')
      .execute();
    expect(await (await quote('98501')).json()).toMatchObject({ taxCents: 196, taxRateSource: 'service' });
    expect(asked('98501')).toBe(2);
  });
});
