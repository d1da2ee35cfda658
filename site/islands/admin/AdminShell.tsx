import { useEffect, useState, type ReactNode } from 'react';
import { adminLogout, forgetAdmin, rememberAdmin, storedAdmin, type AdminProfile } from '../../lib/admin-api';
import { sendJson } from '../../lib/http';

export const ADMIN_SECTIONS = [
  { href: '/admin/dashboard', label: 'Events' },
  { href: '/admin/bookings', label: 'Bookings' },
  { href: '/admin/chocolates', label: 'Chocolates' },
  { href: '/admin/orders', label: 'Orders' },
  { href: '/admin/signups', label: 'Classes' },
  { href: '/admin/users', label: 'Clients' },
  { href: '/admin/subscribers', label: 'Subscribers' },
] as const;

export const NOT_AUTHORIZED = 'You are not authorized to access this page. Redirecting to login.';

/**
 * Every admin page: the navigation and the guard. A stored profile paints at once; the
 * session is verified on the server in the background (GET /api/admin/verify); on failure the
 * admin data is cleared and the browser goes to /admin. The dashboard says why first.
 */
export default function AdminShell(props: { current: string; title: string; explainRedirect?: boolean; children: (admin: AdminProfile) => ReactNode }) {
  const [admin, setAdmin] = useState<AdminProfile | null>(null);
  const [denied, setDenied] = useState(false);

  useEffect(() => {
    setAdmin(storedAdmin());
    sendJson<{ admin: AdminProfile }>('GET', '/api/admin/verify')
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
  }, []);

  return (
    <>
      <header className="admin-header">
        <nav className="nav container" aria-label="Admin">
          <a className="brand" href="/admin/dashboard" style={{ color: '#fff' }}>
            Admin
          </a>
          <ul className="admin-nav">
            {ADMIN_SECTIONS.map((s) => (
              <li key={s.href}>
                <a href={s.href} aria-current={props.current === s.href ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <button type="button" onClick={() => void adminLogout()}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
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
    </>
  );
}
