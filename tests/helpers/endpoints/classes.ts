/** The endpoint table's classes part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, text, optionalText, match, badDates, badTimes, type Endpoint } from './common.ts';

export const CLASSES_ENDPOINTS: Endpoint[] = [
  // --- events (group classes) ----------------------------------------------------------------
  plainGet('/api/events', 'none'),
  {
    method: 'POST',
    route: '/api/admin/events',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text(),
      date: match({ bad: badDates }),
      time: match({ bad: badTimes }),
      location: optionalText(),
      signUpLink: optionalText({ bad: ['javascript:alert(1)', 'ftp://example.com', 'data:text/html,<script>alert(1)</script>', '//evil.example'] }),
      isExternal: { kind: 'boolean' },
      capacity: { kind: 'number', bad: [0, -1, 1.5, 501, 1e308] },
      minutes: { kind: 'number', bad: [0, 1441, 1.5] },
      repeat: optionalText({ role: 'match', bad: ['daily', 'yearly'] }),
    },
    writes: ['events'],
    example: async (fx) => ({
      json: {
        title: fx.unique('Morning Flow'),
        date: fx.date(40),
        time: '07:30',
        location: 'Studio',
        signUpLink: '',
        isExternal: false,
        capacity: 12,
        repeat: 'none',
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/events/:id',
    auth: 'admin',
    body: 'json',
    // Every field is optional: an omitted one keeps its value.
    fields: {
      title: optionalText(),
      date: optionalText({ role: 'match', bad: badDates }),
      time: optionalText({ role: 'match', bad: badTimes }),
      location: optionalText(),
      signUpLink: optionalText({ bad: ['javascript:alert(1)', 'mailto:a@example.com'] }),
      isExternal: { kind: 'boolean' },
      capacity: { kind: 'number', bad: [0, -5, 2.5, 10_000] },
      minutes: { kind: 'number', bad: [0, 1441, 1.5] },
    },
    // More places go to the class's waitlist, who are mailed (issue 15).
    writes: ['events', 'classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => ({
      params: { id: (await fx.event()).id },
      json: {
        title: fx.unique('Renamed Flow'),
        date: fx.date(45),
        time: '18:15',
        location: 'Park',
        signUpLink: 'https://example.com/join',
        isExternal: false,
        capacity: 10,
      },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/events/bulk',
    auth: 'admin',
    body: 'json',
    fields: { eventIds: { kind: 'array', required: true, bad: [[], [1], [''], ['../x'], ["' OR 1=1 --"], Array.from({ length: 501 }, (_, i) => `id${i}`)] } },
    writes: ['events', 'classSignups'],
    example: async (fx) => ({ json: { eventIds: [(await fx.event()).id] } }),
  },
  // issue 34: paid workshops, her list with private and cancelled events, calling one off
  {
    method: 'POST',
    route: '/api/events/:id/paypal-order',
    auth: 'none',
    body: 'json',
    fields: {
      // Exactly the price ($45) of the example's workshop.
      amountCents: { kind: 'number', required: true, role: 'match', bad: [0, -100, 4_499, 4_501, 45.5, 100_001] },
      name: text(),
      email: text({ bad: ['not-an-address', 'a@b'] }),
      phone: text(),
      // The sign-up form's human check (issue 47).
      recaptchaToken: match(),
    },
    writes: ['classSignups'],
    example: async (fx) => ({
      params: { id: (await fx.event({ priceCents: 4_500 })).id },
      json: { amountCents: 4_500, name: 'Pia Payer', email: fx.email('payer'), phone: '123-456-7890', recaptchaToken: 'dev:signup_form_submit' },
    }),
  },
  plainGet('/api/admin/events', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/events/:id/cancel',
    auth: 'admin',
    body: 'none',
    fields: {},
    writes: ['events', 'classSignups', 'classWaitlist', 'eventPayments', 'mails'],
    example: async (fx) => ({ params: { id: (await fx.event()).id } }),
  },
  {
    method: 'GET',
    route: '/api/class-status',
    auth: 'none',
    body: 'none',
    fields: { classTitle: match({ in: 'query' }), date: match({ in: 'query', bad: badDates }) },
    writes: [],
    example: async (fx) => {
      const event = await fx.event();
      return { query: { classTitle: event.title, date: event.date } };
    },
  },
];
