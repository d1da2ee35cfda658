/**
 * The pages made ahead of the request, per build (api/pages/render-ahead.ts, decision 0020):
 * each stored render takes the next number of the render_generation sequence, so a replica asks
 * for the rows newer than the last it has seen.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

export interface RenderedPage {
  path: string;
  status: number;
  contentType: string;
  body: string;
  etag: string;
}

/** The renders of `buildId` newer than generation `seen`, oldest first, each with its generation as text. */
export async function rendersNewerThan(db: DB, buildId: string, seen: string) {
  return db
    .selectFrom('renderedPages')
    .select(['path', 'status', 'contentType', 'body', 'etag', sql<string>`generation::text`.as('gen')])
    .where('buildId', '=', buildId)
    .where(sql<boolean>`generation > ${seen}::bigint`)
    .orderBy('generation')
    .execute();
}

/** Stores the render of `page.path` for `buildId` (a new one or over the old) with the next generation. */
export async function storeRender(db: DB, buildId: string, page: RenderedPage): Promise<void> {
  const { path, status, contentType, body, etag } = page;
  await db
    .insertInto('renderedPages')
    .values({ buildId, path, status, contentType, body, etag, generation: sql`nextval('render_generation')` })
    .onConflict((oc) =>
      oc.columns(['buildId', 'path']).doUpdateSet({
        status,
        contentType,
        body,
        etag,
        generation: sql`nextval('render_generation')`,
        renderedAt: new Date(),
      }),
    )
    .execute();
}

/** Gives every address of `buildId` that answers 404 (but the 404 page's own, `notFoundPath`) the body `body`. */
export async function restampNotFound(db: DB, buildId: string, notFoundPath: string, body: string, etag: string): Promise<void> {
  await db
    .updateTable('renderedPages')
    .set({ body, etag, generation: sql`nextval('render_generation')`, renderedAt: new Date() })
    .where('buildId', '=', buildId)
    .where('status', '=', 404)
    .where('path', '!=', notFoundPath)
    .execute();
}

/** The addresses under /blog/ that `buildId` serves with a page or a redirect (not a 404). */
export async function servedJournalRenders(db: DB, buildId: string) {
  return db
    .selectFrom('renderedPages')
    .select(['path', 'status'])
    .where('buildId', '=', buildId)
    .where('path', 'like', '/blog/%')
    .where('status', '!=', 404)
    .execute();
}

/** Deletes the renders of `paths` for `buildId`; the paths deleted. */
export async function deleteRenders(db: DB, buildId: string, paths: readonly string[]) {
  return db.deleteFrom('renderedPages').where('buildId', '=', buildId).where('path', 'in', paths).returning('path').execute();
}

/** The addresses of `buildId` that answer 301 to `location`. */
export async function redirectsTo(db: DB, buildId: string, location: string) {
  return db.selectFrom('renderedPages').select('path').where('buildId', '=', buildId).where('status', '=', 301).where('body', '=', location).execute();
}
