/** The endpoint table's forms part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, SIGNATURE, text, optionalText, match, badDates, type Endpoint, type Fixtures, type Table, byToken } from './common.ts';

/**
 * A class's form, the sign-up or (for a full class) the waitlist: its fields, waiver and
 * signature, and an example for the class `event` makes, sent by `student`.
 */
const classForm = (
  route: string,
  writes: Table[],
  event: (fx: Fixtures) => Promise<{ title: string; date: string }>,
  student: { name: string; tag: string; recaptchaToken: string },
): Endpoint => ({
  method: 'POST',
  route,
  auth: 'none',
  body: 'json',
  fields: {
    name: text(),
    email: text(),
    phone: text(),
    classTitle: match(),
    date: match({ bad: badDates }),
    waiver: { kind: 'boolean', required: true, bad: [false] },
    signature: match({ bad: ['data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQ', `data:image/png;base64,${'A'.repeat(300_000)}`] }),
    recaptchaToken: match(),
  },
  writes,
  example: async (fx) => {
    const { title, date } = await event(fx);
    return {
      json: {
        name: student.name,
        email: fx.email(student.tag),
        phone: '123-456-7890',
        classTitle: title,
        date,
        waiver: true,
        signature: SIGNATURE,
        recaptchaToken: student.recaptchaToken,
      },
    };
  },
});

export const FORMS_ENDPOINTS: Endpoint[] = [
  // --- visitors' forms ----------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/publicBookings/request',
    auth: 'none',
    body: 'json',
    fields: {
      name: text(),
      email: text(),
      phone: text(),
      sessionType: match(),
      message: optionalText(),
      captchaToken: match(),
    },
    writes: ['bookingRequests', 'mails'],
    example: async (fx) => ({
      json: {
        name: 'Mia Rossi',
        email: fx.email('meeting'),
        phone: '123-456-7890',
        sessionType: 'private yoga',
        message: 'I would like to start gently.',
        captchaToken: 'dev:book_request',
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/contact',
    auth: 'none',
    body: 'json',
    fields: { name: text(), email: text(), message: text(), recaptchaToken: match() },
    writes: ['contactMessages', 'mails'],
    example: async (fx) => ({
      json: { name: 'Mia Rossi', email: fx.email('contact'), message: 'Do you teach on Sundays?', recaptchaToken: 'dev:contact_form_submit' },
    }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/subscribe',
    auth: 'none',
    body: 'json',
    fields: { email: text() },
    writes: ['subscribers', 'mails'],
    example: async (fx) => ({ json: { email: fx.email('news') } }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/unsubscribe',
    auth: 'none',
    body: 'json',
    // {email} or {token}: the answer is the same whether or not the address was on the list.
    fields: { email: text({ role: 'lookup' }), token: optionalText({ role: 'match' }) },
    writes: ['subscribers'],
    example: async (fx) => ({ json: { email: (await fx.subscriber()).email } }),
  },
  {
    method: 'POST',
    route: '/api/subscribers/one-click',
    auth: 'none',
    body: 'urlencoded',
    fields: { token: match({ in: 'query' }) },
    writes: ['subscribers'],
    example: async (fx) => ({ query: { token: fx.unsubscribeToken((await fx.subscriber()).email) }, urlencoded: 'List-Unsubscribe=One-Click' }),
  },
  classForm('/api/signup', ['classSignups', 'mails'], (fx) => fx.event(), { name: 'Nora Novak', tag: 'student', recaptchaToken: 'dev:signup_form_submit' }),
  {
    method: 'POST',
    route: '/api/check-student',
    auth: 'none',
    body: 'json',
    fields: { email: text(), classTitle: match(), date: match({ bad: badDates }) },
    writes: ['classSignups', 'mails'],
    example: async (fx) => {
      const student = await fx.signup();
      const event = await fx.event();
      return { json: { email: student.email, classTitle: event.title, date: event.date } };
    },
  },
  // issue 15: giving a class place back, the waitlist
  byToken('GET', '/api/class-places', [], (fx) => fx.giveBackToken()),
  byToken('POST', '/api/class-places/cancel', ['classSignups', 'classWaitlist', 'mails'], (fx) => fx.giveBackToken()),
  classForm('/api/waitlist', ['classWaitlist', 'classSignups', 'mails'], (fx) => fx.fullClass(), {
    name: 'Wes Waiting',
    tag: 'waiting',
    recaptchaToken: 'dev:waitlist_form_submit',
  }),
  byToken('GET', '/api/waitlist/entry', [], (fx) => fx.leaveWaitlistToken()),
  byToken('POST', '/api/waitlist/leave', ['classWaitlist'], (fx) => fx.leaveWaitlistToken()),
  {
    method: 'GET',
    route: '/api/user/:id/classes',
    auth: 'user',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      await fx.signup(user.email);
      return { cookie: user.cookie, params: { id: user.id } };
    },
  },
  {
    method: 'POST',
    route: '/api/user/:id/classes/:signupId/cancel',
    auth: 'user',
    body: 'none',
    writes: ['classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { id: user.id, signupId: (await fx.signup(user.email)).id } };
    },
  },
  plainGet('/api/admin/waitlist', 'admin'),
];
