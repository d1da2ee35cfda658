/**
 * The SQL every paged admin list shares (issue 36, decision 0046): the keyset condition that
 * continues after a page's last row, the cursor's text of an instant, and the search `q`.
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { CursorKey } from '../../contract/paging.ts';

const CAST: Record<CursorKey, string> = { instant: 'timestamptz', day: 'text', id: 'text' };

const keyOf = (k: ListKeys[number]) => (typeof k.column === 'string' ? sql.ref(k.column) : k.column);

/**
 * The rows after `keys` in the order `columns` sort by, all in `direction`: one row comparison,
 * which a b-tree index on the same columns answers by seeking (never an OFFSET that reads what it
 * skips). Ties on the first keys are broken by the last, the id, so no row is met twice or missed.
 */
export function afterKeys(columns: ListKeys, keys: readonly string[], direction: 'asc' | 'desc'): Expression<SqlBool> {
  const left = sql.join(columns.map(keyOf));
  const right = sql.join(columns.map((c, i) => sql`cast(${keys[i]} as ${sql.raw(CAST[c.kind])})`));
  return direction === 'desc' ? sql<SqlBool>`(${left}) < (${right})` : sql<SqlBool>`(${left}) > (${right})`;
}

/**
 * An instant as a cursor holds it: UTC with its microseconds, so a row sharing the millisecond
 * of the page's last row is neither skipped nor repeated (a JavaScript Date keeps milliseconds).
 */
export const instantKey = (column: string | RawBuilder<unknown>) =>
  sql<string>`to_char(${typeof column === 'string' ? sql.ref(column) : column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** LIKE's wildcards in a person's words are letters to find. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Accented Latin letters, both cases, and (below) the plain lower-case letter each is searched as. */
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåĀāĂăĄąÇçĆćČčĎďĐđÈÉÊËèéêëĒēĖėĘęĚěÌÍÎÏìíîïĪīĮįİıĹĺĽľŁłÑñŃńŇňÒÓÔÕÖØòóôõöøŌōŐőŔŕŘřŚśŞşŠšŢţŤťÙÚÛÜùúûüŪūŮůŰűŲųÝýÿŸŹźŻżŽž';
/** Letters NFD does not split into a letter and a mark. */
const UNSPLIT: Readonly<Record<string, string>> = { Đ: 'd', đ: 'd', ı: 'i', Ł: 'l', ł: 'l', Ø: 'o', ø: 'o' };
const PLAIN = [...ACCENTED].map((c) => UNSPLIT[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()).join('');
const FOLDED = new Map([...ACCENTED].map((c, i) => [c, PLAIN[i]!]));

/** A person's word as the search compares it: lower case, accents off (as the column, by foldColumn). */
export const foldWord = (w: string) =>
  [...w.normalize('NFC').toLowerCase()]
    .map((c) => FOLDED.get(c) ?? c)
    .join('')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');

/**
 * A column as the search compares it. PostgreSQL's lower() and ilike change only ASCII letters
 * under the C locale (PGlite's), and the lists' search ignored accents and case when it ran in the
 * browser before issue 36 ("jose" found José): translate() takes each accented letter to its
 * plain lower-case one.
 */
const foldColumn = (column: string) => sql`translate(lower(${sql.ref(column)}), ${ACCENTED}, ${PLAIN})`;

/**
 * The search `q`: every word found (any case, accents or none) in one of `columns`. It filters the
 * list's ordered index scan, which stops at the page's end; a rare word reads further, bounded by the table.
 */
export function matchesWords<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, q: string, columns: readonly string[]): Expression<SqlBool> {
  const words = q.split(/\s+/).filter(Boolean).slice(0, 8).map(foldWord);
  return eb.and(words.map((w) => eb.or(columns.map((c) => sql<SqlBool>`${foldColumn(c)} like ${`%${escapeLike(w)}%`}`))));
}

/**
 * A list's order, as its cursor holds it: the sort columns, the id last. A key may be an
 * expression (`sql`), when the list's index is on one (the journal's date of a post or a draft).
 */
export type ListKeys = readonly { column: string | RawBuilder<unknown>; kind: CursorKey }[];

/** The order most lists page in: an instant (created_at, starts_at), then the id. */
export const instantThenId = (instant: string, id: string): ListKeys => [
  { column: instant, kind: 'instant' },
  { column: id, kind: 'id' },
];

/**
 * One page of a list's query: its rows after the cursor's keys in the order `keys` say, `q`
 * found in `searched` (when given), one row more than `limit` so the caller knows whether
 * another page follows (api/lib/pages.ts pageOf).
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  page: { limit: number; after?: string[] | undefined; q?: string | undefined },
  keys: ListKeys,
  direction: 'asc' | 'desc',
  searched: readonly string[] = [],
): SelectQueryBuilder<DB, TB, O> {
  let paged = page.after === undefined ? qb : qb.where(afterKeys(keys, page.after, direction));
  const { q } = page;
  if (q !== undefined && searched.length > 0) paged = paged.where((eb) => matchesWords(eb, q, searched));
  for (const k of keys) paged = paged.orderBy(keyOf(k), direction);
  return paged.limit(page.limit + 1);
}
