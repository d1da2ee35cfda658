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

/** The status of a stored mark: the page at this address is to be made again when first asked for. */
export const STALE = 0;

/**
 * Marks `paths` of `buildId` stale (made again on request, api/pages/render-ahead.ts), each with
 * the next generation so every replica drops its copy; an address never rendered gets a mark too,
 * so a render drawn before this mark can't be stored over it (storeRenderIfStale).
 */
export async function markStale(db: DB, buildId: string, paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 1_000) {
    const rows = paths.slice(i, i + 1_000).map((path) => ({
      buildId,
      path,
      status: STALE,
      contentType: 'text/html; charset=utf-8',
      body: '',
      etag: '',
      generation: sql<string>`nextval('render_generation')`,
    }));
    await db
      .insertInto('renderedPages')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['buildId', 'path']).doUpdateSet({
          status: STALE,
          body: '',
          etag: '',
          generation: sql`nextval('render_generation')`,
          renderedAt: new Date(),
        }),
      )
      .execute();
  }
}

/**
 * Stores a page made on request only if its address is still as the maker saw it: stale with
 * generation `mark`, or (no mark) not stored at all. False when a newer render or mark came.
 */
export async function storeRenderIfStale(db: DB, buildId: string, page: RenderedPage, mark: string | undefined): Promise<boolean> {
  const { path, status, contentType, body, etag } = page;
  if (mark === undefined) {
    const row = await db
      .insertInto('renderedPages')
      .values({ buildId, path, status, contentType, body, etag, generation: sql`nextval('render_generation')` })
      .onConflict((oc) => oc.columns(['buildId', 'path']).doNothing())
      .returning('path')
      .executeTakeFirst();
    return row !== undefined;
  }
  const r = await db
    .updateTable('renderedPages')
    .set({ status, contentType, body, etag, generation: sql`nextval('render_generation')`, renderedAt: new Date() })
    .where('buildId', '=', buildId)
    .where('path', '=', path)
    .where('status', '=', STALE)
    .where(sql<boolean>`generation = ${mark}::bigint`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
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
