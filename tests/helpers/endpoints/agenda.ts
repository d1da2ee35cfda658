/** The endpoint table's agenda part (issue 35; tests/helpers/endpoints.ts holds the whole table, in order). */
import { match, optionalText, type Endpoint, type Fixtures } from './common.ts';

const badInstants = ['2031-03-03', '2031-03-03T17:00:00', 'noon', ''];

/** A busy time she typed, new each time. */
async function busyTime(fx: Fixtures): Promise<string> {
  const row = await fx.db
    .insertInto('busyTimes')
    .values({ startsAt: new Date('2031-03-04T01:00:00Z'), endsAt: new Date('2031-03-04T02:00:00Z'), title: fx.unique('Dentist'), source: 'manual' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const AGENDA_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    route: '/api/admin/agenda',
    auth: 'admin',
    body: 'none',
    fields: {
      from: match({ in: 'query', bad: ['2031-13-01', 'today'] }),
      to: match({ in: 'query', bad: ['2031-02-30'] }),
    },
    writes: [],
    example: async () => ({ query: { from: '2031-03-01', to: '2031-03-07' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/busy',
    auth: 'admin',
    body: 'json',
    fields: { start: match({ bad: badInstants }), end: match({ bad: badInstants }), title: optionalText() },
    writes: ['busyTimes'],
    example: async (fx) => ({ json: { start: '2031-03-03T17:00:00-08:00', end: '2031-03-03T18:00:00-08:00', title: fx.unique('Dentist') } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/busy/:id',
    auth: 'admin',
    body: 'none',
    writes: ['busyTimes'],
    example: async (fx) => ({ params: { id: await busyTime(fx) } }),
  },
];
