/** The endpoint table's packages part (issue 32; tests/helpers/endpoints.ts holds the whole table, in order). */
import { match, text, type Endpoint, type Fixtures } from './common.ts';

const money = (extra: object = {}) => ({ kind: 'number' as const, required: true, bad: [-1, 1.5, 10_000_01], ...extra });
const PACKAGE_FIELDS = {
  name: text(),
  sessionTypes: { kind: 'array' as const, required: true, role: 'match' as const, bad: [[], ['Chocolate tasting'], [1]] },
  sessions: { kind: 'number' as const, required: true, bad: [0, 101, 2.5] },
  minPriceCents: money(),
  suggestedPriceCents: money(),
  maxPriceCents: money(),
  monthsValid: { kind: 'number' as const, required: true, bad: [0, 61, 1.5] },
  active: { kind: 'boolean' as const },
};
const packageExample = (fx: Fixtures) => ({
  name: fx.unique('Package'),
  sessionTypes: ['Individual Yoga Session (60 min)'],
  sessions: 3,
  minPriceCents: 20_000,
  suggestedPriceCents: 24_000,
  maxPriceCents: 30_000,
  monthsValid: 3,
});
const newPackage = async (fx: Fixtures) =>
  fx.db
    .insertInto('packages')
    .values({ ...packageExample(fx), sessionTypes: JSON.stringify(['Individual Yoga Session (60 min)']) })
    .returning('id')
    .executeTakeFirstOrThrow();

export const PACKAGES_ENDPOINTS: Endpoint[] = [
  { method: 'GET', route: '/api/packages', auth: 'none', body: 'none', writes: [], example: async () => ({}) },
  { method: 'GET', route: '/api/admin/packages', auth: 'admin', body: 'none', writes: [], example: async (fx) => ({ cookie: await fx.adminCookie() }) },
  {
    method: 'POST',
    route: '/api/admin/packages',
    auth: 'admin',
    body: 'json',
    fields: PACKAGE_FIELDS,
    writes: ['packages'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), json: packageExample(fx) }),
  },
  {
    method: 'PUT',
    route: '/api/admin/packages/:id',
    auth: 'admin',
    body: 'json',
    fields: PACKAGE_FIELDS,
    writes: ['packages'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await newPackage(fx)).id }, json: packageExample(fx) }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/packages/:id',
    auth: 'admin',
    body: 'none',
    writes: ['packages'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await newPackage(fx)).id } }),
  },
  {
    method: 'POST',
    route: '/api/admin/users',
    auth: 'admin',
    body: 'json',
    fields: {
      firstName: text(),
      lastName: text(),
      email: text({ bad: ['not-an-address', 'a@b'] }),
      phone: { kind: 'string' },
      sendWelcome: { kind: 'boolean' },
    },
    writes: ['users'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), json: { firstName: 'Pat', lastName: 'Phone', email: fx.email('by-hand'), phone: '555-0100' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/packages',
    auth: 'admin',
    body: 'json',
    fields: {
      packageId: match(),
      amountCents: money(),
      method: match({ bad: ['bitcoin', ''] }),
      paidOn: match({ bad: ['2031-02-30', '31-01-2031', ''] }),
      sendReceipt: { kind: 'boolean' },
    },
    writes: ['creditLots', 'ledgerEntries'],
    example: async (fx) => ({
      cookie: await fx.adminCookie(),
      params: { id: (await fx.user()).id },
      json: { packageId: (await newPackage(fx)).id, amountCents: 24_000, method: 'venmo', paidOn: fx.date(0) },
    }),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/credits',
    auth: 'admin',
    body: 'json',
    fields: { sessions: { kind: 'number', required: true, bad: [0, 1.5, 101, -101] }, reason: text() },
    writes: ['creditLots', 'ledgerEntries'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await fx.user()).id }, json: { sessions: 2, reason: 'A thank-you' } }),
  },
  {
    method: 'GET',
    route: '/api/user/:id/balance',
    auth: 'user',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
];
