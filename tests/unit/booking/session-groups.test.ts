/** Issue 32: My Bookings shows a weekly series' sessions together, where its first one falls. */
import { describe, expect, it } from 'vitest';
import { groupBySeries } from '../../../site/islands/client/sessionGroups.ts';
import type { ClientSessionView } from '../../../contract/slots.ts';

const session = (id: string, seriesId?: string): ClientSessionView => ({
  _id: id,
  date: '2027-01-05',
  time: '10:00',
  startsAt: '2027-01-05T18:00:00.000Z',
  place: '',
  online: false,
  sessionType: 'Individual Yoga Session (60 min)',
  duration: '60 mins',
  link: '',
  isPast: false,
  ...(seriesId ? { seriesId } : {}),
});

describe('groupBySeries', () => {
  it('gathers a series where its first session falls, keeps singles alone and in order', () => {
    const groups = groupBySeries([session('a', 's1'), session('b'), session('c', 's1'), session('d', 's2'), session('e', 's1')]);
    expect(groups.map((g) => (g.kind === 'single' ? g.session._id : `${g.seriesId}:${g.sessions.map((s) => s._id).join('')}`))).toEqual(['s1:ace', 'b', 'd']);
  });
});
