/** The endpoint table's backoffice part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { monthRange, plainGet, text, optionalText, type Endpoint } from './common.ts';
import { postalAddressSet } from './food-sales.ts';

export const BACKOFFICE_ENDPOINTS: Endpoint[] = [
  // --- the back office (issue 16) -----------------------------------------------------------
  plainGet('/api/announcement', 'none'),
  plainGet('/api/admin/announcement', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/announcement',
    auth: 'admin',
    body: 'json',
    // An empty message removes the announcement, so it is not "required".
    fields: {
      message: optionalText(),
      link: optionalText({ bad: ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/x'] }),
      startsAt: optionalText({ role: 'match', bad: ['tomorrow', '2031-01-01', '2031-01-01T10:00'] }),
      endsAt: optionalText({ role: 'match', bad: ['2000-01-01T00:00:00Z'] }),
    },
    writes: ['announcements'],
    example: async (fx) => ({
      json: {
        message: fx.unique('No classes over the holidays'),
        link: 'https://example.com/calendar',
        startsAt: '2020-01-01T00:00:00.000Z',
        endsAt: '2099-01-01T00:00:00.000Z',
      },
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/finances',
    auth: 'admin',
    body: 'none',
    // Without from and to: the current year (issue 24); one of them alone is refused.
    fields: monthRange(),
    writes: [],
    example: async () => ({ query: { from: '2025-01', to: '2025-12' } }),
  },
  { method: 'GET', route: '/api/admin/exports/:file', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { file: 'orders.csv' } }) },
  // Issue 20: the finances per month as CSV; without from and to, the last 12 months.
  {
    method: 'GET',
    route: '/api/admin/exports/finances.csv',
    auth: 'admin',
    body: 'none',
    fields: monthRange(),
    writes: [],
    example: async () => ({ query: { from: '2025-01', to: '2025-12' } }),
  },
  // Issue 20: the Today panel, and her settings.
  plainGet('/api/admin/today', 'admin'),
  plainGet('/api/admin/settings', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/settings',
    auth: 'admin',
    body: 'json',
    fields: {
      defaultPlace: optionalText({ inJson: true, bad: ['javascript://alert(1)', 'Room 1\nRoom 2'] }),
      bookingAmounts: { kind: 'any' },
    },
    writes: ['settings'],
    example: async (fx) => ({ json: { defaultPlace: fx.unique('Studio') } }),
  },
  // Issue 35: her own meeting room link.
  {
    method: 'PUT',
    route: '/api/admin/settings/meeting',
    auth: 'admin',
    body: 'json',
    // '' is hers to clear it with, so it is not probed as a refusal (a body without it is refused).
    fields: { roomUrl: optionalText({ inJson: true, bad: ['javascript://alert(1)', 'ftp://example.com/room', 'meet.example.com/room'] }) },
    writes: ['settings'],
    example: async (fx) => ({ json: { roomUrl: `https://meet.example.com/${fx.unique('room')}` } }),
  },
  plainGet('/api/admin/newsletters', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/newsletters',
    auth: 'admin',
    body: 'json',
    fields: { subject: text(), body: text() },
    writes: ['newsletters'],
    example: async (fx) => ({ json: { subject: fx.unique('Spring news'), body: '# Hello\n\nClasses **resume** on Monday.' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/newsletters/preview',
    auth: 'admin',
    body: 'json',
    // Rendered and answered, never stored.
    fields: { subject: text({ role: 'lookup' }), body: text({ role: 'lookup' }) },
    writes: [],
    example: async () => ({ json: { subject: 'Preview', body: '*Hello*' } }),
  },
  {
    method: 'GET',
    route: '/api/admin/newsletters/:id',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: await fx.newsletter() } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/newsletters/:id',
    auth: 'admin',
    body: 'json',
    fields: { subject: text(), body: text() },
    writes: ['newsletters'],
    example: async (fx) => ({ params: { id: await fx.newsletter() }, json: { subject: fx.unique('Summer news'), body: 'New words' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/newsletters/:id/test',
    auth: 'admin',
    body: 'none',
    writes: ['mails'],
    example: async (fx) => ({ params: { id: await fx.newsletter() } }),
  },
  // Last: should a server's sender be awake, it mails in the background only after every other endpoint's snapshots.
  {
    method: 'POST',
    route: '/api/admin/newsletters/:id/send',
    auth: 'admin',
    body: 'none',
    writes: ['newsletters', 'newsletterOutbox', 'mails'],
    okStatus: [202],
    example: async (fx) => {
      await Promise.all([fx.subscriber(), postalAddressSet(fx)]);
      return { params: { id: await fx.newsletter() } };
    },
  },
];
