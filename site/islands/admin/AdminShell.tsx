import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { AdminSessionView, AdminView } from '../../../contract/admin.ts';
import { leaveSession, request } from '../../lib/http';
import { publicConfig } from '../../lib/config';
import { ADMIN_DAYS, ADMIN_NAV, ADMIN_NAV_GROUPS, ADMIN_TODAY, type NavLink } from '../../lib/nav';
import { forgetAdmin, rememberAdmin, storedAdmin } from '../../lib/profile';
import { setAdminZone } from './admin-ui';
import { useHydrated } from '../useHydrated';

export const NOT_AUTHORIZED = 'You are not authorized to access this page. Redirecting to login.';

async function logout(): Promise<void> {
  try {
    await request('POST', '/api/admin/logout');
  } finally {
    leaveSession('admin');
  }
}

/**
 * The admin's navigation (issue 20): on a phone one bar, the section's name and a Menu button that
 * opens the grouped list; from 1024 px the list is a side bar and the button is gone (admin.css).
 * The list is a disclosure, not a modal: Escape or a tap outside closes it and gives focus back to
 * the button, and leaving it with Tab closes it too.
 */
function AdminNav(props: { current: string }) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const here = ADMIN_NAV.find((l) => l.href === props.current);
  // A press before the page came to life would open nothing: the button waits for it (as the
  // forms' submit buttons do; useHydrated).
  const hydrated = useHydrated();

  useEffect(() => {
    if (!open) return;
    // The current page's link, or the first: where a keyboard user expects to start.
    const menu = document.getElementById(menuId);
    (menu?.querySelector<HTMLElement>('[aria-current="page"]') ?? menu?.querySelector<HTMLElement>('a, button'))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!navRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, menuId]);

  const item = (l: NavLink) => (
    <li key={l.href}>
      {/* A link to this page's own events (#events) only scrolls: the menu closes so they show. */}
      <a href={l.href} aria-current={props.current === l.href ? 'page' : undefined} onClick={() => setOpen(false)}>
        {l.label}
      </a>
    </li>
  );

  return (
    <nav
      ref={navRef}
      className="admin-nav"
      aria-label="Admin"
      onBlur={(e) => {
        if (open && e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <div className="admin-bar">
        <a className="admin-brand" href={ADMIN_TODAY.href}>
          Admin
        </a>
        {here && (
          <span className="admin-bar-current" aria-hidden="true">
            {here.label}
          </span>
        )}
        <button
          ref={toggleRef}
          className="admin-menu-toggle"
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          disabled={!hydrated}
          onClick={() => setOpen((o) => !o)}
        >
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          Menu
        </button>
      </div>
      <div id={menuId} className={open ? 'admin-menu open' : 'admin-menu'}>
        <ul className="admin-links">{ADMIN_DAYS.map(item)}</ul>
        {ADMIN_NAV_GROUPS.map((g) => (
          <div className="admin-group" key={g.label}>
            <p className="admin-group-label" id={`${menuId}-${g.label}`}>
              {g.label}
            </p>
            <ul className="admin-links" aria-labelledby={`${menuId}-${g.label}`}>
              {g.links.map(item)}
            </ul>
          </div>
        ))}
        <button className="admin-logout" type="button" onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </nav>
  );
}

/**
 * Every admin page: the navigation and the guard. A stored profile paints at once; the
 * session is verified on the server in the background (GET /api/admin/verify); on failure the
 * admin data is cleared and the browser goes to /admin. The dashboard says why first.
 */
export default function AdminShell(props: { current: string; title: string; explainRedirect?: boolean; children: (admin: AdminView) => ReactNode }) {
  const [admin, setAdmin] = useState<AdminView | null>(null);
  const [denied, setDenied] = useState(false);
  // Her zone (SITE_TIMEZONE): every date on the admin pages reads on her clocks. A change re-renders the page.
  const [, setZone] = useState('');

  useEffect(() => {
    setAdmin(storedAdmin());
    publicConfig()
      .then((c) => {
        setAdminZone(c.timezone);
        setZone(c.timezone);
      })
      .catch(() => {});
    // No refresh here: a failed check explains itself (explainRedirect) before leaving.
    request<AdminSessionView>('GET', '/api/admin/verify')
      .then((r) => {
        if (!r.ok || !r.data.admin) throw new Error('not authorized');
        rememberAdmin(r.data.admin);
        setAdmin(r.data.admin);
      })
      .catch(() => {
        forgetAdmin();
        setAdmin(null);
        setDenied(true);
        setTimeout(() => window.location.assign('/admin'), props.explainRedirect ? 1500 : 0);
      });
    // Once per page: the guard checks the session when the admin page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="admin-layout">
      <header className="admin-header">
        <AdminNav current={props.current} />
      </header>
      <main id="main" className="admin-main container">
        <h1>{props.title}</h1>
        {denied ? (
          <p role="alert">{props.explainRedirect ? NOT_AUTHORIZED : 'Redirecting to login…'}</p>
        ) : admin ? (
          props.children(admin)
        ) : (
          <p role="status">Loading…</p>
        )}
      </main>
    </div>
  );
}

/**
 * An admin page's island: its panel inside the shell, under its navigation entry and title. The
 * panel mounts once the session is known (the shell's children), so it may read the admin.
 */
export function adminScreen(current: string, title: string, Panel: () => ReactNode) {
  return function AdminScreen() {
    return (
      <AdminShell current={current} title={title}>
        {() => <Panel />}
      </AdminShell>
    );
  };
}
