/** The endpoint table's gift cards part (issue 33; tests/helpers/endpoints.ts holds the whole table, in order). */
import { match, text, type Endpoint, type Fixtures } from './common.ts';
import { linkTokenOf } from '../../../api/gift-cards/codes.ts';
import { newPackage } from './packages.ts';

/** A card she issues, delivered today (or on `sendOn`): its code is what the balance look-up is asked with. */
const issuedCard = async (fx: Fixtures, sendOn?: string, amountCents = 2_500) => {
  const res = await fx.server.api('/api/admin/gift-cards', {
    method: 'POST',
    json: { amountCents, recipientName: 'Rae Gift', recipientEmail: fx.email('gift'), ...(sendOn ? { sendOn } : {}) },
    headers: { cookie: await fx.adminCookie() },
  });
  if (res.status !== 201) throw new Error(`gift card: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string; code: string };
};

/** An approved PayPal order for a $50 card, made by the order endpoint. */
const approvedCardOrder = async (fx: Fixtures) => {
  const res = await fx.server.api('/api/gift-cards/paypal-order', { method: 'POST', json: { amountCents: 5_000 } });
  if (res.status !== 200) throw new Error(`gift card paypal-order: ${res.status} ${await res.text()}`);
  const { orderID } = (await res.json()) as { orderID: string };
  await fx.approve(orderID);
  return orderID;
};

/** A card bought for a later day, and its buyer's link's token (as the receipt carries it). */
const boughtLaterCard = async (fx: Fixtures) => {
  const res = await fx.server.api('/api/gift-cards', {
    method: 'POST',
    json: {
      paypalOrderId: await approvedCardOrder(fx),
      amountCents: 5_000,
      design: 'yoga',
      buyerName: 'Bea Buyer',
      buyerEmail: fx.email('gift-buyer'),
      recipientName: 'Rae Gift',
      recipientEmail: fx.email('gift'),
      sendOn: fx.date(5),
    },
  });
  if (res.status !== 201) throw new Error(`gift card purchase: ${res.status} ${await res.text()}`);
  const { _id } = (await res.json()) as { _id: string };
  return { id: _id, token: linkTokenOf(fx.server.services.env.APP_SECRET, 'change', _id) };
};

/** A client, a $240 package and a card of `cardCents` to pay it with (all of it, or part). */
const packageWithCard = async (fx: Fixtures, cardCents: number) => {
  const user = await fx.user({ firstName: 'Ana', lastName: 'Lima' });
  const { id: packageId } = await newPackage(fx);
  const { code } = await issuedCard(fx, undefined, cardCents);
  return { cookie: user.cookie, params: { id: user.id, packageId }, json: { giftCardCode: code, amountCents: 24_000 } };
};

/** A GET behind a card mail's link: the card's id in the path, its token in the query, every wrong token alike. */
const cardLink = (route: string, card: (fx: Fixtures) => Promise<{ id: string; token: string }>): Endpoint => ({
  method: 'GET',
  route,
  auth: 'none',
  body: 'none',
  fields: { token: match({ in: 'query', bad: ['nope', 'AAAAAAAAAAAAAAAAAAAAAA'] }) },
  writes: [],
  example: async (fx) => {
    const { id, token } = await card(fx);
    return { params: { id }, query: { token } };
  },
});

export const GIFT_CARDS_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    route: '/api/gift-cards/balance',
    auth: 'none',
    body: 'none',
    fields: { code: match({ in: 'query', bad: ['0000-0000-0000-0000', 'K7QM-2XWD-9PHN'] }) },
    writes: [],
    example: async (fx) => ({ query: { code: (await issuedCard(fx)).code } }),
  },
  { method: 'GET', route: '/api/admin/gift-cards', auth: 'admin', body: 'none', writes: [], example: async (fx) => ({ cookie: await fx.adminCookie() }) },
  {
    method: 'POST',
    route: '/api/admin/gift-cards',
    auth: 'admin',
    body: 'json',
    fields: {
      amountCents: { kind: 'number', required: true, bad: [0, 99, 1.5, 50_001, -100] },
      recipientName: text(),
      recipientEmail: text({ bad: ['not-an-address', 'a@b'] }),
      message: { kind: 'string' },
      sendOn: match({ required: false, bad: ['2031-02-30', '31-01-2031', '', '2001-01-01'] }),
      design: match({ required: false, bad: ['roses', ''] }),
    },
    writes: ['giftCards', 'creditLots', 'ledgerEntries', 'mails', 'mailOutbox'],
    example: async (fx) => ({
      cookie: await fx.adminCookie(),
      json: { amountCents: 5_000, recipientName: 'Rae Gift', recipientEmail: fx.email('gift'), message: 'Thank you for the raffle', design: 'chocolates' },
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/gift-cards/:id',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await issuedCard(fx))._id } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gift-cards/:id/void',
    auth: 'admin',
    body: 'none',
    writes: ['giftCards', 'ledgerEntries'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await issuedCard(fx, fx.date(5)))._id } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gift-cards/:id/resend',
    auth: 'admin',
    body: 'none',
    writes: ['mails', 'mailOutbox'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await issuedCard(fx))._id } }),
  },
  {
    method: 'POST',
    route: '/api/admin/gift-cards/:id/adjust',
    auth: 'admin',
    body: 'json',
    fields: { cents: { kind: 'number', required: true, bad: [0, 1.5, 50_001, -50_001] }, reason: text() },
    writes: ['ledgerEntries'],
    example: async (fx) => ({ cookie: await fx.adminCookie(), params: { id: (await issuedCard(fx))._id }, json: { cents: 500, reason: 'A make-good' } }),
  },
  {
    method: 'POST',
    route: '/api/gift-cards/paypal-order',
    auth: 'none',
    body: 'json',
    // Whole dollars from $10 to $500.
    fields: { amountCents: { kind: 'number', required: true, bad: [0, -100, 999, 1_250, 50_100, 10.5] } },
    writes: [],
    example: async () => ({ json: { amountCents: 5_000 } }),
  },
  {
    method: 'POST',
    route: '/api/gift-cards',
    auth: 'none',
    body: 'json',
    fields: {
      paypalOrderId: match(),
      // The amount the order was made for: any other is refused.
      amountCents: { kind: 'number', required: true, role: 'match', bad: [0, 999, 1_250, 50_100, 4_900] },
      design: match({ bad: ['roses', ''] }),
      buyerName: text(),
      buyerEmail: text({ bad: ['not-an-address', 'a@b'] }),
      recipientName: text(),
      recipientEmail: text({ bad: ['not-an-address', 'a@b'] }),
      message: { kind: 'string' },
      sendOn: match({ required: false, bad: ['2031-02-30', '31-01-2031', '', '2001-01-01'] }),
    },
    writes: ['paymentAttempts', 'giftCards', 'creditLots', 'ledgerEntries', 'mails', 'mailOutbox'],
    example: async (fx) => ({
      json: {
        paypalOrderId: await approvedCardOrder(fx),
        amountCents: 5_000,
        design: 'chocolates',
        buyerName: 'Bea Buyer',
        buyerEmail: fx.email('gift-buyer'),
        recipientName: 'Rae Gift',
        recipientEmail: fx.email('gift'),
        message: 'Merry Christmas',
      },
    }),
  },
  // The links of a card's mails: the buyer's change (a card bought for a later day) and the printable card.
  cardLink('/api/gift-cards/:id/delivery', async (fx) => boughtLaterCard(fx)),
  cardLink('/api/gift-cards/:id/printable', async (fx) => {
    const { _id: id } = await issuedCard(fx);
    return { id, token: linkTokenOf(fx.server.services.env.APP_SECRET, 'print', id) };
  }),
  {
    method: 'PUT',
    route: '/api/gift-cards/:id/delivery',
    auth: 'none',
    body: 'json',
    fields: {
      token: match({ bad: ['nope', 'AAAAAAAAAAAAAAAAAAAAAA'] }),
      recipientName: text(),
      recipientEmail: text({ bad: ['not-an-address', 'a@b'] }),
      sendOn: match({ bad: ['2031-02-30', '31-01-2031', '', '2001-01-01'] }),
    },
    writes: ['giftCards'],
    example: async (fx) => {
      const card = await boughtLaterCard(fx);
      return { params: { id: card.id }, json: { token: card.token, recipientName: 'Rae Other', recipientEmail: fx.email('gift-other'), sendOn: fx.date(7) } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/packages/:packageId/gift-card',
    auth: 'user',
    body: 'json',
    fields: {
      giftCardCode: match({ bad: ['0000-0000-0000-0000', 'K7QM-2XWD-9PHN'] }),
      // On the package's $200–$300 scale, and no more than the card holds.
      amountCents: { kind: 'number', required: true, role: 'match', bad: [0, -100, 1.5, 19_900, 30_100] },
      // With an approved order for the rest; the example's card pays it all, so any order id is refused.
      paypalOrderId: { kind: 'string', bad: ['not an id!', 'A'.repeat(65)] },
    },
    writes: ['creditLots', 'ledgerEntries', 'mails', 'mailOutbox'],
    example: async (fx) => packageWithCard(fx, 30_000),
  },
  {
    method: 'POST',
    route: '/api/user/:id/packages/:packageId/gift-card/paypal-order',
    auth: 'user',
    body: 'json',
    fields: {
      giftCardCode: match({ bad: ['0000-0000-0000-0000', 'K7QM-2XWD-9PHN'] }),
      // On the package's $200–$300 scale (a card of $50 pays part of it).
      amountCents: { kind: 'number', required: true, role: 'match', bad: [0, -100, 1.5, 19_900, 30_100] },
    },
    writes: [],
    example: async (fx) => packageWithCard(fx, 5_000),
  },
];
