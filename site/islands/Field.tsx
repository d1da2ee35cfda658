import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/**
 * The form fields of the whole site (the public forms and every admin form, issue 31): a labelled
 * control with its hint and error lines, wired for screen readers.
 */
export function Field(props: { id: string; label: ReactNode; error?: string | undefined; hint?: ReactNode; children: ReactNode }) {
  const { id, label, error, hint, children } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {children}
      {error && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** aria attributes for the control inside a Field. */
export const describedBy = (id: string, error?: string, hint?: unknown) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined,
});

/** What every field takes besides its control's own attributes. */
type Labelled = { id: string; label: ReactNode; error?: string | undefined; hint?: ReactNode };

/** The common case: a labelled <input> with its error (and hint) line. */
export function TextInput(props: InputHTMLAttributes<HTMLInputElement> & Labelled) {
  const { id, label, error, hint, ...input } = props;
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      {/* The caller's own aria-invalid stands: an error said once for several fields (a range's one line). */}
      <input id={id} {...describedBy(id, error, hint)} {...input} />
    </Field>
  );
}

/**
 * Dollars she types, kept as text until sent (site/lib/money.ts typedCents reads them; the API
 * keeps cents): the phone's decimal keys, or its digit keys for `whole` dollars.
 */
export function MoneyInput(props: Parameters<typeof TextInput>[0] & { whole?: boolean }) {
  const { whole, ...input } = props;
  return <TextInput inputMode={whole ? 'numeric' : 'decimal'} {...input} />;
}

/** A whole number she types (sessions, months, tins): a number field on the phone’s digit keys. */
export const CountInput = (props: Parameters<typeof TextInput>[0]) => <TextInput type="number" inputMode="numeric" {...props} />;

/** A labelled <textarea>. */
export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled) {
  const { id, label, error, hint, ...area } = props;
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <textarea id={id} {...area} {...describedBy(id, error, hint)} />
    </Field>
  );
}

/** A select's choices: [value, what she reads]. */
export type Choices = readonly (readonly [value: string, words: string])[];

/** A list's values with their words, as a select's choices. */
export const choicesOf = <T extends string>(values: readonly T[], words: Readonly<Record<T, string>>): Choices => values.map((v) => [v, words[v]] as const);

/** A labelled <select> of `choices`. */
export function SelectInput(props: SelectHTMLAttributes<HTMLSelectElement> & Labelled & { choices: Choices }) {
  const { id, label, error, hint, choices, ...select } = props;
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <select id={id} {...select} {...describedBy(id, error, hint)}>
        {choices.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A checkbox with its words after it, the whole line the tap target. */
export function Checkbox(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; className?: string }) {
  const { label, className = 'checkbox', ...input } = props;
  return (
    <label className={className}>
      <input type="checkbox" {...input} /> {label}
    </label>
  );
}

/** A box per choice ([value, words]), ticked when `chosen` holds its value; a tick adds it, an untick takes it away. */
export function Checkboxes<T extends string | number>(props: {
  choices: readonly (readonly [value: T, words: ReactNode])[];
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
}) {
  const { choices, chosen, onChange } = props;
  return choices.map(([value, words]) => (
    <Checkbox
      key={value}
      label={words}
      checked={chosen.includes(value)}
      onChange={(ev) => onChange(ev.target.checked ? [...chosen, value] : chosen.filter((c) => c !== value))}
    />
  ));
}

type InputProps = Omit<Parameters<typeof TextInput>[0], 'label'> & { label?: string };

/** The forms' required e-mail field: one definition of its name, type and autofill. */
export const EmailInput = (props: InputProps) => <TextInput label="Email" name="email" type="email" autoComplete="email" required {...props} />;

/** The forms' required phone field, with the format SPEC shows as its placeholder. */
export const PhoneInput = (props: InputProps) => (
  <TextInput label="Phone" name="phone" type="tel" autoComplete="tel" required placeholder="123-456-7890" {...props} />
);

/** A form's submit button, in its own row, busy (and saying so) while the form sends. */
export function SubmitButton(props: { busy: boolean; busyLabel: string; disabled?: boolean; children: ReactNode }) {
  return (
    <div>
      <button className="button" type="submit" disabled={props.busy || props.disabled}>
        {props.busy ? props.busyLabel : props.children}
      </button>
    </div>
  );
}
