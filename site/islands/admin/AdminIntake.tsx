import { useEffect, useId, useState, type FormEvent } from 'react';
import { adminScreen, NOT_AUTHORIZED } from './AdminShell';
import { formatWhen } from './admin-ui';
import { request } from '../../lib/http';
import {
  QUESTION_TYPES,
  QUESTION_TYPE_LABELS,
  type AdminIntakeView,
  type IntakeQuestion,
  type IntakeRequiredFor,
  type QuestionType,
} from '../../../contract/practice.ts';
import { SESSION_TYPE_KEYS, type SessionTypeKey } from '../../../contract/settings.ts';
import { choicesOf, SelectInput, TextArea, TextInput } from '../Field';

const TYPE_CHOICES = choicesOf(QUESTION_TYPES, QUESTION_TYPE_LABELS);

/**
 * Her intake form (issue 23): the questions a new client answers before a first session, in her
 * words, any of eight kinds, required or optional, with help text, in her order. Each save makes
 * a new version; each client's answers keep the version they answered. Whether
 * the form is required before a first paid session is her setting, here.
 */

interface Draft extends Omit<IntakeQuestion, 'options'> {
  /** One choice per line, while she edits. */
  optionsText: string;
}

const toDraft = (q: IntakeQuestion): Draft => ({ ...q, optionsText: (q.options ?? []).join('\n') });
const fromDraft = (d: Draft): IntakeQuestion => {
  const q: IntakeQuestion = { id: d.id, type: d.type, label: d.label.trim(), required: d.required };
  if (d.help?.trim()) q.help = d.help.trim();
  if (d.type === 'choice' || d.type === 'multiChoice')
    q.options = d.optionsText
      .split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
  // Without a longer text, the question's words are what the client agrees to.
  if (d.type === 'consent' && d.consentText?.trim()) q.consentText = d.consentText.trim();
  return q;
};
/** A new question's id: its words, then a short random part so two alike never collide. */
const newId = (label: string) =>
  `${
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 28) || 'question'
  }-${Math.random().toString(36).slice(2, 7)}`;

