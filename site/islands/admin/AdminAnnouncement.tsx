import { useEffect, useId, useState } from 'react';
import { submitWith } from './admin-ui';
import { adminScreen } from './AdminShell';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { ANNOUNCEMENT_MAX, type AnnouncementView } from '../../../contract/backoffice.ts';
import { TextInput } from '../Field';

/** An ISO instant as the value of a datetime-local input, in the admin's own zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

function AnnouncementPanel() {
  const id = useId();
  const [message, setMessage] = useState('');
  const [link, setLink] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    request<{ announcement: AnnouncementView | null }>('GET', '/api/admin/announcement', { session: 'admin' })
      .then((r) => {
        const a = r.ok ? r.data.announcement : null;
        if (a) {
          setMessage(a.message);
          setLink(a.link ?? '');
          setStartsAt(localInput(a.startsAt));
          setEndsAt(localInput(a.endsAt));
        }
      })
      .catch(() => {})
      .finally(() => setLoaded(true));
  }, []);

  async function put(body: unknown) {
    try {
      const r = await request<{ message: string }>('PUT', '/api/admin/announcement', { session: 'admin', body });
      await showAlert(r.ok ? { icon: 'success', title: r.data.message } : { icon: 'error', title: 'The announcement was not saved.', text: r.data.message });
      return r.ok;
    } catch {
      await showAlert({ icon: 'error', title: 'The server could not be reached.', text: 'Please try again.' });
      return false;
    }
  }

  if (!loaded) return <p role="status">Loading…</p>;
  return (
    <section className="admin-panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Site announcement</h2>
      <p className="muted">
        Shown at the bottom of every public page while it is live; visitors can close it. Leave start and end empty to show it from now until removed.
      </p>
      <form
        className="product-form"
        aria-label="Announcement"
        onSubmit={submitWith(() => put({ message, link, startsAt: toIso(startsAt), endsAt: toIso(endsAt) }))}
      >
        <TextInput id={`${id}-message`} label="Message" value={message} maxLength={ANNOUNCEMENT_MAX} onChange={(e) => setMessage(e.target.value)} />
        <TextInput id={`${id}-link`} label="Link (optional, http:// or https://)" type="url" value={link} onChange={(e) => setLink(e.target.value)} />
        <div className="form-row">
          <TextInput id={`${id}-start`} label="Start (optional)" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
          <TextInput id={`${id}-end`} label="End (optional)" type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
        </div>
        <div className="card-actions">
          <button className="button button-small" type="submit">
            Save announcement
          </button>
          <button
            className="button button-quiet button-small"
            type="button"
            onClick={async () => {
              if (await put({ message: '' })) {
                setMessage('');
                setLink('');
                setStartsAt('');
                setEndsAt('');
              }
            }}
          >
            Remove
          </button>
        </div>
      </form>
    </section>
  );
}

export default adminScreen('/admin/announcement', 'Announcement', AnnouncementPanel);
