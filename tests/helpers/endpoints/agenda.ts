/** The endpoint table's agenda part (issue 35; tests/helpers/endpoints.ts holds the whole table, in order). */
import { Fixtures, optionalText, type Endpoint } from './common.ts';

const badInstants = ['tomorrow', '2031-02-30T10:00:00Z', '2031-01-01 10:00', '2031-01-01T10:00:00', ''];

/** A busy time she typed, new each time (a day of its own, far ahead). */
async function busyTime(fx: Fixtures): Promise<string> {
  const startsAt = new Date(Date.UTC(2031, 0, 1) + Number(fx.unique('b').split('-').pop()) * 86_400_000);
  const row = await fx.db
    .insertInto('busyTimes')
    .values({ startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000), title: 'Dentist', source: 'manual' })
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
      from: { kind: 'string', required: true, role: 'lookup', in: 'query', bad: ['tomorrow', '2031-02-30', ''] },
      to: { kind: 'string', required: true, role: 'lookup', in: 'query', bad: ['next week', '2031-13-01', '2030-12-01', '2033-01-01'] },
    },
    writes: [],
    example: async () => ({ query: { from: '2031-01-01', to: '2031-01-07' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/busy',
    auth: 'admin',
    body: 'json',
    fields: {
      start: { kind: 'string', required: true, role: 'lookup', bad: badInstants },
      end: { kind: 'string', required: true, role: 'lookup', bad: [...badInstants, '2031-01-01T09:00:00Z', '2031-03-01T10:00:00Z'] },
      title: optionalText({ bad: ['x'.repeat(201)] }),
    },
    writes: ['busyTimes'],
    example: async () => ({ json: { start: '2031-01-01T10:00:00Z', end: '2031-01-01T11:00:00Z', title: 'Dentist' } }),
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