function QuestionEditor(props: { q: Draft; index: number; count: number; onChange: (q: Draft) => void; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  const { q, index, count, onChange, onMove, onRemove } = props;
  const id = useId();
  const n = index + 1;
  return (
    <li className="item intake-question" data-question={q.id}>
      <fieldset className="intake-question-fields">
        <legend>Question {n}</legend>
        <TextInput id={`${id}-label`} label="Question" value={q.label} maxLength={300} onChange={(e) => onChange({ ...q, label: e.target.value })} />
        <div className="form-row">
          <SelectInput
            id={`${id}-type`}
            label="Kind of answer"
            choices={TYPE_CHOICES}
            value={q.type}
            onChange={(e) => onChange({ ...q, type: e.target.value as QuestionType })}
          />
          <div className="field field-check">
            <input id={`${id}-required`} type="checkbox" checked={q.required} onChange={(e) => onChange({ ...q, required: e.target.checked })} />
            <label htmlFor={`${id}-required`}>Required</label>
          </div>
        </div>
        <TextInput
          id={`${id}-help`}
          label="Help text (optional)"
          value={q.help ?? ''}
          maxLength={600}
          onChange={(e) => onChange({ ...q, help: e.target.value })}
        />
        {(q.type === 'choice' || q.type === 'multiChoice') && (
          <TextArea
            id={`${id}-options`}
            label="Choices, one per line"
            rows={3}
            value={q.optionsText}
            onChange={(e) => onChange({ ...q, optionsText: e.target.value })}
          />
        )}
        {q.type === 'consent' && (
          <TextArea
            id={`${id}-consent`}
            label="What the client agrees to"
            rows={4}
            placeholder="Optional: left empty, the question itself is what the client agrees to."
            value={q.consentText ?? ''}
            onChange={(e) => onChange({ ...q, consentText: e.target.value })}
          />
        )}
        <div className="row-actions">
          <button type="button" className="button button-quiet button-small" disabled={index === 0} onClick={() => onMove(-1)}>
            Move up<span className="sr-only"> question {n}</span>
          </button>
          <button type="button" className="button button-quiet button-small" disabled={index === count - 1} onClick={() => onMove(1)}>
            Move down<span className="sr-only"> question {n}</span>
          </button>
          <button type="button" className="button danger button-small" onClick={onRemove}>
            Remove<span className="sr-only"> question {n}</span>
          </button>
        </div>
      </fieldset>
    </li>
  );
}

function IntakePanel() {
  const id = useId();
  const [view, setView] = useState<AdminIntakeView | null>(null);
  const [failed, setFailed] = useState('');
  const [requiredFor, setRequiredFor] = useState<IntakeRequiredFor>({ individualYoga: false, yogaTherapy: true });
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  const load = (v: AdminIntakeView) => {
    setView(v);
    setRequiredFor(v.requiredFor);
    setDrafts(v.questions.map(toDraft));
  };
  useEffect(() => {
    request<AdminIntakeView>('GET', '/api/admin/intake', { session: 'admin' }).then((r) =>
      r.ok ? load(r.data) : setFailed(r.status === 401 ? NOT_AUTHORIZED : 'Failed to load the intake form.'),
    );
  }, []);

  if (failed) return <p role="alert">{failed}</p>;
  if (!view) return <p role="status">Loading…</p>;

  const move = (i: number, by: -1 | 1) =>
    setDrafts((list) => {
      const next = [...list];
      const [q] = next.splice(i, 1);
      next.splice(i + by, 0, q!);
      return next;
    });

  async function save(e: FormEvent) {
    e.preventDefault();
    setStatus('');
    setError('');
    const res = await request<AdminIntakeView>('PUT', '/api/admin/intake', { body: { requiredFor, questions: drafts.map(fromDraft) }, session: 'admin' });
    if (!res.ok) {
      setError(res.data.message ?? 'Failed to save the intake form.');
      return;
    }
    load(res.data);
    setStatus(res.data.message ?? 'Saved.');
  }

  return (
    <section className="admin-panel practice" aria-labelledby="intake-heading">
      <h2 id="intake-heading">Intake form</h2>
      <p className="muted">
        New clients answer it before their first session; they can update their answers later. Each save makes a new version: the answers given so far keep the
        version they answered.
      </p>
      <form onSubmit={save} noValidate aria-label="Intake form">
        <fieldset className="field intake-required-for">
          <legend>Required before a client’s first session of (the booking waits for it)</legend>
          {(Object.keys(SESSION_TYPE_KEYS) as SessionTypeKey[]).map((key) => (
            <div className="field-check" key={key}>
              <input
                id={`${id}-required-${key}`}
                type="checkbox"
                checked={requiredFor[key]}
                onChange={(e) => setRequiredFor((r) => ({ ...r, [key]: e.target.checked }))}
              />
              <label htmlFor={`${id}-required-${key}`}>{SESSION_TYPE_KEYS[key]}</label>
            </div>
          ))}
        </fieldset>
        <ol className="item-list intake-questions">
          {drafts.map((q, i) => (
            <QuestionEditor
              key={q.id}
              q={q}
              index={i}
              count={drafts.length}
              onChange={(next) => setDrafts((list) => list.map((x, j) => (j === i ? next : x)))}
              onMove={(by) => move(i, by)}
              onRemove={() => setDrafts((list) => list.filter((_, j) => j !== i))}
            />
          ))}
        </ol>
        <div className="card-actions">
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() => setDrafts((list) => [...list, { id: newId('question'), type: 'text', label: '', required: false, optionsText: '' }])}
          >
            Add a question
          </button>
          <button type="submit" className="button button-small">
            Save the form
          </button>
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <p role="status" className="muted">
          {status}
        </p>
      </form>
      <h3>Versions</h3>
      <ul className="plain-list" data-versions>
        {view.versions.map((v) => (
          <li key={v.version}>
            Version {v.version}, {formatWhen(v.createdAt)}: {v.answers} {v.answers === 1 ? 'answer' : 'answers'}
            {v.version === view.version ? ' (current)' : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default adminScreen('/admin/intake', 'Intake form', IntakePanel);
