import { useEffect, useId, useState, type FormEvent } from 'react';
import AdminShell from './AdminShell';
import { formatDay, formatWhen } from './admin-ui';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import {
  ERASE_ACCOUNT_CONFIRM,
  type AccessLogView,
  type AnswerValue,
  type ClientRecordView,
  type ConsentState,
  type IntakeAnswerView,
  type IntakeConsentsView,
  type NoteVersionView,
  type RecordSessionView,
} from '../../../contract/practice.ts';
import { TextArea } from '../Field';
import ClientPackages from './ClientPackages';
import ClientClasses from './ClientClasses';

/**
 * One client's page (issue 23): contact details, intake answers, sessions past and coming with
 * her private notes (free text, or the SOAP layout; each save a new version, the earlier ones
 * kept), payments, and the access log of every read of this record. What the client holds
 * (issue 32: balance, sales, adjustments, booking for them) is ClientPackages. Opening the page is a read:
 * it is logged. The client's data can be downloaded or the account deleted for a client who
 * asks by mail.
 */

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function Answer({ value }: { value: AnswerValue | undefined }) {
  if (value === undefined || value === '') return <span className="muted">—</span>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (Array.isArray(value)) return <>{value.join(', ')}</>;
  if (value.startsWith('data:image/png;base64,')) return <img src={value} alt="Signature" width={250} height={100} className="signature-image" />;
  return <span className="pre-wrap">{value}</span>;
}

/** A consent's state in words: "Given Fri, Dec 18 · 7:30 PM", "Withdrawn …", "Not given". */
function consentWords(c: ConsentState): string {
  if (c.given) return c.since ? `Given ${formatWhen(c.since)}` : 'Given';
  return c.withdrawn && c.since ? `Withdrawn ${formatWhen(c.since)}` : 'Not given';
}

/**
 * The client's two consents (Washington's My Health My Data Act, decision 0058): to collect, and
 * to share with your supervisor (only with this one given may you discuss the case).
 */
function Consents({ consents }: { consents: IntakeConsentsView }) {
  return (
    <dl className="intake-answers" data-consents>
      <div>
        <dt>Consent to collect</dt>
        <dd data-consent="collect">
          {consents.collect.given || consents.collect.withdrawn ? consentWords(consents.collect) : 'Not asked (answered before the site asked it)'}
        </dd>
      </div>
      <div>
        <dt>Consent to share with your supervisor</dt>
        <dd data-consent="share">{consentWords(consents.share)}</dd>
      </div>
    </dl>
  );
}

