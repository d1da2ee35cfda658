/** The endpoint table's part for her food licence (issue 48; tests/helpers/endpoints.ts holds the whole table, in order). */
import { match, optionalText, plainGet, text, type Endpoint } from './common.ts';

export const FOOD_LICENCE_ENDPOINTS: Endpoint[] = [
  plainGet('/api/admin/settings/food-licence', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/settings/food-licence',
    auth: 'admin',
    body: 'json',
    fields: {
      mode: match({ bad: ['exempt', 'Cottage', ''] }),
      licenceNumber: optionalText({ inJson: true, bad: ['DK-1\nDK-2', 'x'.repeat(61)] }),
      businessName: text({ inJson: true, bad: ['', 'x'.repeat(201)] }),
      businessAddress: text({ inJson: true, bad: ['', 'x'.repeat(301)] }),
      phone: text({ inJson: true, bad: ['', 'call me', '555'] }),
      capDollars: { kind: 'number', bad: [0, -5, 12.5, 10_000_001] },
    },
    writes: ['settings'],
    example: async (fx) => ({
      json: {
        mode: 'licensed',
        licenceNumber: fx.unique('DK'),
        businessName: fx.unique('Cacao Kitchen'),
        businessAddress: '12 Elm St, Portland, OR 97201',
        phone: '503-555-0100',
        capDollars: 50_000,
      },
    }),
  },
];
