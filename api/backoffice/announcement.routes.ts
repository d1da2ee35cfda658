import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson } from '../validation.ts';
import { ANNOUNCEMENT_CLEARED, ANNOUNCEMENT_SAVED, announcementInput, type AnnouncementView } from '../../contract/backoffice.ts';
import { clearAnnouncement, findAnnouncement, liveAnnouncement, saveAnnouncement } from './announcement.repo.ts';

type Row = NonNullable<Awaited<ReturnType<typeof findAnnouncement>>>;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function view(r: Row): AnnouncementView {
  // The id a dismissal is remembered by: a new message or link shows again to those who closed the old one.
  const id = createHash('sha256')
    .update(`${r.message}\0${r.link ?? ''}`)
    .digest('base64url')
    .slice(0, 16);
  return { id, message: r.message, link: r.link, startsAt: iso(r.startsAt), endsAt: iso(r.endsAt) };
}

/**
 * GET /api/announcement: the live announcement, or null. Public and the same for everyone, so
 * browsers and proxies may keep it a little; a change shows within that time, no rebuild needed.
 */
export const announcement = new Hono<AppEnv>().get('/', async (c) => {
  const row = await liveAnnouncement(c.var.services.db, c.var.services.clock.now());
  c.header('cache-control', 'public, max-age=30');
  return c.json({ announcement: row ? view(row) : null });
});

/** GET and PUT /api/admin/announcement: what is set (live or not); an empty message removes it. */
export const adminAnnouncement = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const row = await findAnnouncement(c.var.services.db);
    return c.json({ announcement: row ? view(row) : null });
  })
  .put('/', validateJson(announcementInput), async (c) => {
    const { db } = c.var.services;
    const input = c.req.valid('json');
    if (!input.message) {
      await clearAnnouncement(db);
      return c.json({ message: ANNOUNCEMENT_CLEARED, announcement: null });
    }
    const row = await saveAnnouncement(db, input);
    return c.json({ message: ANNOUNCEMENT_SAVED, announcement: view(row) });
  });