function Answers({ a }: { a: IntakeAnswerView }) {
  return (
    <dl className="intake-answers">
      {a.questions.map((q) => (
        <div key={q.id}>
          <dt>{q.label}</dt>
          <dd>
            <Answer value={a.answers[q.id]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function NoteText({ note }: { note: NoteVersionView }) {
  return (
    <div className="note-text">
      {note.text && <p className="pre-wrap">{note.text}</p>}
      {note.soap && (
        <dl className="intake-answers">
          {(['subjective', 'objective', 'assessment', 'plan'] as const)
            .filter((k) => note.soap![k])
            .map((k) => (
              <div key={k}>
                <dt>{k[0]!.toUpperCase() + k.slice(1)}</dt>
                <dd className="pre-wrap">{note.soap![k]}</dd>
              </div>
            ))}
        </dl>
      )}
    </div>
  );
}

/** Her sessions with a client, each with its notes, or a line saying there are none. */
function SessionsWithNotes(props: { sessions: RecordSessionView[]; none: string; onSaved: () => void }) {
  if (!props.sessions.length) return <p>{props.none}</p>;
  return (
    <ul className="item-list">
      {props.sessions.map((s) => (
        <SessionNotes key={s.slotId} s={s} onSaved={props.onSaved} />
      ))}
    </ul>
  );
}

function SessionNotes({ s, onSaved }: { s: RecordSessionView; onSaved: () => void }) {
  const id = useId();
  const [text, setText] = useState(s.note?.text ?? '');
  const [soapOn, setSoapOn] = useState(!!s.note?.soap);
  const [soap, setSoap] = useState(s.note?.soap ?? { subjective: '', objective: '', assessment: '', plan: '' });
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  async function save(e: FormEvent) {
    e.preventDefault();
    setError('');
    const res = await request<{ message: string }>('PUT', `/api/admin/bookings/${encodeURIComponent(s.slotId)}/notes`, {
      body: soapOn ? { text, soap } : { text },
      session: 'admin',
    });
    if (!res.ok) {
      setError(res.data.message ?? 'Failed to save the note.');
      return;
    }
    setStatus(res.data.message);
    onSaved();
  }

  const when = s.date ? formatDay(s.date, s.time) : 'A session no longer on the calendar';
  return (
    <li className="item session-record" data-session={s.slotId}>
      <div className="session-record-head">
        <strong>{when}</strong> · {s.sessionType ?? 'Session'} · {s.amountCents ? money(s.amountCents) : s.couponUsed ? 'coupon' : '—'}{' '}
        {s.past ? '· past' : '· coming'}
      </div>
      {s.note && (
        <div>
          <h4>Note, saved {formatWhen(s.note.savedAt)}</h4>
          <NoteText note={s.note} />
        </div>
      )}
      {s.history.length > 0 && (
        <details>
          <summary>
            Earlier versions ({s.history.length})<span className="sr-only"> of the note of {when}</span>
          </summary>
          <ol className="plain-list">
            {s.history.map((h) => (
              <li key={h.savedAt}>
                <h5>Saved {formatWhen(h.savedAt)}</h5>
                <NoteText note={h} />
              </li>
            ))}
          </ol>
        </details>
      )}
      <form className="note-form" onSubmit={save} noValidate aria-label={`Note of ${when}`}>
        <TextArea id={`${id}-text`} label={s.note ? 'Edit the note' : 'Write a note'} rows={4} value={text} onChange={(e) => setText(e.target.value)} />
        <div className="field field-check">
          <input id={`${id}-soap`} type="checkbox" checked={soapOn} onChange={(e) => setSoapOn(e.target.checked)} />
          <label htmlFor={`${id}-soap`}>SOAP layout</label>
        </div>
        {soapOn &&
          (['subjective', 'objective', 'assessment', 'plan'] as const).map((k) => (
            <div className="field" key={k}>
              <label htmlFor={`${id}-${k}`}>{k[0]!.toUpperCase() + k.slice(1)}</label>
              <textarea id={`${id}-${k}`} rows={2} value={soap[k]} onChange={(e) => setSoap((x) => ({ ...x, [k]: e.target.value }))} />
            </div>
          ))}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="card-actions">
          <button type="submit" className="button button-small">
            Save note<span className="sr-only"> of {when}</span>
          </button>
          <span role="status" className="muted">
            {status}
          </span>
        </div>
      </form>
    </li>
  );
}

function ClientPanel({ clientId }: { clientId: string }) {
  const [record, setRecord] = useState<ClientRecordView | null>(null);
  const [log, setLog] = useState<AccessLogView['entries']>([]);
  const [failed, setFailed] = useState('');
  const [loads, setLoads] = useState(0);
  const base = `/api/admin/users/${encodeURIComponent(clientId)}`;

  useEffect(() => {
    if (!clientId) {
      setFailed('No client chosen: open a client from the Clients list.');
      return;
    }
    (async () => {
      const r = await request<ClientRecordView>('GET', `${base}/record`, { session: 'admin' });
      if (!r.ok) {
        setFailed(r.data.message ?? 'Failed to load the client.');
        return;
      }
      setRecord(r.data);
      const l = await request<AccessLogView>('GET', `${base}/access-log`, { session: 'admin' });
      if (l.ok) setLog(l.data.entries);
    })();
  }, [base, clientId, loads]);

  if (failed) return <p role="alert">{failed}</p>;
  if (!record) return <p role="status">Loading…</p>;
  const c = record.client;
  const name = [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email;
  const coming = record.sessions.filter((s) => !s.past);
  const past = record.sessions.filter((s) => s.past).reverse();

  async function erase() {
    const sure = await confirmDialog({
      title: `Delete ${name}’s account?`,
      text: ERASE_ACCOUNT_CONFIRM,
    });
    if (!sure) return;
    const res = await request<{ message: string }>('POST', `${base}/erase`, { session: 'admin' });
    await showAlert({ icon: res.ok ? 'success' : 'error', title: res.ok ? 'Account deleted' : 'Failed to delete user.', text: res.data.message });
    if (res.ok) window.location.assign('/admin/users');
  }

  return (
    <div className="practice client-record">
      <section className="admin-panel" aria-labelledby="client-heading">
        <h2 id="client-heading">{name}</h2>
        <dl className="intake-answers">
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${c.email}`}>{c.email}</a>
            </dd>
          </div>
          {c.phone && (
            <div>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${c.phone}`}>{c.phone}</a>
              </dd>
            </div>
          )}
          {c.preferredName && (
            <div>
              <dt>Preferred name</dt>
              <dd>{c.preferredName}</dd>
            </div>
          )}
          {c.pronoun && (
            <div>
              <dt>Pronoun</dt>
              <dd>{c.pronoun}</dd>
            </div>
          )}
          {(c.city || c.zipcode) && (
            <div>
              <dt>Location</dt>
              <dd>{[c.city, c.zipcode].filter(Boolean).join(' ')}</dd>
            </div>
          )}
          <div>
            <dt>Client since</dt>
            <dd>{formatWhen(c.createdAt)}</dd>
          </div>
        </dl>
      </section>

      <ClientPackages clientId={clientId} onBooked={() => setLoads((n) => n + 1)} />

      <section className="admin-panel" aria-labelledby="client-intake-heading">
        <h2 id="client-intake-heading">Intake</h2>
        {record.intake.latest ? (
          <>
            <p className="muted">
              Answered {formatWhen(record.intake.latest.answeredAt)} (form version {record.intake.latest.version}).
            </p>
            <Consents consents={record.intake.consents} />
            <Answers a={record.intake.latest} />
            {record.intake.earlier.length > 0 && (
              <details>
                <summary>Earlier answers ({record.intake.earlier.length})</summary>
                {record.intake.earlier.map((a) => (
                  <div key={a.answeredAt}>
                    <h3>Answered {formatWhen(a.answeredAt)}</h3>
                    <Answers a={a} />
                  </div>
                ))}
              </details>
            )}
          </>
        ) : (
          <p>Not filled in yet{record.intake.required ? ' (required before their first session)' : ''}.</p>
        )}
      </section>

      <section className="admin-panel" aria-labelledby="client-sessions-heading">
        <h2 id="client-sessions-heading">Sessions and notes</h2>
        <h3>Coming</h3>
        <SessionsWithNotes sessions={coming} none="No sessions coming." onSaved={() => setLoads((n) => n + 1)} />
        <h3>Past</h3>
        <SessionsWithNotes sessions={past} none="No past sessions." onSaved={() => setLoads((n) => n + 1)} />
      </section>

      <ClientClasses clientId={clientId} />

      <section className="admin-panel" aria-labelledby="client-payments-heading">
        <h2 id="client-payments-heading">Payments</h2>
        {record.payments.length ? (
          <ul className="plain-list">
            {record.payments.map((p, i) => (
              <li key={i}>
                {formatWhen(p.date)}: {money(p.amountCents)}, {p.what}
                {p.session && ` on ${formatDay(p.session.date, p.session.time)}`}
                {p.method && ` · paid by ${p.method}`}
              </li>
            ))}
          </ul>
        ) : (
          <p>No payments.</p>
        )}
      </section>

      <section className="admin-panel" aria-labelledby="client-log-heading">
        <h2 id="client-log-heading">Access log</h2>
        <p className="muted">Every time this record, or the client’s own intake, was read.</p>
        <ul className="plain-list" data-access-log>
          {log.map((e, i) => (
            <li key={i}>
              {formatWhen(e.at)}: {e.who === 'admin' ? 'You' : 'The client'} read {e.what}
            </li>
          ))}
        </ul>
      </section>

      <section className="admin-panel" aria-labelledby="client-data-heading">
        <h2 id="client-data-heading">The client’s data</h2>
        <p className="muted">For a client who asks by mail: everything the site holds about them, or their account deleted.</p>
        <div className="row-actions">
          <a className="button button-quiet button-small" href={`${base}/export`} download>
            Download their data
          </a>
          <button type="button" className="button danger button-small" onClick={() => void erase()}>
            Delete their account
          </button>
        </div>
      </section>
    </div>
  );
}

export default function AdminClient() {
  const [clientId] = useState(() => (typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('id') ?? '')));
  return (
    <AdminShell current="/admin/users" title="Client">
      {() => <ClientPanel clientId={clientId} />}
    </AdminShell>
  );
}
