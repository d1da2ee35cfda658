/**
 * Small pieces the admin sections share: the table (cards on a phone), months and search for long
 * lists, a list loaded with the admin session (whole, or a page at a time: usePagedList, ShowMore), the "Are you sure?" deletion, the modal dialog and
 * the date formats.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { trapDialogFocus } from '../../scripts/dialog-focus';
import { readListFilter, type ListFilter } from '../../../contract/admin-links.ts';
import { NEXT_CURSOR_HEADER, pageAddress } from '../../../contract/paging.ts';
import { documentClock } from '../../lib/clock';
import { todayIn } from '../../lib/calendar';
import { Listing } from '../Listing';

/** SPEC.md section 9: admin user times are shown in the teacher's zone; this until the server says which (SITE_TIMEZONE). */
export const ADMIN_TIME_ZONE = 'America/Los_Angeles';

// Her zone from the clock the page was drawn with (site/lib/clock.ts); the shell confirms it.
let zone = documentClock()?.zone ?? ADMIN_TIME_ZONE;

/** Her today, YYYY-MM-DD on her clocks (a gig's default date, this month, this tax year). */
export const herToday = (): string => todayIn(zone, new Date());

/** Her zone (SITE_TIMEZONE): what her Week reads days in and makes instants of her times in. */
export const herZone = (): string => zone;

/** The shell sets her zone from GET /api/config/public; an unknown zone keeps the default. */
export function setAdminZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    zone = timeZone;
  } catch {
    // An unknown zone would throw on every date: keep the one that works.
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, d: Date): Record<string, string> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    formatters.set(timeZone, f);
  }
  return Object.fromEntries(f.formatToParts(d).map((p) => [p.type, p.value]));
}

/** "Fri, Dec 18", with the year only when it is not this year (on her clocks). */
function dayLabel(p: Record<string, string>, now: Record<string, string>): string {
  return `${p.weekday}, ${p.month} ${p.day}${p.year === now.year ? '' : `, ${p.year}`}`;
}

/**
 * An instant as she reads it (issue 20), on her clocks: "Fri, Dec 18 · 7:30 PM"; the year shows
 * when it is not this year ("Tue, Nov 24, 2025 · 10:00 AM"). The hour and AM/PM never part.
 */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = partsIn(zone, d);
  return `${dayLabel(p, partsIn(zone, new Date()))} · ${p.hour}:${p.minute}\u00a0${p.dayPeriod}`;
}

/** An instant's time of day on her clocks: "7:30 PM" (the end of a span formatWhen began). */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = partsIn(zone, d);
  return `${p.hour}:${p.minute}\u00a0${p.dayPeriod}`;
}

/** A span on her clocks: "Tue, Dec 1 · 6:00 PM–7:00 PM" (an agenda item, what a new thing overlaps). */
export const formatSpan = (start: string, end: string) => `${formatWhen(start)}–${formatClock(end)}`;

/** The Pages editor's name for formatWhen: one date format across the admin. */
export const formatLosAngeles = formatWhen;

/** A calendar date (YYYY-MM-DD, already hers) as "Fri, Dec 18"; with a time (HH:mm), "Fri, Dec 18 · 7:30 PM". */
export function formatDay(date: string, time?: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return time ? `${date} ${time}` : date;
  const day = dayLabel(partsIn('UTC', d), partsIn(zone, new Date()));
  return time ? `${day} · ${formatTime(time)}` : day;
}

/** A wall-clock time (HH:mm) as "7:30 PM". */
export function formatTime(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  if (!Number.isFinite(h) || !Number.isFinite(m)) return time;
  return `${h % 12 || 12}:${String(m).padStart(2, '0')}\u00a0${h < 12 ? 'AM' : 'PM'}`;
}

/** YYYY-MM of an instant on her clocks (the month a list groups it under). */
export function monthOfInstant(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);
}

