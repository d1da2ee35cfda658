/** The endpoint table's packages part (issue 32; tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, ownRoute, match, text, type Endpoint, type Fixtures } from './common.ts';

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
export const newPackage = async (fx: Fixtures) =>
  fx.db
    .insertInto('packages')
    .values({ ...packageExample(fx), sessionTypes: JSON.stringify(['Individual Yoga Session (60 min)']) })
    .returning('id')
    .executeTakeFirstOrThrow();

/** An approved PayPal order for a new package ($240 on its $200–$300 scale), made by the order endpoint for a new client. */
const approvedPackageOrder = async (fx: Fixtures) => {
  const user = await fx.user({ firstName: 'Ana', lastName: 'Lima' });
  const { id: packageId } = await newPackage(fx);
  const res = await fx.server.api(`/api/user/${user.id}/packages/${packageId}/paypal-order`, {
    method: 'POST',
    json: { amountCents: 24_000 },
    headers: { cookie: user.cookie },
  });
  if (res.status !== 200) throw new Error(`package paypal-order: ${res.status} ${await res.text()}`);
  const { orderID } = (await res.json()) as { orderID: string };
  await fx.approve(orderID);
  return { user, packageId, orderID };
};

export const PACKAGES_ENDPOINTS: Endpoint[] = [
  plainGet('/api/packages', 'none'),
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
  ownRoute('GET', '/api/user/:id/balance', []),
  {
    method: 'POST',
    route: '/api/admin/users/:id/lots/:lotId/refund',
    auth: 'admin',
    body: 'none',
    writes: ['ledgerEntries'],
    example: async (fx) => {
      const user = await fx.user();
      const { id: packageId } = await newPackage(fx);
      const lot = await fx.db
        .insertInto('creditLots')
        .values({
          userId: user.id,
          packageId,
          name: 'Three sessions',
          sessionTypes: JSON.stringify(['Individual Yoga Session (60 min)']),
          quantity: 3,
          priceCents: 24_000,
          method: 'cash',
          paidOn: fx.date(0),
          expiresOn: fx.date(90),
          createdBy: 'admin',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await fx.db.insertInto('ledgerEntries').values({ userId: user.id, lotId: lot.id, change: 3, reason: 'bought', createdBy: 'admin' }).execute();
      return { cookie: await fx.adminCookie(), params: { id: user.id, lotId: lot.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/packages/:packageId/paypal-order',
    auth: 'user',
    body: 'json',
    // The package's scale is $200–$300: the amount the client picks must lie on it.
    fields: { amountCents: { kind: 'number', required: true, bad: [0, -1, 1.5, 19_999, 30_001] } },
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id, packageId: (await newPackage(fx)).id }, json: { amountCents: 24_000 } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/packages/:packageId/buy',
    auth: 'user',
    body: 'json',
    fields: { paypalOrderId: match() },
    writes: ['paymentAttempts', 'creditLots', 'ledgerEntries', 'mails', 'mailOutbox'],
    example: async (fx) => {
      const { user, packageId, orderID } = await approvedPackageOrder(fx);
      return { cookie: user.cookie, params: { id: user.id, packageId }, json: { paypalOrderId: orderID } };
    },
  },
];
