/**
 * Issue 29 (below): where she collects, ZIP codes, her imported table, the rate service's answer,
 * the stand-in offline and the real client against a local fake of Washington's service.
 *
 * Issue 24: the sales tax arithmetic (contract/tax.ts, used by api/shop/sales-tax.ts and the
 * cart): half a cent rounds up, the coupon comes off before the tax, shipping is taxed only where
 * the state taxes it, a rate applies from its start date, pickup pays none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectsInSentence, DEFAULT_TAX_SETTINGS, parseRate, parseZipRates, taxingStates, taxSettings, zipCode } from '../../../contract/tax.ts';
import { createTaxRateStandIn, createWaDorRates, parseWaDorAnswer, STAND_IN_RATES, TaxServiceError } from '../../../api/services/tax-rates.ts';
import { closedPortUrl, startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { addTax, formatRate, percentToPpm, rateInEffect, taxLabel, taxOn, usState } from '../../../contract/tax.ts';
import { priceCart } from '../../../contract/pricing.ts';
import { shipStateChanged } from '../../../api/shop/sales-tax.ts';
import { itemAt } from '../../helpers/guards.ts';

const WA = { state: 'WA', ratePpm: 65_000, shippingTaxable: false };

describe('the tax on an amount', () => {
  it('rounds half a cent up, and below half down', () => {
    // $1.00 at 6.5% = 6.5¢ → 7¢; $0.10 at 5% = 0.5¢ → 1¢; $0.09 at 5% = 0.45¢ → 0¢.
    expect(taxOn(100, 65_000)).toBe(7);
    expect(taxOn(10, 50_000)).toBe(1);
    expect(taxOn(9, 50_000)).toBe(0);
    // $18.00 at 7.25% = 130.5¢ → 131¢; at Missouri's 4.225%: 76.05¢ → 76¢.
    expect(taxOn(1800, 72_500)).toBe(131);
    expect(taxOn(1800, 42_250)).toBe(76);
    expect(taxOn(0, 65_000)).toBe(0);
    expect(() => taxOn(-1, 65_000)).toThrow(RangeError);
    expect(() => taxOn(100, 1.5)).toThrow(RangeError);
  });

  it('takes the coupon off before the tax', () => {
    const priced = priceCart([{ unitPriceCents: 1800, quantity: 2 }], { percentOff: 15, isLocalPickup: false });
    if (!priced.ok) throw new Error('priced');
    // Items 36.00 − 5.40 = 30.60 taxable; 6.5% = 198.9¢ → 199¢; shipping 5.00 not taxed in WA.
    const t = addTax(priced.totals, 'WA', WA);
    expect(t).toEqual({
      itemsTotalCents: 3600,
      discountCents: 540,
      shippingCents: 500,
      taxCents: 199,
      taxRatePpm: 65_000,
      taxState: 'WA',
      taxOnShipping: false,
      taxZip: null,
      taxLocationCode: null,
      taxJurisdiction: null,
      taxRateSource: 'table',
      totalCents: 3600 - 540 + 500 + 199,
    });
  });

  it('taxes shipping only where the state taxes it', () => {
    const totals = { itemsTotalCents: 2000, discountCents: 0, shippingCents: 500, totalCents: 2500 };
    expect(addTax(totals, 'WA', WA).taxCents).toBe(130);
    const taxed = addTax(totals, 'TX', { state: 'TX', ratePpm: 62_500, shippingTaxable: true });
    // (20.00 + 5.00) × 6.25% = 156.25¢ → 156¢.
    expect(taxed).toMatchObject({ taxCents: 156, taxOnShipping: true, totalCents: 2656 });
    // Pickup: no shipping, no tax; a state without sales tax: 0.
    expect(addTax({ ...totals, shippingCents: 0, totalCents: 2000 }, null, null)).toMatchObject({ taxCents: 0, taxState: null, totalCents: 2000 });
    expect(addTax(totals, 'OR', { state: 'OR', ratePpm: 0, shippingTaxable: false })).toMatchObject({ taxCents: 0, taxState: 'OR', totalCents: 2500 });
  });
});

describe('the rate of a day', () => {
  const rates = [
    { state: 'WA', ratePpm: 65_000, shippingTaxable: false, startsOn: '2026-01-01' },
    { state: 'WA', ratePpm: 70_000, shippingTaxable: true, startsOn: '2026-07-01' },
    { state: 'CA', ratePpm: 72_500, shippingTaxable: false, startsOn: '2026-01-01' },
  ];

  it('is the latest start not after the day; none before the first', () => {
    expect(rateInEffect(rates, 'WA', '2026-06-30')?.ratePpm).toBe(65_000);
    expect(rateInEffect(rates, 'WA', '2026-07-01')?.ratePpm).toBe(70_000);
    expect(rateInEffect(rates, 'WA', '2027-03-01')?.ratePpm).toBe(70_000);
    expect(rateInEffect(rates, 'WA', '2025-12-31')).toBeUndefined();
    expect(rateInEffect(rates, 'NY', '2026-07-01')).toBeUndefined();
  });
});

describe('words and states', () => {
  it('writes the rate as the cart shows it', () => {
    expect(taxLabel('WA', 65_000)).toBe('Tax (WA 6.5%)');
    expect(formatRate(42_250)).toBe('4.225%');
    expect(formatRate(70_000)).toBe('7%');
    expect(formatRate(0)).toBe('0%');
    expect(percentToPpm(6.875)).toBe(68_750);
  });

  it('knows the states, and a PayPal address in another one', () => {
    expect(usState.parse(' wa ')).toBe('WA');
    expect(usState.safeParse('XX').success).toBe(false);
    expect(usState.safeParse('Washington').success).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'WA' })).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'WASHINGTON' })).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'OR' })).toBe(true);
    expect(shipStateChanged('WA', { country: 'CA', state: 'BC' })).toBe(true);
    expect(shipStateChanged(null, { country: 'US', state: 'OR' })).toBe(false);
    expect(shipStateChanged('WA', null)).toBe(false);
  });
});

describe('where she collects (issue 29)', () => {
  it('is seeded in Portland, Oregon, where there is no sales tax: no state is taxed', () => {
    expect(DEFAULT_TAX_SETTINGS).toEqual({ collectsIn: ['OR'], shopAddress: { line1: '', city: 'Portland', state: 'OR', zip: '97201' } });
    expect(taxingStates(DEFAULT_TAX_SETTINGS.collectsIn)).toEqual([]);
    expect(taxingStates(['WA', 'OR', 'ID'])).toEqual(['WA', 'ID']);
    expect(collectsInSentence(['OR'])).toBe('You collect sales tax in Oregon (OR): no order is charged sales tax.');
    expect(collectsInSentence(['WA'])).toMatch(/^You collect sales tax in Washington \(WA\): /);
  });

  it('validates her settings: states by their letters, once each; a shop address with a ZIP', () => {
    const shop = { line1: '500 Pike St', city: 'Seattle', state: 'wa', zip: '98101' };
    expect(taxSettings.parse({ collectsIn: ['wa', 'WA', 'ID'], shopAddress: shop })).toEqual({
      collectsIn: ['ID', 'WA'],
      shopAddress: { ...shop, state: 'WA' },
    });
    for (const bad of [
      { collectsIn: ['XX'], shopAddress: shop },
      { collectsIn: 'WA', shopAddress: shop },
      { collectsIn: ['WA'] },
      { collectsIn: ['WA'], shopAddress: { ...shop, zip: '981' } },
      { collectsIn: ['WA'], shopAddress: { ...shop, city: '' } },
      { collectsIn: ['WA'], shopAddress: { ...shop, line1: 'a\nb' } },
    ]) {
      expect(taxSettings.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('takes a ZIP code or ZIP+4, written as it is usually written', () => {
    expect(zipCode.parse(' 98101 ')).toBe('98101');
    expect(zipCode.parse('98101-1234')).toBe('98101-1234');
    expect(zipCode.parse('981011234')).toBe('98101-1234');
    expect(zipCode.parse('98101 1234')).toBe('98101-1234');
    for (const bad of ['9810', '98101-12', 'ABCDE', '', 98101]) expect(zipCode.safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('her imported ZIP table', () => {
  it('reads a rate as a fraction or a percent', () => {
    expect(parseRate('0.1035')).toBe(103_500);
    expect(parseRate('.09')).toBe(90_000);
    expect(parseRate('10.35')).toBe(103_500);
    expect(parseRate('9.8%')).toBe(98_000);
    expect(parseRate('0')).toBe(0);
    expect(parseRate('-1')).toBeNull();
    expect(parseRate('25')).toBeNull();
    expect(parseRate('abc')).toBeNull();
  });

  it('reads the state’s published table: columns by their names, in any order', () => {
    const csv = ['\uFEFFLocation Code,Zip5,Name,Total Rate', '1726,98101,SEATTLE,0.1035', '3210,99201,"SPOKANE, CITY",.09', '', '3406,98501,OLYMPIA,9.8'].join(
      '\r\n',
    );
    expect(parseZipRates(csv)).toEqual({
      ok: true,
      rows: [
        { zip: '98101', ratePpm: 103_500, locationCode: '1726', jurisdiction: 'SEATTLE' },
        { zip: '99201', ratePpm: 90_000, locationCode: '3210', jurisdiction: 'SPOKANE, CITY' },
        { zip: '98501', ratePpm: 98_000, locationCode: '3406', jurisdiction: 'OLYMPIA' },
      ],
    });
    expect(parseZipRates('zip\trate\tloccode\tjurisdiction\n98101\t10.35\t1726\tSEATTLE')).toMatchObject({ ok: true, rows: [{ zip: '98101' }] });
  });

  it('refuses a table it can’t read, naming the line', () => {
    expect(parseZipRates('a,b\n1,2')).toEqual({ ok: false, message: 'The first row must name the columns: ZIP, Rate, Location code and Name.' });
    // A spreadsheet drops a ZIP's leading zeros (01001 → 1001): four digits are padded back; six are refused.
    expect(parseZipRates('zip,rate,location code,name\n1001,0.0625,MA,X')).toMatchObject({ ok: true, rows: [{ zip: '01001' }] });
    expect(parseZipRates('zip,rate,location code,name\n981011,0.1,1726,X')).toEqual({ ok: false, message: 'Line 2: the ZIP must be five digits.' });
    expect(parseZipRates('zip,rate,location code,name\n98101,lots,1726,X')).toMatchObject({ ok: false, message: /^Line 2: the rate/ });
    expect(parseZipRates('zip,rate,location code,name\n')).toEqual({ ok: false, message: 'The table has no rows under its header.' });
  });
});

const SEATTLE_XML =
  '<?xml version="1.0" encoding="utf-8"?><response loccode="1726" localrate="0.0385" rate="0.1035" code="0" xmlns="http://dor.wa.gov/AddressRates.xsd">' +
  '<addressline houselow="" househigh="" evenodd="" street="" state="WA" zip="98101" plus4="" period="Q22026" code="1726" rta="Y" ptba="" cez=""/>' +
  '<rate name="SEATTLE" code="1726" staterate="0.065" localrate="0.0385"/></response>';
const NOT_FOUND_XML = '<response loccode="-1" localrate="-1" rate="-1" code="3" debughint="Zip not found"><addressline/><rate/></response>';

describe('Washington’s rate service', () => {
  it('reads its answer: the combined rate, the location code and the place’s name', () => {
    expect(parseWaDorAnswer(SEATTLE_XML)).toEqual({ ratePpm: 103_500, locationCode: '1726', jurisdiction: 'SEATTLE' });
    expect(parseWaDorAnswer(NOT_FOUND_XML)).toBeNull();
    expect(() => parseWaDorAnswer('<html>busy</html>')).toThrow(TaxServiceError);
  });

  it('the stand-in answers offline: Seattle, Spokane and Olympia each with their own rate and location code', async () => {
    const standIn = createTaxRateStandIn();
    expect(standIn.kind).toBe('stand-in');
    expect(await standIn.rateAt('WA', '98101')).toEqual({ ratePpm: 103_500, locationCode: '1726', jurisdiction: 'SEATTLE' });
    expect(await standIn.rateAt('WA', '99201-1234')).toEqual({ ratePpm: 90_000, locationCode: '3210', jurisdiction: 'SPOKANE' });
    expect(await standIn.rateAt('WA', '98501')).toEqual({ ratePpm: 98_000, locationCode: '3406', jurisdiction: 'OLYMPIA' });
    expect(new Set(Object.values(STAND_IN_RATES).map((r) => r.ratePpm)).size).toBe(3);
    expect(await standIn.rateAt('WA', '98999')).toBeNull();
    expect(await standIn.rateAt('ID', '83702')).toBeNull();
  });

  describe('the real client against a local fake of the service', () => {
    let fake: FakeServer;
    beforeAll(async () => {
      fake = await startFakeServer();
    });
    afterAll(async () => {
      await fake.close();
    });
    const client = (timeoutMs = 2_000) => createWaDorRates({ baseUrl: `${fake.url}/webapi/AddressRates.aspx`, timeoutMs });

    it('asks for the ZIP as its URL interface wants it, and reads the rate', async () => {
      fake.handle(() => ({ headers: { 'content-type': 'text/xml' }, body: SEATTLE_XML }));
      expect(await client().rateAt('WA', '98101-2345')).toEqual({ ratePpm: 103_500, locationCode: '1726', jurisdiction: 'SEATTLE' });
      const asked = new URL(itemAt(fake.requests, -1).url, fake.url);
      expect(asked.pathname).toBe('/webapi/AddressRates.aspx');
      expect(Object.fromEntries(asked.searchParams)).toEqual({ output: 'xml', addr: '', city: '', zip: '98101-2345' });
    });

    it('says so when the address is unknown (null), the service fails, times out or is unreachable (throws)', async () => {
      fake.handle(() => ({ body: NOT_FOUND_XML }));
      expect(await client().rateAt('WA', '98999')).toBeNull();
      fake.handle(() => ({ status: 503, body: 'down' }));
      await expect(client().rateAt('WA', '98101')).rejects.toThrow('HTTP 503');
      fake.handle(() => new Promise((resolve) => setTimeout(() => resolve({ body: SEATTLE_XML }), 1_500)));
      const started = Date.now();
      await expect(client(200).rateAt('WA', '98101')).rejects.toThrow('no answer within 200 ms');
      expect(Date.now() - started).toBeLessThan(1_200);
      const closed = createWaDorRates({ baseUrl: await closedPortUrl('/webapi/AddressRates.aspx'), timeoutMs: 1_000 });
      await expect(closed.rateAt('WA', '98101')).rejects.toThrow(TaxServiceError);
    });
  });
});