/** "2026-12" -> "December 2026". */
export function monthName(month: string): string {
  const d = new Date(`${month}-15T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? month : new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(d);
}

export interface MonthGroup<T> {
  /** YYYY-MM */
  key: string;
  label: string;
  items: T[];
}

/** A sorted list cut into its months, in the list's own order (the API sorts; this only cuts). */
export function byMonth<T>(items: readonly T[], monthOf: (item: T) => string): MonthGroup<T>[] {
  const groups: MonthGroup<T>[] = [];
  for (const item of items) {
    const key = monthOf(item);
    const last = groups.at(-1);
    if (last && last.key === key) last.items.push(item);
    else groups.push({ key, label: monthName(key), items: [item] });
  }
  return groups;
}

/** Whether every word of the query is in one of the fields: any case, any accents ("jose" finds "José"). */
export function matchesSearch(query: string, ...fields: (string | null | undefined)[]): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold(fields.filter(Boolean).join(' '));
  return words.every((w) => haystack.includes(w));
}

/**
 * The search above a long list; it answers as she types: in the browser over the whole list
 * (`total`), or, over a paged list (issue 36), by asking the server again, whose answer says
 * whether more follow (`more`).
 */
export function SearchField(props: { label: string; value: string; onChange: (value: string) => void; shown: number; total?: number; more?: boolean }) {
  const id = useId();
  const count =
    props.total === undefined
      ? `${props.shown} shown${props.more ? ', more below' : ''}`
      : props.value.trim()
        ? `${props.shown} of ${props.total} shown`
        : `${props.total} in all`;
  return (
    <div className="field admin-search" role="search" aria-label={props.label}>
      <label htmlFor={id}>{props.label}</label>
      <input id={id} type="search" value={props.value} autoComplete="off" enterKeyHint="search" onChange={(e) => props.onChange(e.target.value)} />
      <p className="muted admin-search-count" aria-live="polite">
        {count}
      </p>
    </div>
  );
}

/** The button under a paged list (issue 36): the next page, drawn below what she has. */
export function ShowMore(props: { more: boolean; loading: boolean; onMore: () => void; what: string }) {
  if (!props.more) return null;
  return (
    <p className="show-more">
      <button className="button button-quiet show-more-button" type="button" disabled={props.loading} aria-busy={props.loading} onClick={props.onMore}>
        Show more<span className="sr-only"> {props.what}</span>
      </button>
    </p>
  );
}

/** The filter in the page's address (a Today link, contract/admin-links.ts), read once. */
export function useListFilter(): ListFilter {
  const [filter] = useState(() => (typeof window === 'undefined' ? {} : readListFilter(window.location.search)));
  return filter;
}

/** "2026-12" as a number of months, to measure how far apart two months are. */
const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7));

/**
 * Which months of a long list open (issue 30): the month she is in (herToday()), or the list's
 * nearest to it when it has none; the month of the focused row; and any in `also` (what she just
 * added). `all` opens every month (a list narrowed to a few days by a Today link).
 */
export function openMonths<T>(
  groups: readonly MonthGroup<T>[],
  opts: { focused?: (item: T) => boolean; also?: Iterable<string>; all?: boolean } = {},
): Set<string> {
  const open = new Set<string>(opts.also ?? []);
  if (opts.all) for (const g of groups) open.add(g.key);
  const now = monthIndex(herToday());
  let nearest: MonthGroup<T> | undefined;
  for (const g of groups) if (!nearest || Math.abs(monthIndex(g.key) - now) < Math.abs(monthIndex(nearest.key) - now)) nearest = g;
  if (nearest) open.add(nearest.key);
  if (opts.focused) for (const g of groups) if (g.items.some(opts.focused)) open.add(g.key);
  return open;
}

/**
 * A long list cut into months, each a fold (details/summary) with its count; `open` says which
 * are open when drawn (openMonths), and she opens or closes the rest. `units` names what a month
 * holds, one and many (["session", "sessions"]), for the count.
 */
export function MonthFolds<T>(props: {
  groups: readonly MonthGroup<T>[];
  open: ReadonlySet<string>;
  units: readonly [string, string];
  children: (group: MonthGroup<T>) => ReactNode;
}) {
  return (
    <div className="month-folds">
      {props.groups.map((g) => (
        <details key={g.key} className="month-fold" data-month={g.key} open={props.open.has(g.key)}>
          <summary>
            <span className="month-fold-name">{g.label}</span>{' '}
            <span className="month-fold-count">
              {g.items.length} {props.units[g.items.length === 1 ? 0 : 1]}
            </span>
          </summary>
          {props.children(g)}
        </details>
      ))}
    </div>
  );
}

/** What marks the focused row (data-focus-id finds it; aria-current and a focus stop on the one focused). */
export interface FocusRowProps {
  'data-focus-id': string;
  'aria-current'?: 'true';
  tabIndex?: number;
}

/**
 * The row a Today item opens (issue 30, `?focus=<id>`: adminLinks.item). Once `ready` (the lists
 * she sees above and around it are drawn), the row is scrolled to the top of the screen below the
 * bar, marked (aria-current, admin.css) and focused for a screen reader. Until she touches, scrolls
 * or types, a change of the page's height (a list above that arrives later, a font) scrolls it
 * back into place: no timers, the page's own layout says when. `rowProps(id)` goes on each row.
 */
export function useFocusRow(ready: boolean) {
  const { focus } = useListFilter();
  const done = useRef(false);
  const stopFollowing = useRef<() => void>(undefined);
  useEffect(() => () => stopFollowing.current?.(), []);
  useEffect(() => {
    if (!ready || !focus || done.current) return;
    const row = document.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(focus)}"]`);
    if (!row) return;
    done.current = true;
    const place = () => row.isConnected && row.scrollIntoView({ block: 'start' });
    place();
    row.focus({ preventScroll: true });
    const observer = new ResizeObserver(place);
    observer.observe(document.body);
    const events = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    const stop = () => {
      observer.disconnect();
      for (const e of events) window.removeEventListener(e, stop, true);
    };
    for (const e of events) window.addEventListener(e, stop, { capture: true, passive: true });
    stopFollowing.current = stop;
  });
  const rowProps = useCallback(
    (id: string): FocusRowProps => (id === focus ? { 'data-focus-id': id, 'aria-current': 'true', tabIndex: -1 } : { 'data-focus-id': id }),
    [focus],
  );
  return { focus, rowProps };
}

