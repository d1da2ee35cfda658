import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import SignaturePad from '../SignaturePad';
import {
  checkAnswers,
  COLLECT_CONSENT_LABEL,
  COLLECT_CONSENT_MISSING,
  COLLECT_CONSENT_TEXT,
  collectConsentCarrier,
  collectConsentGiven,
  SHARE_CONSENT_BOX,
  SHARE_CONSENT_LABEL,
  SHARE_CONSENT_TEXT,
  type AnswerValue,
  type ClientIntakeView,
  type IntakeQuestion,
} from '../../../contract/practice.ts';
import type { User } from '../../stores/user';
import { intakeUrl, useIntake } from './IntakeStatus';

/**
 * The client's intake (issue 23): her form, answered before a first session and updated any
 * time (each save a new version; the old ones stay with her).
 */

/** The site's words of the consent to collect, shown with the consent of her form that carries it (decision 0058). */
const CollectWords = ({ id }: { id: string }) => (
  <p id={id} data-collect-consent>
    <strong>{COLLECT_CONSENT_LABEL}:</strong> {COLLECT_CONSENT_TEXT}
  </p>
);

/** A consent: its words (the paragraphs `describedBy` names), then the box. Her form's consents and the site's own are drawn alike. */
function ConsentBox(props: {
  id: string;
  legend: ReactNode;
  box: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  describedBy: (string | false)[];
  children: ReactNode;
}) {
  const { id, legend, box, checked, onChange, describedBy, children } = props;
  return (
    <fieldset className="field intake-consent">
      <legend>{legend}</legend>
      {children}
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={describedBy.filter(Boolean).join(' ') || undefined}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        {box}
      </label>
    </fieldset>
  );
}

function QuestionField(props: {
  q: IntakeQuestion;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue | undefined) => void;
  id: string;
  /** This consent also gives the consent to collect. */
  collect?: boolean;
}) {
  const { q, value, onChange, id, collect = false } = props;
  const help = q.help ? `${id}-help` : undefined;
  const label = (
    <>
      {q.label}
      {q.required ? <span aria-hidden="true"> *</span> : <span className="muted"> (optional)</span>}
    </>
  );
  const helpText = q.help ? (
    <p className="muted field-help" id={help}>
      {q.help}
    </p>
  ) : null;
  // A written answer's field, a line or a box: its value, whether it is required, its help, its change.
  const textProps = {
    value: typeof value === 'string' ? value : '',
    required: q.required,
    'aria-describedby': help,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  switch (q.type) {
    case 'text':
    case 'date':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          {helpText}
          <input id={id} type={q.type === 'date' ? 'date' : 'text'} maxLength={500} {...textProps} />
        </div>
      );
    case 'longText':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          {helpText}
          <textarea id={id} rows={4} maxLength={5000} {...textProps} />
        </div>
      );
    case 'yesNo':
    case 'choice':
      return (
        <fieldset className="field intake-choices" aria-describedby={help}>
          <legend>{label}</legend>
          {helpText}
          {(q.type === 'yesNo' ? ['Yes', 'No'] : (q.options ?? [])).map((option, i) => {
            const v: AnswerValue = q.type === 'yesNo' ? option === 'Yes' : option;
            return (
              <label key={option} className="check" htmlFor={`${id}-${i}`}>
                <input id={`${id}-${i}`} type="radio" name={id} checked={value === v} onChange={() => onChange(v)} /> {option}
              </label>
            );
          })}
        </fieldset>
      );
    case 'multiChoice': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="field intake-choices" aria-describedby={help}>
          <legend>{label}</legend>
          {helpText}
          {(q.options ?? []).map((option, i) => (
            <label key={option} className="check" htmlFor={`${id}-${i}`}>
              <input
                id={`${id}-${i}`}
                type="checkbox"
                checked={chosen.includes(option)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, option] : chosen.filter((x) => x !== option))}
              />{' '}
              {option}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'consent':
      return (
        <ConsentBox
          id={id}
          legend={label}
          box="I agree"
          checked={value === true}
          onChange={onChange}
          describedBy={[!!q.consentText && `${id}-text`, collect && `${id}-collect`]}
        >
          {/* Without a longer text, the question itself is what she agrees to. */}
          {q.consentText && <p id={`${id}-text`}>{q.consentText}</p>}
          {collect && <CollectWords id={`${id}-collect`} />}
        </ConsentBox>
      );
    case 'signature':
      return (
        <fieldset className="field intake-signature">
          <legend>{label}</legend>
          {helpText}
          {typeof value === 'string' && value.startsWith('data:image/png') && (
            <p>
              <img src={value} alt="Your saved signature" width={250} height={100} className="signature-preview" />
            </p>
          )}
          <SignaturePad autoSave saved={typeof value === 'string' && value.length > 0} onSave={(dataUrl) => onChange(dataUrl ?? undefined)} />
        </fieldset>
      );
  }
}

