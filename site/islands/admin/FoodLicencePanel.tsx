import { useEffect, useId, useState, type FormEvent } from 'react';
import { request } from '../../lib/http';
import { SubmitButton, TextArea, TextInput } from '../Field';
import { check, fieldErrors, type FieldIssue } from '../../../contract/check.ts';
import {
  DEFAULT_COTTAGE_CAP_DOLLARS,
  FOOD_LICENCE_MODES,
  FOOD_LICENCE_MODE_WORDS,
  foodLicence,
  missingLicenceWords,
  type FoodLicenceMode,
  type FoodLicenceView,
} from '../../../contract/food.ts';

/** What she types, kept as text until sent (the cap is whole dollars). */
interface Typed {
  mode: FoodLicenceMode;
  licenceNumber: string;
  businessName: string;
  businessAddress: string;
  phone: string;
  capDollars: string;
}

/** What a line may add to its field: a hint under its label, the browser's autofill, the phone's keys. */
type LineOptions = { hint?: string; autoComplete?: string; type?: 'tel'; inputMode?: 'numeric' };

const typedOf = (l: FoodLicenceView['licence']): Typed => ({ ...l, capDollars: String(l.capDollars) });

/**
 * Her food licence on the Settings page (issue 48, decision 0057): how she sells her food
 * (licensed, with its number, or the cottage-food exemption), what her labels carry (business
 * name, address, phone) and the exemption's yearly cap. What a label still lacks is said plainly
 * (the server's `missing`). Checked here by the server's own schema; the server checks again.
 * The site records her choice: it does not decide that she qualifies.
 */
export function FoodLicencePanel() {
  const id = useId();
  const [typed, setTyped] = useState<Typed | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  function fill(v: FoodLicenceView) {
    setTyped(typedOf(v.licence));
    setMissing(v.missing);
  }

  useEffect(() => {
    request<FoodLicenceView>('GET', '/api/admin/settings/food-licence', { session: 'admin' })
      .then((r) => (r.ok ? fill(r.data) : setFailed(true)))
      .catch(() => setFailed(true));
  }, []);

  // Today's ask links here (/admin/settings#food-licence): the section is drawn after the page, so it is brought into view once it is.
  const loaded = typed !== null;
  useEffect(() => {
    if (loaded && window.location.hash === '#food-licence') document.getElementById('food-licence')?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  const set = (field: keyof Typed) => (ev: { target: { value: string } }) => setTyped((t) => (t ? { ...t, [field]: ev.target.value } : t));

  async function save(ev: FormEvent) {
    ev.preventDefault();
    if (!typed) return;
    const cap = typed.capDollars.trim();
    const checked = check(foodLicence, { ...typed, capDollars: cap === '' ? DEFAULT_COTTAGE_CAP_DOLLARS : Number(cap) });
    if (!checked.ok) {
      setErrors(fieldErrors(checked.issues));
      setStatus('Please correct the fields marked below.');
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const r = await request<FoodLicenceView & { issues?: FieldIssue[] }>('PUT', '/api/admin/settings/food-licence', { session: 'admin', body: checked.data });
      if (r.ok) {
        fill(r.data);
        setStatus(r.data.message ?? '');
      } else {
        setErrors(fieldErrors(r.data.issues ?? []));
        setStatus(r.data.message ?? 'Your food licence was not saved.');
      }
    } catch {
      setStatus('The server could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const e = (field: string) => errors[field];
  // Each of her lines: a text field (the address two lines), labelled, with its error beside it.
  const line = (field: Exclude<keyof Typed, 'mode'>, label: string, more: LineOptions = {}) => {
    const { type, inputMode, ...common } = more;
    const props = { id: `${id}-${field}`, label, value: typed?.[field] ?? '', error: e(field), onChange: set(field), ...common };
    if (field === 'businessAddress') return <TextArea {...props} rows={2} />;
    return <TextInput {...props} {...(type ? { type } : {})} {...(inputMode ? { inputMode } : {})} />;
  };
  return (
    <section className="admin-panel" id="food-licence" aria-labelledby={`${id}-heading`} data-food-licence>
      <h2 id={`${id}-heading`}>Your food licence</h2>
      {failed ? (
        <p role="alert">Your food licence could not be loaded. Please reload the page.</p>
      ) : !typed ? (
        <p role="status">Loading…</p>
      ) : (
        <>
          <p className="muted">
            How you sell the chocolates you make at home, and what their labels carry. The site records your choice; whether you qualify for the exemption is
            yours (and Oregon’s Department of Agriculture’s) to say.
          </p>
          <p className={missing.length ? 'field-error' : 'muted'} data-licence-missing>
            {missing.length ? missingLicenceWords(missing) : 'Your labels have everything your licence asks for.'}
          </p>
          <form className="product-form settings-form" aria-labelledby={`${id}-heading`} noValidate onSubmit={(ev) => void save(ev)}>
            <fieldset className="settings-range">
              <legend>How you sell your food</legend>
              {FOOD_LICENCE_MODES.map((mode) => (
                <div className="field" key={mode}>
                  <div className="field-check">
                    <input
                      id={`${id}-${mode}`}
                      type="radio"
                      name={`${id}-mode`}
                      value={mode}
                      checked={typed.mode === mode}
                      aria-describedby={`${id}-${mode}-effect`}
                      onChange={() => setTyped({ ...typed, mode })}
                    />
                    <label htmlFor={`${id}-${mode}`}>{FOOD_LICENCE_MODE_WORDS[mode].label}</label>
                  </div>
                  <p className="muted" id={`${id}-${mode}-effect`}>
                    {FOOD_LICENCE_MODE_WORDS[mode].effect}
                  </p>
                </div>
              ))}
            </fieldset>
            {line('licenceNumber', typed.mode === 'licensed' ? 'Licence number' : 'Licence number (if you have one)', {
              autoComplete: 'off',
              hint: 'Your domestic kitchen licence’s number, as Oregon’s Department of Agriculture gave it. Your labels carry it while you sell licensed.',
            })}
            {line('businessName', 'Business name', { autoComplete: 'organization' })}
            {line('businessAddress', 'Business address', { hint: 'Street, city, state and ZIP, as a label shows them.' })}
            {line('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
            {line('capDollars', 'Yearly sales cap ($)', {
              inputMode: 'numeric',
              hint: 'The cottage-food exemption’s yearly gross sales limit ($50,000 as the law set it; change it when it is adjusted). The Tax year shows your food sales against it.',
            })}
            <SubmitButton busy={busy} busyLabel="Saving…">
              Save food licence
            </SubmitButton>
            <p role="status" className="muted">
              {status}
            </p>
          </form>
        </>
      )}
    </section>
  );
}