/** Says the list is narrowed to what the Today panel counted, and leads back to all of it. */
export function FilterNote(props: { children: ReactNode }) {
  return (
    <p className="filter-note" data-list-filter>
      <span>{props.children}</span>{' '}
      <a className="button button-quiet button-small" href={typeof window === 'undefined' ? '' : window.location.pathname}>
        Show all
      </a>
    </p>
  );
}

/** A group of rows under its month's name (one <tbody> each). */
export interface RowGroup {
  key: string;
  label: string;
  rows: ReactNode;
}

/**
 * <table class="admin-table"> with <th scope="col"> headers and a caption for screen readers. Below
 * 48rem each row is a card (admin.css): every cell shows its column's name, which the table writes
 * into the cell's data-label after each render, so the islands' rows stay plain <td>s. A cell marked
 * data-card="title" heads its card; data-card="action" is the card's one primary action, up top.
 * With `groups`, the rows come under their months' names.
 */
export function AdminTable(props: { caption: string; columns: readonly string[]; children?: ReactNode; groups?: readonly RowGroup[] }) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    for (const body of ref.current?.tBodies ?? []) {
      for (const row of body.rows) {
        let column = 0;
        for (const cell of row.cells) {
          if (cell.tagName === 'TD' && !cell.hasAttribute('data-label')) cell.dataset.label = props.columns[column] ?? '';
          column += cell.colSpan;
        }
      }
    }
  });
  return (
    // Its own name, not the section's: two landmarks named alike are one too many (axe landmark-unique).
    <div className="table-wrap" role="region" aria-label={`${props.caption} table`} tabIndex={0}>
      <table className="admin-table" ref={ref}>
        <caption className="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        {props.groups ? (
          props.groups.map((g) => (
            <tbody key={g.key} data-month={g.key}>
              <tr className="month-row">
                <th scope="rowgroup" colSpan={props.columns.length}>
                  {g.label}
                </th>
              </tr>
              {g.rows}
            </tbody>
          ))
        ) : (
          <tbody>{props.children}</tbody>
        )}
      </table>
    </div>
  );
}

/**
 * A list from an admin GET: null while loading; on failure the dialog `failTitle` once and an
 * empty list. `reload` fetches again (quietly: a failed reload keeps the list and says so inline).
 */
