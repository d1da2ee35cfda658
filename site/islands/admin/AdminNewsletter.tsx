import { useEffect, useId, useRef, useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminTable, FilterNote, formatWhen, useAdminList, useListFilter } from './admin-ui';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import type { NewsletterPreview, NewsletterView } from '../../../contract/backoffice.ts';
import { TextArea, TextInput } from '../Field';
import { PostalAddressPanel } from './PostalAddressPanel';

const ARCHIVE_COLUMNS = ['Subject', 'Status', 'Recipients', 'Sent', 'Skipped', 'Failed', 'When', 'Actions'] as const;
/** How often the progress bar asks how far the send has got. */
const POLL_MS = 1000;

function Progress(props: { letter: NewsletterView }) {
  const { letter } = props;
  const done = letter.sent + letter.skipped + letter.failed;
  return (
    <div className="newsletter-progress" data-newsletter-progress={letter.status}>
      <progress max={letter.total || 1} value={done} aria-label="Sending progress" />
      <p role="status">
        {letter.status === 'sent' ? 'Sent: ' : 'Sending: '}
        <span data-sent-count>
          {letter.sent} / {letter.total}
        </span>{' '}
        mails sent
        {letter.skipped ? ` · ${letter.skipped} skipped (unsubscribed meanwhile)` : ''}
        {letter.failed ? ` · ${letter.failed} failed` : ''}
      </p>
    </div>
  );
}

