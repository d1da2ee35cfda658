/** The endpoint table's books part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, Fixtures, text, optionalText, match, badDates, badTimes, type Endpoint, type Field } from './common.ts';

/** A location of her books (issue 24), new each time. */
async function bookLocation(fx: Fixtures): Promise<string> {
  const row = await fx.db
    .insertInto('locations')
    .values({ name: fx.unique('Studio'), roundTripTenthMiles: 124 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One entry of a recurring gig (issue 24), new each time. */
async function bookGig(fx: Fixtures): Promise<string> {
  const row = await fx.db
    .insertInto('gigs')
    .values({
      seriesId: fx.unique('series'),
      date: '2026-03-03',
      time: '18:00',
      className: 'Vinyasa',
      locationId: await bookLocation(fx),
      rateCents: 6000,
      frequency: 'weekly',
      repeatUntil: '2026-03-31',
      paymentMethod: 'cash',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A location's fields, as added and as edited; bufferMinutes (issue 35): minutes kept free before and after anything there. */
const locationFields = (): Record<string, Field> => ({
  name: text({ bad: ['Two\nlines'] }),
  roundTripMiles: { kind: 'number', required: true, bad: [-1, 10001, 1.25] },
  bufferMinutes: { kind: 'number', bad: [-1, 241, 1.5] },
});

export const BOOKS_ENDPOINTS: Endpoint[] = [
  // --- her books (issue 24) -------------------------------------------------------------------
  plainGet('/api/tax-rates', 'none'),
  plainGet('/api/admin/tax-rates', 'admin'),
  // Issue 29: the rate at a buyer's place, her ZIP tables and where she collects.
  {
    method: 'GET',
    route: '/api/tax-rates/at',
    auth: 'none',
    body: 'none',
    fields: { state: match({ in: 'query', bad: ['ZZ', 'wa1'] }), zip: { kind: 'string', role: 'lookup', in: 'query', bad: ['9810', 'abcde'] } },
    writes: ['taxRateLookups'],
    example: async () => ({ query: { state: 'WA', zip: '98101' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/tax-rates/:state/zips',
    auth: 'admin',
    body: 'json',
    fields: { csv: { kind: 'string', required: true, role: 'lookup', bad: ['zip,rate', 'ZIP,Rate,Location code,Name\n98101,abc,1726,Seattle'] } },
    writes: ['taxZipRates'],
    example: async () => ({ params: { state: 'WA' }, json: { csv: 'ZIP,Rate,Location code,Name\n98101,0.1035,1726,Seattle' } }),
  },
  plainGet('/api/admin/settings/tax', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/settings/tax',
    auth: 'admin',
    body: 'json',
    fields: { collectsIn: { kind: 'array', required: true, role: 'match', bad: [['ZZ'], ['W A'], [1]] }, shopAddress: { kind: 'any', required: true } },
    writes: ['settings'],
    example: async () => ({ json: { collectsIn: ['OR'], shopAddress: { line1: '', city: 'Portland', state: 'OR', zip: '97201' } } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/tax-rates/:state',
    auth: 'admin',
    body: 'json',
    fields: {
      ratePercent: { kind: 'number', required: true, bad: [-1, 21, 6.12345] },
      shippingTaxable: { kind: 'boolean', required: true },
      startsOn: match({ bad: badDates }),
    },
    writes: ['taxRates'],
    example: async () => ({ params: { state: 'WA' }, json: { ratePercent: 6.5, shippingTaxable: false, startsOn: '2026-01-01' } }),
  },
  plainGet('/api/admin/locations', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/locations',
    auth: 'admin',
    body: 'json',
    fields: locationFields(),
    writes: ['locations'],
    example: async (fx) => ({ json: { name: fx.unique('Riverside Studio'), roundTripMiles: 12.4 } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/locations/:id',
    auth: 'admin',
    body: 'json',
    fields: locationFields(),
    writes: ['locations'],
    example: async (fx) => ({ params: { id: await bookLocation(fx) }, json: { name: fx.unique('Hillside Gym'), roundTripMiles: 8 } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/locations/:id',
    auth: 'admin',
    body: 'none',
    writes: ['locations'],
    example: async (fx) => ({ params: { id: await bookLocation(fx) } }),
  },
  {
    method: 'GET',
    route: '/api/admin/gigs',
    auth: 'admin',
    body: 'none',
    fields: {
      from: optionalText({ in: 'query', role: 'match', bad: ['2026-13-01', 'today'] }),
      to: optionalText({ in: 'query', role: 'match', bad: ['2026-02-30'] }),
    },
    writes: [],
    example: async () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gigs',
    auth: 'admin',
    body: 'json',
    fields: {
      date: match({ bad: badDates }),
      time: match({ bad: badTimes }),
      className: text({ bad: ['Two\nlines'] }),
      locationId: match(),
      rateCents: { kind: 'number', required: true, bad: [-1, 1.5, 1_000_001] },
      minutes: { kind: 'number', bad: [0, 1441, 1.5] },
      frequency: match({ bad: ['daily', 'WEEKLY'] }),
      paymentMethod: match({ bad: ['bitcoin', 'Cash'] }),
      requestSent: { kind: 'boolean' },
      paid: { kind: 'boolean' },
      taxed: { kind: 'boolean' },
      repeatUntil: optionalText({ role: 'match', bad: ['2026-02-30', '2000-01-01'] }),
    },
    writes: ['gigs'],
    example: async (fx) => ({
      json: {
        date: '2026-03-03',
        time: '18:00',
        className: fx.unique('Vinyasa'),
        locationId: await bookLocation(fx),
        rateCents: 6000,
        frequency: 'weekly',
        paymentMethod: 'venmo',
        requestSent: false,
        paid: false,
        taxed: false,
        repeatUntil: '2026-03-31',
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/gigs/:id',
    auth: 'admin',
    body: 'json',
    fields: { className: optionalText({ bad: ['Two\nlines'] }), paid: { kind: 'boolean' }, paidOn: optionalText({ role: 'match', bad: ['2026-02-30'] }) },
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) }, json: { className: fx.unique('Yin'), paid: true, paidOn: '2026-03-10' } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/gigs/:id',
    auth: 'admin',
    body: 'none',
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gigs/:id/end',
    auth: 'admin',
    body: 'json',
    fields: { after: optionalText({ role: 'match', bad: ['2026-02-30', 'soon'] }) },
    writes: ['gigs'],
    example: async (fx) => ({ params: { id: await bookGig(fx) }, json: { after: '2026-03-10' } }),
  },
  plainGet('/api/admin/trips', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/trips',
    auth: 'admin',
    body: 'json',
    fields: { date: match({ bad: badDates }), purpose: text({ bad: ['Two\nlines'] }), miles: { kind: 'number', required: true, bad: [0, -3, 10001, 2.25] } },
    writes: ['trips'],
    example: async (fx) => ({ json: { date: '2026-04-02', purpose: fx.unique('Cacao supplier'), miles: 23.5 } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/trips/:id',
    auth: 'admin',
    body: 'none',
    writes: ['trips'],
    example: async (fx) => ({
      params: {
        id: (
          await fx.db
            .insertInto('trips')
            .values({ date: '2026-04-02', purpose: fx.unique('Market'), tenthMiles: 50 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      },
    }),
  },
  plainGet('/api/admin/mileage-rates', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/mileage-rates/:year',
    auth: 'admin',
    body: 'json',
    fields: { centsPerMile: { kind: 'number', required: true, bad: [-1, 1001, 65.55] }, name: text({ bad: ['Two\nlines'] }) },
    writes: ['mileageRates'],
    example: async (fx) => ({ params: { year: '2025' }, json: { centsPerMile: 70, name: fx.unique('IRS business rate 2025') } }),
  },
  { method: 'GET', route: '/api/admin/tax-year/:year', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { year: '2026' } }) },
  // The tax year's CSV is the exports' /:file route with another name.
  {
    method: 'GET',
    route: '/api/admin/exports/:file',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async () => ({ params: { file: 'tax-year-2026.csv' } }),
  },
];