export function useAdminList<T>(url: string, failTitle: string, failText?: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [failed, setFailed] = useState(false);
  const loaded = useRef(false);

  const reload = useCallback(async () => {
    let ok = false;
    let data: unknown;
    try {
      const res = await request<T[]>('GET', url, { session: 'admin' });
      ok = res.ok && Array.isArray(res.data);
      data = res.data;
    } catch {
      ok = false;
    }
    if (ok) {
      loaded.current = true;
      setFailed(false);
      setItems(data as T[]);
      return;
    }
    setFailed(true);
    if (!loaded.current) {
      setItems([]);
      await showAlert({ icon: 'error', title: failTitle, text: failText });
    }
  }, [url, failTitle, failText]);

  useEffect(() => void reload(), [reload]);
  return { items, setItems, reload, failed };
}

/** How many pages past the first a Today link's row is looked for (1,000 rows at 50 a page). */
const FOCUS_PAGES = 20;

/**
 * A paged admin list (issue 36, decision 0046): the first page of `path` with `params` (its
 * filters and search; a change asks again, and an answer to an older question is dropped), then
 * the next page on `more()`, drawn below (the server's X-Next-Cursor says where it starts). With
 * `focus=<id>` in the address, the first drawing goes on down to that row (at most FOCUS_PAGES more).
 * Failures as useAdminList's: the dialog `failTitle` once, then quietly (`failed`).
 */
export function usePagedList<T extends { _id: string }>(path: string, filters: Record<string, string | undefined>, failTitle: string) {
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [failed, setFailed] = useState(false);
  const loaded = useRef(false);
  // Which question is the latest: a search typed fast asks many, and only the last is drawn.
  const asked = useRef(0);
  const address = pageAddress(path, { ...filters, q: query.trim() || undefined });

  const ask = useCallback(
    async (cursor?: string) => {
      try {
        const res = await request<T[]>('GET', pageAddress(address, {}, cursor), { session: 'admin' });
        return res.ok && Array.isArray(res.data) ? { rows: res.data as T[], next: res.headers?.get(NEXT_CURSOR_HEADER) ?? null } : null;
      } catch {
        return null;
      }
    },
    [address],
  );

  const { focus } = useListFilter();
  const reload = useCallback(async () => {
    const question = ++asked.current;
    const page = await ask();
    if (question !== asked.current) return;
    if (page) {
      // A Today link's row (focus=<id>) past the first page: the pages down to it are drawn, so the
      // link lands on its row (useFocusRow), however many newer rows came since.
      let { rows, next: cursor } = page;
      const lookFor = loaded.current ? undefined : focus;
      for (let n = 0; lookFor && cursor && n < FOCUS_PAGES && !rows.some((r) => r._id === lookFor); n++) {
        const more = await ask(cursor);
        if (question !== asked.current) return;
        if (!more) break;
        rows = [...rows, ...more.rows];
        cursor = more.next;
      }
      loaded.current = true;
      setFailed(false);
      setItems(rows);
      setNext(cursor);
      return;
    }
    setFailed(true);
    if (!loaded.current) {
      setItems([]);
      await showAlert({ icon: 'error', title: failTitle });
    }
  }, [ask, failTitle, focus]);

  const more = useCallback(async () => {
    if (next === null) return;
    const question = asked.current;
    setLoadingMore(true);
    const page = await ask(next);
    setLoadingMore(false);
    if (question !== asked.current) return;
    if (!page) {
      setFailed(true);
      await showAlert({ icon: 'error', title: failTitle });
      return;
    }
    setItems((list) => {
      const have = new Set((list ?? []).map((x) => x._id));
      return [...(list ?? []), ...page.rows.filter((x) => !have.has(x._id))];
    });
    setNext(page.next);
  }, [ask, next, failTitle]);

  useEffect(() => void reload(), [reload]);
  return { items, setItems, reload, more, hasMore: next !== null, loadingMore, failed, query, setQuery };
}

/**
 * A paged list as the admin pages draw it (issue 36): the search over it (once there is a list
 * to search, or `searchable` always), its rows or its empty words ("No client matches …" while
 * searching), and Show more below.
 */