/**
 * Her consent followed by the signature (issue 30): one step, as on paper: the text, then "sign
 * below to agree". Signing answers both (the consent true, the drawing the signature); clearing
 * withdraws both. The answers stay two, as her form defines them.
 */
function SignedConsent(props: {
  consent: IntakeQuestion;
  signature: IntakeQuestion;
  value: AnswerValue | undefined;
  onChange: (signature: string | undefined) => void;
  id: string;
  /** Signing also gives the consent to collect. */
  collect: boolean;
}) {
  const { consent, signature, value, onChange, id, collect } = props;
  const saved = typeof value === 'string' && value.startsWith('data:image/png');
  return (
    <fieldset className="field intake-consent intake-signature">
      <legend>
        {consent.label}
        {consent.required && <span aria-hidden="true"> *</span>}
      </legend>
      {consent.consentText && <p id={`${id}-text`}>{consent.consentText}</p>}
      {collect && <CollectWords id={`${id}-collect`} />}
      <p className="muted field-help">
        {signature.label}: signing below means you agree{consent.consentText || collect ? ' to the above' : ''}.
      </p>
      {saved && (
        <p>
          <img src={value} alt="Your saved signature" width={250} height={100} className="signature-preview" />
        </p>
      )}
      <SignaturePad autoSave saved={saved} onSave={(dataUrl) => onChange(dataUrl ?? undefined)} />
    </fieldset>
  );
}

/** Her questions in order, a consent directly followed by a signature drawn as one step. */
function Questions(props: {
  questions: IntakeQuestion[];
  answers: Record<string, AnswerValue | undefined>;
  set: (id: string, v: AnswerValue | undefined) => void;
  id: string;
}) {
  const { questions, answers, set, id } = props;
  const carrier = collectConsentCarrier(questions);
  const out: ReactNode[] = [];
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i]!;
    const next = questions[i + 1];
    if (q.type === 'consent' && next?.type === 'signature') {
      out.push(
        <SignedConsent
          key={q.id}
          id={`${id}-${q.id}`}
          consent={q}
          signature={next}
          collect={q === carrier}
          value={answers[next.id]}
          onChange={(drawing) => {
            set(next.id, drawing);
            set(q.id, drawing ? true : undefined);
          }}
        />,
      );
      i++;
      continue;
    }
    out.push(<QuestionField key={q.id} id={`${id}-${q.id}`} q={q} collect={q === carrier} value={answers[q.id]} onChange={(v) => set(q.id, v)} />);
  }
  return <>{out}</>;
}

/**
 * The consents the site asks itself, apart from her questions (Washington's My Health My Data
 * Act, decision 0058): the consent to collect as a box of its own when no consent of her form
 * carries it, and always the consent to share, unticked until the client ticks it.
 */
