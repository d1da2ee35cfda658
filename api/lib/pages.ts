/**
 * The server's half of an admin list's pages (issue 36, decision 0046; contract/paging.ts is the
 * shared half): a repo reads one row more than the page, and this cuts the page and says where
 * the next one starts, in the X-Next-Cursor and Link headers, so the body stays the list SPEC.md
 * names. The SQL of the keyset and the search is lib/pages.repo.ts's.
 */
import type { Context } from 'hono';
import { encodeCursor, NEXT_CURSOR_HEADER } from '../../contract/paging.ts';

/** A page of `limit` rows from `limit + 1` read, and the cursor of its last row when more follow. */
export function pageOf<R>(rows: readonly R[], limit: number, keysOf: (row: R) => string[]): { rows: R[]; next: string | null } {
  if (rows.length <= limit) return { rows: [...rows], next: null };
  const page = rows.slice(0, limit);
  return { rows: page, next: encodeCursor(keysOf(page.at(-1)!)) };
}

/** The next page's address: this request's, its cursor replaced. */
export function nextPageAddress(c: Context, next: string): string {
  const url = new URL(c.req.url);
  url.searchParams.set('cursor', next);
  return `${url.pathname}${url.search}`;
}

/** Says where the next page starts (nothing on the last page). */
export function announceNextPage(c: Context, next: string | null): void {
  if (next === null) return;
  c.header(NEXT_CURSOR_HEADER, next);
  c.header('link', `<${nextPageAddress(c, next)}>; rel="next"`);
}

/** Answers a page of `rows` (read one more than `limit`) as the list's JSON array, and says where the next starts. */
export function answerPage<R, V>(c: Context, rows: readonly R[], limit: number, keysOf: (row: R) => string[], view: (row: R) => V) {
  const page = pageOf(rows, limit, keysOf);
  announceNextPage(c, page.next);
  return c.json(page.rows.map(view));
}