export function PagedListing<T extends { _id: string }>(props: {
  list: ReturnType<typeof usePagedList<T>>;
  search: string;
  searchable?: boolean;
  empty: string;
  /** What one row is, for "No client matches …" and "Show more clients". */
  noun: readonly [string, string];
  children: (items: T[]) => ReactNode;
}) {
  const { items, query, setQuery, hasMore, loadingMore, more } = props.list;
  const searching = query.trim();
  return (
    <>
      {items !== null && (items.length > 0 || searching !== '' || props.searchable) && (
        <SearchField label={props.search} value={query} onChange={setQuery} shown={items.length} more={hasMore} />
      )}
      <Listing items={items} empty={searching ? `No ${props.noun[0]} matches “${searching}”.` : props.empty}>
        {props.children}
      </Listing>
      <ShowMore more={hasMore} loading={loadingMore} onMore={() => void more()} what={props.noun[1]} />
    </>
  );
}

/**
 * A form's submit handler: the page stays (no navigation) and `action` runs; its promise, if any,
 * reports its own failure. The admin sections' forms all submit this way.
 */
export const submitWith =
  (action: () => unknown) =>
  (e: { preventDefault(): void }): void => {
    e.preventDefault();
    void action();
  };

/** A form on one row (add a location, set a rate): its fields, then its submit button in a field of its own. */
export function RowForm(props: { label: string; submit: string; onSubmit: () => unknown; children: ReactNode }) {
  return (
    <form className="form-row" aria-label={props.label} onSubmit={submitWith(props.onSubmit)}>
      {props.children}
      <div className="field">
        <button className="button button-small" type="submit">
          {props.submit}
        </button>
      </div>
    </form>
  );
}

/** An admin form: its fields, the submit button and the status line that says what it did. */
export function AdminForm(props: { label: string; submit: string; onSubmit: () => void; status?: ReactNode; disabled?: boolean; children: ReactNode }) {
  return (
    <form className="admin-form" aria-label={props.label} onSubmit={submitWith(props.onSubmit)}>
      {props.children}
      <div className="card-actions">
        <button className="button button-small" type="submit" disabled={props.disabled}>
          {props.submit}
        </button>
        <p role="status" className="muted">
          {props.status}
        </p>
      </div>
    </form>
  );
}

/**
 * Sends an admin form's body; the answer's data, or null after telling her why (the server's
 * message, or that it could not be reached).
 */
export async function send<T>(method: 'POST' | 'PUT', url: string, body: unknown, failTitle: string): Promise<T | null> {
  try {
    const res = await request<T & { message?: string }>(method, url, { session: 'admin', body });
    if (res.ok) return res.data;
    await showAlert({ icon: 'error', title: failTitle, text: res.data.message });
  } catch {
    await showAlert({ icon: 'error', title: failTitle, text: 'The server could not be reached. Please try again.' });
  }
  return null;
}

/**
 * SPEC.md section 5: every deletion asks 'Are you sure?' ('Yes, delete it!' / Cancel). Resolves
 * true when deleted; on failure shows `failTitle` with the server's message.
 */
export async function confirmAndDelete(url: string, failTitle: string, text?: string): Promise<boolean> {
  if (!(await confirmDialog(text ? { text } : {}))) return false;
  let res;
  try {
    res = await request('DELETE', url, { session: 'admin' });
  } catch {
    await showAlert({ icon: 'error', title: failTitle, text: 'The server could not be reached. Please try again.' });
    return false;
  }
  if (!res.ok) {
    await showAlert({ icon: 'error', title: failTitle, text: res.data.message });
    return false;
  }
  return true;
}

/** A modal <dialog> opened while mounted: Escape, the Close button and a backdrop click close it. */
export function ModalDialog(props: { title: string; onClose: () => void; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    trapDialogFocus();
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  // A click on the backdrop closes it; keyboards have Escape, native to <dialog>.
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      className={props.className ? `modal ${props.className}` : 'modal'}
      aria-labelledby={titleId}
      onClose={props.onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) props.onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>{props.title}</h2>
        <button className="modal-close" type="button" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{props.children}</div>
    </dialog>
  );
}

/** A CSV export of an admin list (GET /api/admin/exports/{name}.csv, a dated attachment). */
export function ExportLink(props: { name: 'orders' | 'clients' | 'subscribers' | 'signups'; label: string }) {
  return (
    <p>
      <a className="button button-quiet button-small" href={`/api/admin/exports/${props.name}.csv`} download data-export={props.name}>
        Download {props.label} (CSV)
      </a>
    </p>
  );
}
