/** The endpoint table's accounts part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { pagedList, sinceField, plainGet, ownRoute, text, ERASE_WRITES, optionalText, match, type Endpoint, byToken } from './common.ts';

export const ADMIN_SESSION_AND_CLIENTS_ENDPOINTS: Endpoint[] = [
  // --- the admin's session, clients and lists ------------------------------------------------
  {
    method: 'POST',
    route: '/api/admin/login',
    auth: 'none',
    body: 'json',
    fields: { email: match(), password: match(), recaptchaToken: match() },
    writes: ['adminSessions'],
    example: async (fx) => ({ json: { email: fx.server.env.ADMIN_EMAIL, password: fx.server.env.ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' } }),
  },
  plainGet('/api/admin/verify', 'admin'),
  { method: 'POST', route: '/api/admin/refresh-token', auth: 'admin', body: 'none', writes: ['adminSessions'], example: async () => ({}) },
  { method: 'POST', route: '/api/admin/logout', auth: 'none', body: 'none', writes: ['adminSessions'], example: async () => ({}) },
  pagedList('/api/admin/users', { since: sinceField() }),
  {
    method: 'DELETE',
    route: '/api/admin/users/:id',
    auth: 'admin',
    body: 'none',
    // The Clients list's Delete is the whole erasure (issue 29), not the user row alone.
    writes: ERASE_WRITES,
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
  plainGet('/api/admin/subscribers', 'admin'),
  {
    method: 'DELETE',
    route: '/api/admin/subscribers/:id',
    auth: 'admin',
    body: 'none',
    writes: ['subscribers'],
    example: async (fx) => ({ params: { id: (await fx.subscriber()).id } }),
  },
  pagedList('/api/admin/signups', { since: sinceField() }),
  plainGet('/api/admin/signups/taken', 'admin'),
  {
    method: 'GET',
    route: '/api/admin/signups/:id/signature',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: (await fx.signup()).id } }),
  },
  {
    method: 'DELETE',
    route: '/api/signup/:id',
    auth: 'admin',
    body: 'none',
    // A freed place goes to the first on the waitlist, who is mailed (issue 15).
    writes: ['classSignups', 'classWaitlist', 'mails'],
    example: async (fx) => ({ params: { id: (await fx.signup()).id } }),
  },
];

export const CLIENT_ACCOUNTS_ENDPOINTS: Endpoint[] = [
  // --- client accounts -----------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/user/register',
    auth: 'none',
    body: 'json',
    fields: { firstName: text(), lastName: text(), email: text(), recaptchaToken: text() },
    writes: ['users', 'loginTokens', 'mails'],
    example: async (fx) => ({ json: { firstName: 'Vera', lastName: 'Link', email: fx.email('register'), recaptchaToken: 'dev:register' } }),
  },
  byToken('POST', '/api/user/verify-email', ['users', 'userSessions', 'loginTokens'], async (fx) => fx.loginToken((await fx.user()).id, 'verify_email')),
  {
    method: 'POST',
    route: '/api/user/login',
    auth: 'none',
    body: 'json',
    fields: { email: text() },
    writes: ['loginTokens', 'mails'],
    example: async (fx) => ({ json: { email: (await fx.user()).email } }),
  },
  byToken('POST', '/api/user/verify-login', ['users', 'userSessions', 'loginTokens'], async (fx) => fx.loginToken((await fx.user()).id, 'login')),
  // SPEC.md section 7 sends {token}; it is ignored, the cookie decides.
  {
    method: 'POST',
    route: '/api/user/validate-token',
    auth: 'user',
    body: 'none',
    writes: ['userSessions'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie }),
  },
  {
    method: 'POST',
    route: '/api/user/refresh-token',
    auth: 'user',
    body: 'none',
    writes: ['userSessions'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie }),
  },
  { method: 'POST', route: '/api/user/logout', auth: 'none', body: 'none', writes: ['userSessions'], example: async () => ({}) },
  // Google sign-in is off in tests (no GOOGLE_CLIENT_ID): 404 with a message.
  { method: 'GET', route: '/api/user/auth/google', auth: 'none', body: 'none', writes: [], okStatus: [404], example: async () => ({}) },
  // A browser navigation: every failure is a redirect to /login, never an error page.
  {
    method: 'GET',
    route: '/api/user/auth/google/callback',
    auth: 'none',
    body: 'none',
    fields: { code: match({ in: 'query' }), state: match({ in: 'query' }) },
    writes: ['users', 'userSessions'],
    okStatus: [302],
    example: async () => ({ query: { code: '4/0AbCdEf', state: 'state-123' } }),
  },
  // Issue 15: a client changes their own session; the private calendar feed.
  {
    method: 'POST',
    route: '/api/bookings/:slotId/cancel',
    auth: 'user',
    body: 'none',
    writes: ['slots', 'bookingCancellations', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { slotId: await fx.bookedSlot(user.id) } };
    },
  },
  {
    method: 'POST',
    route: '/api/bookings/:slotId/reschedule',
    auth: 'user',
    body: 'json',
    fields: { toSlotId: match() },
    writes: ['slots', 'paymentAttempts', 'mails'],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, params: { slotId: await fx.bookedSlot(user.id) }, json: { toSlotId: (await fx.slot()).id } };
    },
  },
  ownRoute('GET', '/api/user/:id/calendar-feed', []),
  ownRoute('POST', '/api/user/:id/calendar-feed', ['users']),
  {
    method: 'GET',
    route: '/api/calendar/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      const secret = `${fx.unique('feed').replace(/[^A-Za-z0-9]/g, '')}${'x'.repeat(43)}`.slice(0, 43);
      await fx.db.updateTable('users').set({ calendarSecret: secret }).where('id', '=', user.id).execute();
      return { params: { file: `${secret}.ics` } };
    },
  },
  ownRoute('GET', '/api/user/:id', []),
  {
    method: 'PUT',
    route: '/api/user/:id/update',
    auth: 'user',
    body: 'json',
    fields: {
      firstName: text(),
      lastName: text(),
      phone: optionalText({ bad: ['12345678901', '+1 555', 'abc'] }),
      preferredName: optionalText(),
      pronoun: optionalText(),
      city: optionalText(),
      zipcode: optionalText({ bad: ['123456', '12a45'] }),
    },
    writes: ['users'],
    example: async (fx) => {
      const user = await fx.user();
      return {
        cookie: user.cookie,
        params: { id: user.id },
        json: { firstName: 'Ana', lastName: 'Lima', phone: '5551234567', preferredName: 'Annie', pronoun: 'she/her', city: 'Oakland, CA', zipcode: '94607' },
      };
    },
  },
];
