/** The endpoint table's forms part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, SIGNATURE, text, optionalText, match, badDates, type Endpoint, type Fixtures, type Table, byToken } from './common.ts';
import { signToken } from '../../../api/lib/signed-token.ts';
import { FREE_MEETING_CANCEL_PURPOSE } from '../../../api/agenda/free-meeting-mails.ts';
import { DEFAULT_SETTINGS } from '../../../contract/settings.ts';
import type { FreeMeetingTimesView } from '../../../contract/free-meetings.ts';
import { itemAt } from '../guards.ts';

/** The home page's request as a visitor fills it in (SPEC.md section 3). */
const meetingRequest = (fx: Fixtures) => ({
  name: 'Mia Rossi',
  email: fx.email('meeting'),
  phone: '123-456-7890',
  sessionType: 'private yoga',
  message: 'I would like to start gently.',
  captchaToken: 'dev:book_request',
});

/** The request's fields (SPEC.md section 7), with or without a time. */
const meetingFields = () => ({
  name: text(),
  email: text(),
  phone: text(),
  sessionType: match(),
  message: optionalText(),
  captchaToken: match(),
});

/**
 * One of her free meeting times (issue 35), picked at random from many: her hours are widened to
 * every half hour of sixty days first, so the probes' bookings never run out of times.
 */
async function freeMeetingTime(fx: Fixtures): Promise<string> {
  const wide = JSON.stringify({ ...DEFAULT_SETTINGS.meetingHours, days: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '23:30', daysAhead: 60 });
  await fx.db
    .insertInto('settings')
    .values({ key: 'meetingHours', value: wide })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: wide }))
    .execute();
  const { times } = (await (await fx.server.api('/api/publicBookings/times')).json()) as FreeMeetingTimesView;
  return itemAt(times, Math.floor(Math.random() * times.length)).startsAt;
}

/** The cancel link's token of a free meeting booked far ahead, at a time no other fixture has. */
async function freeMeetingToken(fx: Fixtures): Promise<string> {
  const startsAt = new Date(Date.now() + 200 * 86_400_000 + Math.floor(Math.random() * 1e9));
  const row = await fx.db
    .insertInto('freeMeetings')
    .values({ startsAt, name: 'Mia Rossi', email: fx.email('meeting'), link: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return signToken(fx.server.env.APP_SECRET, FREE_MEETING_CANCEL_PURPOSE, row.id);
}

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
    fields: meetingFields(),
    writes: ['bookingRequests', 'mails'],
    example: async (fx) => ({ json: meetingRequest(fx) }),
  },
  // Issue 35: the free meeting scheduled: her free times, a time booked, its cancel link.
  plainGet('/api/publicBookings/times', 'none'),
  {
    method: 'POST',
    route: '/api/publicBookings',
    auth: 'none',
    body: 'json',
    fields: { ...meetingFields(), startsAt: optionalText({ role: 'match', bad: ['2031-01-01', 'tomorrow', '2031-01-01T09:10:00Z'] }) },
    // Without a time it is the request the spec has (bookingRequests).
    writes: ['freeMeetings', 'bookingRequests', 'mails'],
    example: async (fx) => ({ json: { ...meetingRequest(fx), startsAt: await freeMeetingTime(fx) } }),
  },
  byToken('GET', '/api/publicBookings/meeting', [], freeMeetingToken),
  byToken('POST', '/api/publicBookings/cancel', ['freeMeetings', 'mails'], freeMeetingToken),
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
