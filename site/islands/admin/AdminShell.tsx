import { useEffect, useState, type ReactNode } from 'react';
import type { AdminSessionView, AdminView } from '../../../contract/admin.ts';
import { leaveSession, request } from '../../lib/http';
import { ADMIN_NAV } from '../../lib/nav';
import { forgetAdmin, rememberAdmin, storedAdmin } from '../../lib/profile';

export const NOT_AUTHORIZED = 'You are not authorized to access this page. Redirecting to login.';

async function logout(): Promise<void> {
  try {
    await request('POST', '/api/admin/logout');
  } finally {
    leaveSession('admin');
  }
}

/**
 * Every admin page: the navigation and the guard. A stored profile paints at once; the
 * session is verified on the server in the background (GET /api/admin/verify); on failure the
 * admin data is cleared and the browser goes to /admin. The dashboard says why first.
 */
export default function AdminShell(props: { current: string; title: string; explainRedirect?: boolean; children: (admin: AdminView) => ReactNode }) {
  const [admin, setAdmin] = useState<AdminView | null>(null);
  const [denied, setDenied] = useState(false);

  useEffect(() => {
    setAdmin(storedAdmin());
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
    <>
      <header className="admin-header">
        <nav className="nav container" aria-label="Admin">
          <a className="brand" href="/admin/dashboard" style={{ color: '#fff' }}>
            Admin
          </a>
          <ul className="admin-nav">
            {ADMIN_NAV.map((s) => (
              <li key={s.href}>
                <a href={s.href} aria-current={props.current === s.href ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <button type="button" onClick={() => void logout()}>
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