function SiteConsents(props: {
  id: string;
  ownCollect: boolean;
  collect: boolean;
  setCollect: (v: boolean) => void;
  share: boolean;
  setShare: (v: boolean) => void;
}) {
  const { id, ownCollect, collect, setCollect, share, setShare } = props;
  return (
    <>
      {ownCollect && (
        <ConsentBox
          id={`${id}-collect`}
          legend={
            <>
              {COLLECT_CONSENT_LABEL}
              <span aria-hidden="true"> *</span>
            </>
          }
          box="I agree"
          checked={collect}
          onChange={setCollect}
          describedBy={[`${id}-collect-text`]}
        >
          <p id={`${id}-collect-text`}>{COLLECT_CONSENT_TEXT}</p>
        </ConsentBox>
      )}
      <ConsentBox
        id={`${id}-share`}
        legend={SHARE_CONSENT_LABEL}
        box={SHARE_CONSENT_BOX}
        checked={share}
        onChange={setShare}
        describedBy={[`${id}-share-text`]}
      >
        <p id={`${id}-share-text`}>{SHARE_CONSENT_TEXT}</p>
      </ConsentBox>
    </>
  );
}

/**
 * /user/{id}/intake: the form, with the client's latest answers when they answered. In the guided
 * booking (issue 30) it is a step: `onDone` goes on to the next one, with no message to close.
 */
export default function IntakeForm({ user, onDone }: { user: User; onDone?: (view: ClientIntakeView) => void }) {
  const id = useId();
  const { view, setView, failed } = useIntake(user.id);
  const [answers, setAnswers] = useState<Record<string, AnswerValue | undefined>>({});
  const [collect, setCollect] = useState(false);
  const [share, setShare] = useState(false);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (view?.answers) setAnswers(view.answers);
    // As last saved: a client who never ticked it finds it unticked.
    setShare(view?.shareConsent ?? false);
  }, [view]);

  if (failed) return <p role="alert">We couldn’t load the intake form. Please refresh the page and try again.</p>;
  if (!view) return <p role="status">Loading…</p>;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!view) return;
    const given = Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== undefined)) as Record<string, AnswerValue>;
    const questions = view.questions as IntakeQuestion[];
    const checked = checkAnswers(questions, given);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    const ownCollect = !collectConsentCarrier(questions);
    if (!collectConsentGiven(questions, checked.answers, { collect })) {
      setError(COLLECT_CONSENT_MISSING);
      return;
    }
    setError('');
    setSaving(true);
    const res = await request<ClientIntakeView>('PUT', intakeUrl(user.id), {
      body: { version: view.version, answers: checked.answers, consents: { share, ...(ownCollect ? { collect } : {}) } },
      session: 'user',
    }).finally(() => setSaving(false));
    if (!res.ok) {
      setError(res.data.message ?? 'We couldn’t save your answers. Please try again.');
      return;
    }
    setView(res.data);
    if (onDone) return onDone(res.data);
    await showAlert({ icon: 'success', title: 'Intake form saved', text: res.data.message ?? 'Thank you.' });
  }

  return (
    <section aria-labelledby="intake-heading" className="intake">
      <h2 id="intake-heading">New Client Form</h2>
      <p>
        Your health history and consent, read only by your teacher, encrypted when stored.{' '}
        {view.required && !view.completed ? 'Please fill it in before your first session.' : ''} <a href="/privacy">How your data is kept</a>.
      </p>
      {view.completed && view.answeredAt && (
        <p className="muted" role="status" data-intake-completed>
          Completed on {new Date(view.answeredAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })}. You can update your answers
          at any time.
        </p>
      )}
      <form className="form card" onSubmit={save} noValidate aria-label="New Client Form">
        <Questions questions={view.questions as IntakeQuestion[]} answers={answers} set={(qid, v) => setAnswers((a) => ({ ...a, [qid]: v }))} id={id} />
        <SiteConsents id={id} ownCollect={!collectConsentCarrier(view.questions)} collect={collect} setCollect={setCollect} share={share} setShare={setShare} />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="card-actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : view.completed ? 'Save my updated answers' : 'Submit the form'}
          </button>
        </div>
      </form>
    </section>
  );
}
