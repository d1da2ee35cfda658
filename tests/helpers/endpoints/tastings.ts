/** The endpoint table's tastings part (issue 34; tests/helpers/endpoints.ts holds the whole table, in order). */
import { badDates, badTimes, match, text, type Endpoint, type Example, type Fixtures, type Table } from './common.ts';
import { linkToken } from '../../../api/lib/link-token.ts';

/** A request as the /chocolates form sends it, for days `fx` makes. */
export const tastingRequestBody = (fx: Fixtures) => ({
  name: 'Tess Taster',
  email: fx.email('taster'),
  phone: '123-456-7890',
  occasion: 'Team retreat',
  guests: 18,
  dates: [fx.date(20), fx.date(21)],
  place: '12 Cacao Lane, Portland',
  recaptchaToken: 'dev:tasting_request',
});

/** A new request; its id. */
export async function newTastingRequest(fx: Fixtures): Promise<string> {
  const res = await fx.server.api('/api/tastings', { method: 'POST', json: tastingRequestBody(fx) });
  if (res.status !== 201) throw new Error(`tasting request: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { _id: string })._id;
}

/** Her standard quote for a new request: its request's and quote's ids and the pay link's token. */
export async function quotedTasting(fx: Fixtures, quote: Record<string, unknown> = {}) {
  const requestId = await newTastingRequest(fx);
  const res = await fx.server.api(`/api/admin/tastings/${requestId}/quote`, {
    method: 'POST',
    json: { priceCents: 52_000, depositCents: 26_000, date: fx.date(20), time: '18:00', place: '12 Cacao Lane, Portland', ...quote },
    headers: { cookie: await fx.adminCookie() },
  });
  if (res.status !== 201) throw new Error(`tasting quote: ${res.status} ${await res.text()}`);
  const quoteId = ((await res.json()) as { _id: string })._id;
  return { requestId, quoteId, token: linkToken(fx.server.services.env.APP_SECRET, 'tasting-pay', quoteId) };
}

/** A quoted tasting whose deposit the client paid through the emulator. */
async function bookedTasting(fx: Fixtures) {
  const t = await quotedTasting(fx);
  const order = await fx.server.api(`/api/tastings/quotes/${t.quoteId}/paypal-order`, { method: 'POST', json: { token: t.token, part: 'deposit' } });
  const { orderID } = (await order.json()) as { orderID: string };
  await fx.approve(orderID);
  const paid = await fx.server.api(`/api/tastings/quotes/${t.quoteId}/pay`, {
    method: 'POST',
    json: { token: t.token, part: 'deposit', paypalOrderId: orderID },
  });
  if (paid.status !== 201) throw new Error(`tasting deposit: ${paid.status} ${await paid.text()}`);
  return t;
}

const badToken = ['nope', 'AAAAAAAAAAAAAAAAAAAAAA'];

/** Her POST of a JSON body about a request (`example` names it and the body), with her session. */
const herPost = (route: string, fields: Endpoint['fields'], writes: Table[], example: (fx: Fixtures) => Promise<Example>): Endpoint => ({
  method: 'POST',
  route,
  auth: 'admin',
  body: 'json',
  fields,
  writes,
  example: async (fx) => ({ cookie: await fx.adminCookie(), ...(await example(fx)) }),
});
const part = match({ bad: ['everything', ''] });

/** An example on a fresh quote: its id as the path's, and what `more` makes of its link's token. */
async function onQuote(fx: Fixtures, more: (token: string) => Record<string, unknown>) {
  const { quoteId, token } = await quotedTasting(fx);
  return { params: { id: quoteId }, ...more(token) };
}

export const TASTINGS_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    route: '/api/tastings',
    auth: 'none',
    body: 'json',
    fields: {
      name: text(),
      email: text({ bad: ['not-an-address', 'a@b'] }),
      phone: text(),
      occasion: text(),
      guests: { kind: 'number', required: true, bad: [0, -1, 1.5, 201] },
      // Two or three distinct real days, today or later.
      dates: {
        kind: 'array',
        required: true,
        bad: [
          [],
          ['2031-03-01'],
          ['2031-03-01', '2031-03-01'],
          ['2031-02-30', '2031-03-01'],
          ['2001-01-01', '2001-01-02'],
          ['2031-03-01', '2031-03-02', '2031-03-03', '2031-03-04'],
        ],
      },
      place: text(),
      recaptchaToken: match({ bad: ['dev:contact_form_submit'] }),
    },
    writes: ['tastingRequests', 'mails', 'mailOutbox'],
    example: async (fx) => ({ json: tastingRequestBody(fx) }),
  },
  {
    method: 'GET',
    route: '/api/tastings/quotes/:id',
    auth: 'none',
    body: 'none',
    fields: { token: match({ in: 'query', bad: badToken }) },
    writes: [],
    example: (fx) => onQuote(fx, (token) => ({ query: { token } })),
  },
  {
    method: 'POST',
    route: '/api/tastings/quotes/:id/paypal-order',
    auth: 'none',
    body: 'json',
    fields: { token: match({ bad: badToken }), part },
    writes: [],
    example: (fx) => onQuote(fx, (token) => ({ json: { token, part: 'deposit' } })),
  },
  {
    method: 'POST',
    route: '/api/tastings/quotes/:id/pay',
    auth: 'none',
    body: 'json',
    fields: { token: match({ bad: badToken }), part, paypalOrderId: match() },
    writes: ['paymentAttempts', 'tastingPayments', 'tastingQuotes', 'events', 'mails', 'mailOutbox'],
    example: async (fx) => {
      const { quoteId, token } = await quotedTasting(fx);
      const order = await fx.server.api(`/api/tastings/quotes/${quoteId}/paypal-order`, { method: 'POST', json: { token, part: 'deposit' } });
      const { orderID } = (await order.json()) as { orderID: string };
      await fx.approve(orderID);
      return { params: { id: quoteId }, json: { token, part: 'deposit', paypalOrderId: orderID } };
    },
  },
  { method: 'GET', route: '/api/admin/tastings', auth: 'admin', body: 'none', writes: [], example: async (fx) => ({ cookie: await fx.adminCookie() }) },
  herPost(
    '/api/admin/tastings/:id/quote',
    {
      priceCents: { kind: 'number', required: true, bad: [0, -100, 1.5, 2_000_001] },
      // At most the price.
      depositCents: { kind: 'number', required: true, bad: [0, -100, 1.5, 52_001] },
      date: match({ bad: [...badDates, '2001-01-01'] }),
      time: match({ bad: badTimes }),
      place: text(),
    },
    ['tastingQuotes', 'mails', 'mailOutbox'],
    async (fx) => ({
      params: { id: await newTastingRequest(fx) },
      json: { priceCents: 52_000, depositCents: 26_000, date: fx.date(20), time: '18:00', place: '12 Cacao Lane, Portland' },
    }),
  ),
  // The rest after the deposit, paid by hand.
  herPost('/api/admin/tastings/:id/balance', { method: match({ bad: ['paypal', 'venmo', ''] }) }, ['tastingPayments', 'mails', 'mailOutbox'], async (fx) => ({
    params: { id: (await bookedTasting(fx)).requestId },
    json: { method: 'cash' },
  })),
];
