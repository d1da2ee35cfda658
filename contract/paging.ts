/**
 * One way to page an admin list (issue 36, decision 0046): keyset pages in the list's own order,
 * at most MAX_PAGE_SIZE rows an answer, a search `q` and each list's own filters. The body stays
 * what SPEC.md says (an array where it says a list); the next page's cursor travels in a header
 * (X-Next-Cursor, and a Link rel="next" with the whole address), absent on the last page. The
 * cursor is opaque to the browser: it sends back what it was given.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';

export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** The header that carries the next page's cursor (lower case: how fetch's Headers reads it). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export const LIMIT_INVALID = `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;
export const CURSOR_INVALID = 'This cursor is not one the list gave: load the list again from its first page';
export const SEARCH_TOO_LONG = 'Search for at most 100 characters';
export const SEARCH_UNREADABLE = 'Search with letters, digits and punctuation only';

/** What a key of a cursor holds: an instant (microseconds kept), a day (YYYY-MM-DD), an id (a row key such as a post's `post/<uuid>`). */
export type CursorKey = 'instant' | 'day' | 'id';

const KEY_PATTERNS: Record<CursorKey, RegExp> = {
  instant: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  day: /^\d{4}-\d{2}-\d{2}$/,
  id: /^[\w/-]{1,100}$/,
};

const toBase64Url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (s: string) => atob(s.replace(/-/g, '+').replace(/_/g, '/'));

/** The cursor of a page's last row: its sort keys, in the list's order. */
export const encodeCursor = (keys: readonly string[]): string => toBase64Url(JSON.stringify(keys));

/** The sort keys a cursor holds when they are of the kinds `shape` says, else null. */
export function decodeCursor(cursor: string, shape: readonly CursorKey[]): string[] | null {
  let keys: unknown;
  try {
    keys = JSON.parse(fromBase64Url(cursor));
  } catch {
    return null;
  }
  if (!Array.isArray(keys) || keys.length !== shape.length) return null;
  return keys.every((k, i) => typeof k === 'string' && KEY_PATTERNS[shape[i]!].test(k)) ? (keys as string[]) : null;
}

/**
 * The paging part of an admin list's query: `limit` (PAGE_SIZE when absent), `cursor` (decoded
 * to the keys of the list's order, `shape`) and `q` (trimmed; empty is no search).
 */
export const pageQuery = (shape: readonly CursorKey[]) =>
  z.object({
    limit: z
      .string()
      .regex(/^\d{1,3}$/, { error: LIMIT_INVALID })
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, { error: LIMIT_INVALID })
      .default(PAGE_SIZE),
    cursor: z
      .string()
      .max(1000, { error: CURSOR_INVALID })
      .transform((c, ctx) => {
        const keys = decodeCursor(c, shape);
        if (!keys) ctx.addIssue({ code: 'custom', message: CURSOR_INVALID });
        return keys ?? [];
      })
      .optional(),
    q: z
      .string()
      .max(100, { error: SEARCH_TOO_LONG })
      // A control character (NUL) or a lone surrogate is no word anyone looks for, and PostgreSQL refuses it.
      .refine(isCleanText, { error: SEARCH_UNREADABLE })
      .transform((s) => s.trim() || undefined)
      .optional(),
  });

export type PageQuery = z.output<ReturnType<typeof pageQuery>>;

/** A list's `since` filter (the Today panel's "new since" links): an ISO instant. */
export const sinceFilter = z.iso.datetime({ offset: true, error: 'Since must be an ISO date and time' }).optional();

/** The address of a list's page: its path (with a query or not), its filters and search, and the cursor (the first page without). */
export function pageAddress(path: string, params: Record<string, string | number | undefined>, cursor?: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  if (cursor) q.set('cursor', cursor);
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}