function NewsletterPanel() {
  const id = useId();
  const archive = useAdminList<NewsletterView>('/api/admin/newsletters', 'Failed to fetch newsletters.');
  const [current, setCurrent] = useState<NewsletterView | null>(null);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [preview, setPreview] = useState<NewsletterPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const polling = useRef<ReturnType<typeof setTimeout> | null>(null);

  // The live preview: rendered by the server in the mail layout, a moment after typing stops.
  useEffect(() => {
    if (!subject.trim() || !body.trim()) {
      setPreview(null);
      return;
    }
    const timer = setTimeout(() => {
      request<NewsletterPreview>('POST', '/api/admin/newsletters/preview', { session: 'admin', body: { subject, body } })
        .then((r) => r.ok && setPreview(r.data))
        .catch(() => {});
    }, 400);
    return () => clearTimeout(timer);
  }, [subject, body]);

  useEffect(
    () => () => {
      if (polling.current) clearTimeout(polling.current);
    },
    [],
  );

  function watch(letterId: string) {
    const tick = async () => {
      const r = await request<NewsletterView>('GET', `/api/admin/newsletters/${encodeURIComponent(letterId)}`, { session: 'admin' }).catch(() => null);
      if (r?.ok) {
        setCurrent(r.data);
        if (r.data.status === 'sent') {
          void archive.reload();
          return;
        }
      }
      polling.current = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
  }

  function load(letter: NewsletterView) {
    setCurrent(letter);
    setSubject(letter.subject);
    setBody(letter.body);
    if (letter.status === 'sending') watch(letter.id);
  }

  function startNew() {
    if (polling.current) clearTimeout(polling.current);
    setCurrent(null);
    setSubject('');
    setBody('');
  }

  /** Saves the draft (creates it the first time); the saved newsletter, or null with the reason shown. */
  async function save(): Promise<NewsletterView | null> {
    const editing = current && current.status === 'draft' ? current : null;
    const r = await request<NewsletterView>(
      editing ? 'PUT' : 'POST',
      editing ? `/api/admin/newsletters/${encodeURIComponent(editing.id)}` : '/api/admin/newsletters',
      {
        session: 'admin',
        body: { subject, body },
      },
    );
    if (!r.ok) {
      await showAlert({ icon: 'error', title: 'Could not save the newsletter.', text: r.data.message });
      return null;
    }
    setCurrent(r.data);
    void archive.reload();
    return r.data;
  }

  async function act(fn: () => Promise<void>) {
    setBusy(true);
    try {
      await fn();
    } catch {
      await showAlert({ icon: 'error', title: 'The server could not be reached.', text: 'Please try again.' });
    } finally {
      setBusy(false);
    }
  }

  const saveDraft = () =>
    act(async () => {
      if (await save()) await showAlert({ icon: 'success', title: 'Draft saved.' });
    });

  const sendTest = () =>
    act(async () => {
      const saved = await save();
      if (!saved) return;
      const r = await request<{ message: string; to: string }>('POST', `/api/admin/newsletters/${encodeURIComponent(saved.id)}/test`, { session: 'admin' });
      await showAlert(
        r.ok ? { icon: 'success', title: r.data.message, text: r.data.to } : { icon: 'error', title: 'The test was not sent.', text: r.data.message },
      );
    });

  const sendAll = () =>
    act(async () => {
      if (!(await confirmDialog({ title: 'Send to every subscriber?', text: 'Once sent, a newsletter cannot be changed.', confirmText: 'Yes, send it!' })))
        return;
      const saved = await save();
      if (!saved) return;
      const r = await request<{ message: string; newsletter: NewsletterView }>('POST', `/api/admin/newsletters/${encodeURIComponent(saved.id)}/send`, {
        session: 'admin',
      });
      if (!r.ok) {
        await showAlert({ icon: 'error', title: 'The newsletter was not sent.', text: r.data.message });
        return;
      }
      setCurrent(r.data.newsletter);
      void archive.reload();
      watch(saved.id);
    });

  const locked = current !== null && current.status !== 'draft';
  // The Today panel's failed mails: only the newsletters some of whose mails failed.
  const failedOnly = useListFilter().failed === true;
  const letters = archive.items && archive.items.filter((n) => !failedOnly || n.failed > 0);
  return (
    <>
      <PostalAddressPanel />
      <section className="admin-panel" aria-labelledby={`${id}-write`}>
        <h2 id={`${id}-write`}>{locked ? 'Newsletter' : current ? 'Edit draft' : 'Write a newsletter'}</h2>
        <div className="newsletter-editor">
          <form className="product-form" onSubmit={(e) => e.preventDefault()} aria-label="Newsletter">
            <TextInput id={`${id}-subject`} label="Subject" value={subject} maxLength={150} readOnly={locked} onChange={(e) => setSubject(e.target.value)} />
            <TextArea id={`${id}-body`} label="Body (Markdown)" rows={14} value={body} readOnly={locked} onChange={(e) => setBody(e.target.value)} />
            <div className="card-actions">
              {locked ? (
                <button className="button button-small" type="button" onClick={startNew}>
                  Write a new one
                </button>
              ) : (
                <>
                  <button className="button button-quiet button-small" type="button" disabled={busy} onClick={() => void saveDraft()}>
                    Save draft
                  </button>
                  <button className="button button-quiet button-small" type="button" disabled={busy} onClick={() => void sendTest()}>
                    Send me a test
                  </button>
                  <button className="button button-small" type="button" disabled={busy} onClick={() => void sendAll()}>
                    Send to all subscribers
                  </button>
                </>
              )}
            </div>
            {current && current.status !== 'draft' && <Progress letter={current} />}
          </form>
          <div className="newsletter-preview">
            <h3>Preview</h3>
            {preview ? (
              <iframe title="Newsletter preview" sandbox="" srcDoc={preview.html} data-newsletter-preview />
            ) : (
              <p className="muted">Write a subject and a body to see the mail as subscribers will get it.</p>
            )}
          </div>
        </div>
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-archive`}>
        <h2 id={`${id}-archive`}>Archive</h2>
        {failedOnly && <FilterNote>Newsletters with mails that failed.</FilterNote>}
        {archive.items === null ? (
          <p role="status">Loading…</p>
        ) : letters!.length === 0 ? (
          <p>No newsletters yet.</p>
        ) : (
          <AdminTable caption="Newsletters" columns={ARCHIVE_COLUMNS}>
            {letters!.map((n) => (
              <tr key={n.id} data-newsletter-row={n.id}>
                <td data-card="title">{n.subject}</td>
                <td>{n.status}</td>
                <td>{n.status === 'draft' ? '' : n.total}</td>
                <td>{n.status === 'draft' ? '' : n.sent}</td>
                <td>{n.status === 'draft' ? '' : n.skipped}</td>
                <td>{n.status === 'draft' ? '' : n.failed}</td>
                <td>{formatWhen(n.sentAt ?? n.sendStartedAt ?? n.updatedAt)}</td>
                <td>
                  <button className="button button-quiet button-small" type="button" onClick={() => load(n)}>
                    {n.status === 'draft' ? 'Edit' : 'View'}
                    <span className="sr-only"> {n.subject}</span>
                  </button>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </>
  );
}

export default adminScreen('/admin/newsletter', 'Newsletter', NewsletterPanel);
