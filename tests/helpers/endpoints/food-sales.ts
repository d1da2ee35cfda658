/** The endpoint table's part for her postal address and her food sales (issue 48, decision 0059; tests/helpers/endpoints.ts holds the whole table, in order). */
import { match, plainGet, text, badDates, type Endpoint, type Field, type Fixtures } from './common.ts';
import { writeSettings } from '../../../api/settings/settings.repo.ts';
import { insertHandSale } from '../../../api/books/food-sales.repo.ts';

/** Her postal address set (issue 48): a newsletter is not sent without one. */
export const postalAddressSet = (fx: Fixtures) => writeSettings(fx.db, { postalAddress: 'PO Box 4120, Portland, OR 97208' });

const year = (): Field => ({ kind: 'string', required: true, role: 'lookup', in: 'query', bad: ['1999', '2101', '26', 'abcd', ''] });

export const FOOD_SALES_ENDPOINTS: Endpoint[] = [
  plainGet('/api/admin/settings/postal-address', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/settings/postal-address',
    auth: 'admin',
    body: 'json',
    fields: { address: text({ inJson: true, bad: ['', '   ', 'x'.repeat(301), 'a\nb\nc\nd\ne\nf'] }) },
    writes: ['settings'],
    example: async (fx) => ({ json: { address: fx.unique('PO Box 4120, Portland, OR 97208') } }),
  },
  // The year's food sales, as a screen and as the records' CSV: the same question of a year.
  ...['/api/admin/books/food-sales', '/api/admin/books/food-sales.csv'].map((route): Endpoint => ({
    method: 'GET',
    route,
    auth: 'admin',
    body: 'none',
    fields: { year: year() },
    writes: [],
    example: async () => ({ query: { year: '2026' } }),
  })),
  {
    method: 'POST',
    route: '/api/admin/books/food-sales',
    auth: 'admin',
    body: 'json',
    fields: {
      soldOn: match({ bad: badDates }),
      food: text({ bad: ['Two\nlines', 'x'.repeat(201)] }),
      quantity: { kind: 'number', required: true, bad: [0, -1, 1.5, 10_001] },
      amountCents: { kind: 'number', required: true, bad: [-1, 12.5, 1_000_001] },
      place: text({ bad: ['Two\nlines', 'x'.repeat(301)] }),
    },
    writes: ['foodSales'],
    example: async (fx) => ({
      json: { soldOn: '2026-05-09', food: fx.unique('Almond bark'), quantity: 3, amountCents: 2700, place: fx.unique('Saturday market, 108 W Burnside') },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/books/food-sales/:id',
    auth: 'admin',
    body: 'none',
    writes: ['foodSales'],
    example: async (fx) => ({
      params: { id: (await insertHandSale(fx.db, { soldOn: '2026-05-09', food: fx.unique('Truffles'), quantity: 1, amountCents: 900, place: 'Market' })).id },
    }),
  },
];
