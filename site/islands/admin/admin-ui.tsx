/**
 * Small pieces the admin sections share: the table, a list loaded with the admin session, the
 * "Are you sure?" deletion, the modal dialog and the date formats.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { trapDialogFocus } from '../../scripts/dialog-focus';

/** SPEC.md section 9: admin user times are shown in the teacher's zone. */
export const ADMIN_TIME_ZONE = 'America/Los_Angeles';

const laFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: ADMIN_TIME_ZONE,
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** An instant in America/Los_Angeles, e.g. 'Nov 21, 2026, 1:05 PM PST'. */
export function formatLosAngeles(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : laFormat.format(d);
}

/** An instant in the admin's own zone, 12-hour, e.g. 'Tue, Nov 24, 2026, 10:00 AM PST'. */
export function formatAdminTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZoneName: 'short',
  }).format(d);
}

/** A calendar date (YYYY-MM-DD) as 'Sat, Nov 21, 2026', whatever the admin's zone. */
export function formatCalendarDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(d);
}

/** <table class="admin-table"> with <th scope="col"> headers and a caption for screen readers. */
export function AdminTable(props: { caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table className="admin-table">
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
        <tbody>{props.children}</tbody>
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
