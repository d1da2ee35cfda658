/** The endpoint table's shop part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import { pagedList, plainGet, text, optionalText, match, type Endpoint, type Field } from './common.ts';

/** A chocolate's label facts (issue 48): optional, each refused when it is not what a label may say. */
const LABEL_FACT_FIELDS: Record<string, Field> = {
  ingredients: optionalText(),
  allergens: { kind: 'array', role: 'match', bad: [['nuts'], ['tree nuts'], ['coconut'], ['chocolate'], [1], [null]] },
  allergenFree: { kind: 'boolean' },
  netWeightGrams: { kind: 'number', bad: [0, -1, 100_001, 1e308] },
  dietTags: { kind: 'array', role: 'match', bad: [['keto'], [1]] },
};

export const SHOP_ENDPOINTS: Endpoint[] = [
  // --- chocolates, coupons, orders -----------------------------------------------------------
  plainGet('/api/chocolates', 'none'),
  {
    method: 'POST',
    route: '/api/chocolates',
    auth: 'admin',
    body: 'json',
    fields: {
      name: text(),
      image: optionalText({ bad: ['javascript:alert(1)', '//evil.example/x.png', 'data:image/png;base64,AAAA', '/a b.png', '\\\\evil\\x.png'] }),
      description: optionalText(),
      details: optionalText(),
      price: { kind: 'money', required: true, bad: [-1, 0.001, '18.555', '1e3', 'NaN', 100_000.01, 1e308] },
      inventory: { kind: 'number', required: true, bad: [-1, 1.5, 1_000_001, 1e308] },
      ...LABEL_FACT_FIELDS,
    },
    writes: ['products'],
    example: async (fx) => ({
      json: {
        name: fx.unique('Chai Spice Bonbons'),
        image: '/images/chai.png',
        description: 'Warm spices.',
        details: '12 pieces',
        price: 18.5,
        inventory: 7,
        ingredients: 'Milk chocolate (cane sugar, cocoa butter, milk powder), cream (milk), spices',
        allergens: ['milk'],
        allergenFree: false,
        netWeightGrams: 99,
        dietTags: ['gluten-free'],
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/chocolates/:id',
    auth: 'admin',
    body: 'json',
    fields: {
      name: text(),
      image: optionalText({ bad: ['javascript:alert(1)', '//evil.example/x.png'] }),
      description: optionalText(),
      details: optionalText(),
      price: { kind: 'money', required: true, bad: [-0.5, '1.234', 'ten'] },
      inventory: { kind: 'number', required: true, bad: [-3, 0.5] },
      ...LABEL_FACT_FIELDS,
    },
    writes: ['products'],
    example: async (fx) => ({
      params: { id: (await fx.product()).id },
      json: {
        name: fx.unique('Dark Sea Salt'),
        image: '',
        description: 'Flaky salt.',
        details: '70% cacao',
        price: '21.00',
        inventory: 4,
        ingredients: 'Dark chocolate (cocoa mass, cane sugar), sea salt',
        allergens: [],
        allergenFree: true,
        netWeightGrams: 80,
        dietTags: ['plant-based'],
      },
    }),
  },
  {
    method: 'GET',
    route: '/api/chocolates/:id/label',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: (await fx.product()).id } }),
  },
  {
    method: 'DELETE',
    route: '/api/chocolates/:id',
    auth: 'admin',
    body: 'none',
    writes: ['products', 'orderItems'],
    example: async (fx) => ({ params: { id: (await fx.product()).id } }),
  },
  {
    method: 'POST',
    route: '/api/chocolates/validate-coupon',
    auth: 'none',
    body: 'json',
    fields: { code: match(), itemsTotal: { kind: 'number', bad: [-1, 1e308, 10_000_001] } },
    writes: [],
    example: async (fx) => ({ json: { code: (await fx.cartCoupon()).toLowerCase(), itemsTotal: 30 } }),
  },
  {
    method: 'POST',
    route: '/api/orders/paypal',
    auth: 'none',
    body: 'json',
    fields: {
      cartItems: {
        kind: 'array',
        required: true,
        bad: [
          [],
          [{}],
          [null],
          [{ _id: 'no-such-tin', quantity: 1 }],
          [{ _id: 1, quantity: 1 }],
          [{ _id: '../x', quantity: 1 }],
          [{ _id: 'x', quantity: 0 }],
          [{ _id: 'x', quantity: 100 }],
          [{ _id: 'x', quantity: -1 }],
          [{ _id: 'x', quantity: 1.5 }],
          Array.from({ length: 51 }, (_, i) => ({ _id: `id${i}`, quantity: 1 })),
        ],
      },
      isLocalPickup: { kind: 'boolean' },
      couponCode: optionalText({ role: 'match' }),
      // Issue 24: required for a shipped cart, one of the US states.
      shipToState: match({ bad: ['XX', 'Washington', 'W', 'W A'] }),
      // Issue 33: a code that is no card's is refused, in the balance look-up's words.
      giftCardCode: optionalText({ role: 'match' }),
    },
    writes: [],
    example: async (fx) => ({
      json: { cartItems: [{ _id: (await fx.product()).id, quantity: 2 }], isLocalPickup: false, couponCode: await fx.cartCoupon(), shipToState: 'WA' },
    }),
  },
  {
    method: 'POST',
    route: '/api/orders',
    auth: 'none',
    body: 'json',
    fields: {
      // Required unless a gift card pays the whole order (issue 33): without it this cart is 402, still due.
      orderId: match(),
      // Issue 33: a code that is no card's is refused; shipTo only for an order a card pays in full.
      giftCardCode: optionalText({ role: 'match' }),
      shipTo: { kind: 'object', bad: [{ name: 'Rae' }, { name: 'Rae', line1: '1 Elm', city: 'X', state: 'ZZ', zip: '97201' }] },
      cartItems: { kind: 'array', required: true, bad: [[], [{}], [{ _id: 'no-such-tin', quantity: 1 }], [{ _id: 'x', quantity: 0 }]] },
      isLocalPickup: { kind: 'boolean' },
      couponCode: optionalText({ role: 'match' }),
      // Stand-ins for the payer PayPal reports: invalid values are dropped, never stored.
      payerName: optionalText({ lenient: true }),
      payerEmail: optionalText({ lenient: true }),
      // The example is a pickup: its state is dropped unread (issue 24; POST /api/orders/paypal checks it).
      shipToState: { kind: 'any' },
      // SPEC.md's Order carries them; the server prices the cart itself and never reads them.
      transactionAmount: { kind: 'any' },
      discount: { kind: 'any' },
    },
    writes: ['orders', 'orderItems', 'products', 'paymentAttempts', 'mails'],
    example: async (fx) => {
      const product = await fx.product();
      const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup: true, couponCode: null };
      const orderId = await fx.cartOrder(cart);
      return { json: { orderId, ...cart, payerName: 'Pat Buyer', payerEmail: 'pat@example.com', transactionAmount: 18, discount: 0 } };
    },
  },
  pagedList(
    '/api/admin/orders',
    { status: optionalText({ in: 'query', role: 'match', bad: ['lost', 'PAID'] }), pickup: optionalText({ in: 'query', role: 'match', bad: ['all', 'soon'] }) },
    { status: 'paid' },
  ),
  // PayPal's deliveries, signed the way the emulator's verify endpoint accepts. Unknown event
  // types are answered 200 and ignored by design, so only malformed ones are refused.
  {
    method: 'POST',
    route: '/api/paypal/webhook',
    auth: 'none',
    body: 'json',
    fields: { event_type: match({ bad: ['payment.capture.completed', 'PAYMENT..CAPTURE', 'PAYMENT CAPTURE'] }) },
    writes: ['orders', 'paymentAttempts', 'mails'],
    example: async (fx) => ({
      headers: emulatorWebhookHeaders(),
      json: {
        id: fx.unique('WH').toUpperCase(),
        event_version: '1.0',
        resource_type: 'capture',
        event_type: 'PAYMENT.CAPTURE.COMPLETED',
        resource: { id: await fx.pendingOrder(), status: 'COMPLETED', amount: { currency_code: 'USD', value: '26.00' } },
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/orders/:id/status',
    auth: 'admin',
    body: 'json',
    fields: {
      status: match({ bad: ['refunded', 'PAID', 'lost'] }),
      // Issue 20: with shipped, the buyer is mailed the number (linked for a known carrier).
      trackingNumber: optionalText({ role: 'match', bad: ['1Z 999 <b>', 'x'.repeat(65)] }),
      carrier: optionalText({ bad: ['x'.repeat(41), 'UPS\nDHL'] }),
    },
    writes: ['orders', 'mails'],
    example: async (fx) => ({ params: { id: await fx.order(false) }, json: { status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'UPS' } }),
  },
  {
    // Issue 33: her refund; PayPal's part through PayPal, a gift card's part back on the card.
    method: 'POST',
    route: '/api/admin/orders/:id/refund',
    auth: 'admin',
    body: 'none',
    writes: ['orders', 'ledgerEntries', 'mails'],
    example: async (fx) => ({ params: { id: await fx.order(false) } }),
  },
];
