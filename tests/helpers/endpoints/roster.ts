/** The endpoint table's roster part (issue 34; tests/helpers/endpoints.ts holds the whole table, in order). */
import { SIGNATURE, aboutClient, match, optionalText, text, type Endpoint, type Fixtures } from './common.ts';

/** A new event's id and the id of a sign-up of it. */
async function signupOfEvent(fx: Fixtures) {
  const { id, eventId } = await fx.signup(fx.email('roster'));
  return { eventId, signupId: id };
}

export const ROSTER_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    route: '/api/admin/events/:id/roster',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: (await signupOfEvent(fx)).eventId } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/events/:id/attendance',
    auth: 'admin',
    body: 'json',
    fields: { signupId: match(), status: match({ bad: ['absent', 'PRESENT', 'no-show', ''] }) },
    writes: ['classSignups'],
    example: async (fx) => {
      const { eventId, signupId } = await signupOfEvent(fx);
      return { params: { id: eventId }, json: { signupId, status: 'present' } };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/events/:id/walk-ins',
    auth: 'admin',
    body: 'json',
    fields: {
      name: text(),
      email: text(),
      phone: optionalText(),
      signature: optionalText({
        role: 'match',
        bad: ['data:image/png;base64,AAAA', 'data:image/jpeg;base64,/9j/4AAQ', `data:image/png;base64,${'A'.repeat(300_000)}`],
      }),
    },
    writes: ['classSignups'],
    example: async (fx) => ({
      params: { id: (await fx.event()).id },
      json: { name: 'Walter Walkin', email: fx.email('walk-in'), phone: '123-456-7890', signature: SIGNATURE },
    }),
  },
  aboutClient('GET', '/api/admin/users/:id/classes', []),
];
