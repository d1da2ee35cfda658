import type { InputHTMLAttributes, ReactNode } from 'react';

/** A labelled form control with its error line, wired for screen readers. */
export function Field(props: { id: string; label: string; error?: string | undefined; hint?: string; children: ReactNode }) {
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
export const describedBy = (id: string, error?: string, hint?: string) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined,
});

/** The common case: a labelled <input> with its error (and hint) line. */
export function TextInput(props: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; error?: string | undefined; hint?: string }) {
  const { id, label, error, hint, ...input } = props;
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <input id={id} {...input} {...describedBy(id, error, hint)} />
    </Field>
  );
}

type InputProps = Omit<Parameters<typeof TextInput>[0], 'label'> & { label?: string };

/** The forms' required e-mail field: one definition of its name, type and autofill. */
export const EmailInput = (props: InputProps) => <TextInput label="Email" name="email" type="email" autoComplete="email" required {...props} />;

/** The forms' required phone field, with the format SPEC shows as its placeholder. */
export const PhoneInput = (props: InputProps) => (
  <TextInput label="Phone" name="phone" type="tel" autoComplete="tel" required placeholder="123-456-7890" {...props} />
);
