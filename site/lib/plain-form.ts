/**
 * A form the server drew whole, worked by plain DOM code (decision 0050): the field error lines
 * and the busy button that the React forms get from Field.tsx and useForm. The markup is
 * Field.tsx's, so a form reads the same whichever way it came alive: an error is a
 * `span.field-error#<id>-error[role=alert]` at the end of the control's `.field`, the control
 * `aria-invalid` and described by it (and by its hint, when it has one).
 */
import { fieldErrors, issuesNaming } from '../../contract/check.ts';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The form's named controls. */
function controls(form: HTMLFormElement): Control[] {
  return [...form.querySelectorAll<Control>('input[name], select[name], textarea[name]')];
}

/** Every named control's value, as typed. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries(controls(form).map((c) => [c.name, c.value]));
}

/**
 * Shows `errors` (field name → its first message) beside their fields and clears the others'; with
 * any, focus moves to the first field in error, as useForm does.
 */
export function showFieldErrors(form: HTMLFormElement, errors: Record<string, string>): void {
  for (const control of controls(form)) {
    const id = control.id;
    const field = control.closest('.field');
    if (!id || !field) continue;
    document.getElementById(`${id}-error`)?.remove();
    const error = errors[control.name];
    if (error) {
      const line = document.createElement('span');
      line.className = 'field-error';
      line.id = `${id}-error`;
      line.setAttribute('role', 'alert');
      line.textContent = error;
      field.append(line);
      control.setAttribute('aria-invalid', 'true');
    } else {
      control.removeAttribute('aria-invalid');
    }
    const described = [error ? `${id}-error` : '', document.getElementById(`${id}-hint`) ? `${id}-hint` : ''].filter(Boolean).join(' ');
    if (described) control.setAttribute('aria-describedby', described);
    else control.removeAttribute('aria-describedby');
  }
  form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/**
 * A server's 400 `{issues}` shown like the browser's check: true when one names a field of this
 * form (the caller then needs no dialog), false otherwise (useForm's serverIssues).
 */
export function showServerIssues(form: HTMLFormElement, data: object): boolean {
  const names = new Set(controls(form).map((c) => c.name));
  const issues = issuesNaming(data, (name) => names.has(name));
  if (!issues) return false;
  showFieldErrors(form, fieldErrors(issues));
  return true;
}

const busy = new WeakSet<HTMLFormElement>();

/**
 * Runs `fn` with the form's submit button disabled and saying `busyLabel`; a second press meanwhile
 * does nothing (useSend's `submitting`).
 */
export async function whileSending(form: HTMLFormElement, busyLabel: string, fn: () => Promise<void>): Promise<void> {
  if (busy.has(form)) return;
  busy.add(form);
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const label = button?.textContent ?? '';
  if (button) {
    button.disabled = true;
    button.textContent = busyLabel;
  }
  try {
    await fn();
  } finally {
    busy.delete(form);
    if (button) {
      button.disabled = false;
      button.textContent = label;
    }
  }
}
