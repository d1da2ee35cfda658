import type { PageRevision } from '../../contract/content.ts';
import type { listRevisions } from './pages.repo.ts';

/** A page's or a post's revisions as the admin's history shows them (one shape for both). */
export const revisionViews = (revisions: Awaited<ReturnType<typeof listRevisions>>, publishedRevision: number | null): PageRevision[] =>
  revisions.map((r) => ({
    n: r.n,
    publishedAt: new Date(r.publishedAt).toISOString(),
    changed: r.changed,
    restoredFrom: r.restoredFrom,
    current: r.n === publishedRevision,
  }));
