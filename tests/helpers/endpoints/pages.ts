/** The endpoint table's pages part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { plainGet, text, optionalText, match, type Endpoint } from './common.ts';
import { postalAddressSet } from './food-sales.ts';

export const PAGES_ENDPOINTS: Endpoint[] = [
  // --- her pages (issue 19) ------------------------------------------------------------------
  plainGet('/api/admin/images', 'admin'),
  plainGet('/api/admin/pages', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/pages',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text({ inJson: true }),
      description: text({ inJson: true }),
      brand: match({ bad: ['tea', 'YOGA'] }),
      sections: { kind: 'array', required: true, role: 'match', bad: [[], [{ markdown: '' }], [{ markdown: 'x', imageId: 'not-a-photo' }]] },
      slug: { kind: 'string', role: 'match', bad: ['Bad Slug!', 'admin', 'api', 'cart', '-x', 'a--b'] },
      inNavigation: { kind: 'boolean' },
      inFooter: { kind: 'boolean' },
    },
    writes: ['pages', 'pageRedirects'],
    example: async (fx) => ({
      json: {
        title: 'Chronic Pain Support',
        slug: fx
          .unique('chronic-pain')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
        description: 'Gentle yoga therapy for chronic pain.',
        brand: 'yoga',
        sections: [{ markdown: 'Breath first, then movement.' }],
        inNavigation: true,
        inFooter: false,
      },
    }),
  },
  { method: 'GET', route: '/api/admin/pages/:slug', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { slug: 'contact' } }) },
  {
    method: 'PUT',
    route: '/api/admin/pages/:slug',
    auth: 'admin',
    body: 'json',
    fields: { content: { kind: 'any', required: true }, version: { kind: 'number', required: true, role: 'match', bad: [-1, 1.5] } },
    writes: ['pages'],
    example: async (fx) => {
      const slug = await fx.customPage();
      const row = await fx.db.selectFrom('pages').select(['draft', 'draftVersion']).where('slug', '=', slug).executeTakeFirstOrThrow();
      return { params: { slug }, json: { content: { ...JSON.parse(row.draft), title: 'Chronic Pain, Gently' }, version: row.draftVersion } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/pages/:slug',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/publish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/unpublish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'renderedPages'],
    example: async (fx) => ({ params: { slug: await fx.customPage(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/rename',
    auth: 'admin',
    body: 'json',
    fields: { slug: match({ bad: ['Bad Slug!', 'admin', 'yoga', 'a--b'] }) },
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({
      params: { slug: await fx.customPage(true) },
      json: {
        slug: fx
          .unique('renamed')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
      },
    }),
  },
  { method: 'GET', route: '/api/admin/pages/:slug/revisions', auth: 'admin', body: 'none', writes: [], example: async () => ({ params: { slug: 'yoga' } }) },
  {
    method: 'POST',
    route: '/api/admin/pages/:slug/revisions/:n/restore',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'renderedPages'],
    example: async () => ({ params: { slug: 'contact', n: '1' } }),
  },
  // Without the built site (these tests) a preview can't be rendered: 503 with the reason.
  {
    method: 'GET',
    route: '/api/admin/pages/:slug/preview',
    auth: 'admin',
    body: 'none',
    writes: [],
    okStatus: [503],
    example: async () => ({ params: { slug: 'yoga' } }),
  },
];

export const JOURNAL_ENDPOINTS: Endpoint[] = [
  // --- her journal (issue 22) ------------------------------------------------------------------
  plainGet('/api/admin/posts', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/posts',
    auth: 'admin',
    body: 'json',
    fields: {
      title: text({ inJson: true }),
      body: text({ inJson: true }),
      brand: match({ bad: ['tea', 'YOGA'] }),
      slug: { kind: 'string', role: 'match', bad: ['Bad Slug!', 'a--b', '-x'] },
      tags: {
        kind: 'array',
        role: 'match',
        bad: [['!!!'], ['a'.repeat(31)], ['calm', 'calm'], ['Back pain', 'back-pain'], [''], Array.from({ length: 11 }, (_, i) => `t${i}`)],
      },
      coverImageId: { kind: 'string', role: 'match', bad: ['not-a-photo'] },
      coverAlt: optionalText({ inJson: true }),
      excerpt: optionalText({ inJson: true }),
      seoTitle: optionalText({ inJson: true }),
      seoDescription: optionalText({ inJson: true }),
      publishAt: { kind: 'string', role: 'match', bad: ['tomorrow', '2020-01-01T00:00:00Z', '2031-02-30T10:00:00Z'] },
    },
    writes: ['pages'],
    example: async (fx) => ({
      json: {
        title: 'Ten slow breaths',
        slug: fx
          .unique('ten-breaths')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
        body: 'Before the kettle, sit. **Breathe.**',
        brand: 'yoga',
        tags: ['breathwork'],
        excerpt: 'A morning practice.',
      },
    }),
  },
  { method: 'GET', route: '/api/admin/posts/:id', auth: 'admin', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.post() } }) },
  {
    method: 'PUT',
    route: '/api/admin/posts/:id',
    auth: 'admin',
    body: 'json',
    fields: { content: { kind: 'any', required: true }, version: { kind: 'number', role: 'match', bad: [-1, 1.5] } },
    writes: ['pages'],
    example: async (fx) => {
      const id = await fx.post();
      const row = await fx.db.selectFrom('pages').select(['draft', 'draftVersion']).where('slug', '=', `post/${id}`).executeTakeFirstOrThrow();
      return { params: { id }, json: { content: { ...JSON.parse(row.draft), title: 'Eleven slow breaths' }, version: row.draftVersion } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/posts/:id',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/publish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/schedule',
    auth: 'admin',
    body: 'json',
    // `at: null` cancels a schedule, so the field may be null: its other values are probed.
    fields: { at: { kind: 'string', role: 'match', bad: ['tomorrow', '2020-01-01T00:00:00Z', '2031-13-01T10:00:00Z'] } },
    writes: ['pages'],
    example: async (fx) => ({ params: { id: await fx.post() }, json: { at: new Date(Date.now() + 86_400_000).toISOString() } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/unpublish',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'GET',
    route: '/api/admin/posts/:id/revisions',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async (fx) => ({ params: { id: await fx.post(true) } }),
  },
  {
    method: 'POST',
    route: '/api/admin/posts/:id/revisions/:n/restore',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'pageRevisions', 'pageRedirects', 'renderedPages'],
    example: async (fx) => ({ params: { id: await fx.post(true), n: '1' } }),
  },
  // Without the built site (these tests) a preview can't be rendered: 503 with the reason.
  {
    method: 'GET',
    route: '/api/admin/posts/:id/preview',
    auth: 'admin',
    body: 'none',
    writes: [],
    okStatus: [503],
    example: async (fx) => ({ params: { id: await fx.post() } }),
  },
  // Reads an optional { full } (the excerpt by default): a body it can't read is taken as none.
  {
    method: 'POST',
    route: '/api/admin/posts/:id/newsletter',
    auth: 'admin',
    body: 'none',
    writes: ['pages', 'newsletters', 'newsletterOutbox'],
    okStatus: [202],
    example: async (fx) => ({ params: { id: await postalAddressSet(fx).then(() => fx.post(true)) } }),
  },
];
