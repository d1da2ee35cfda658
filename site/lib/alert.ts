/**
 * The site's message dialogs (the spec's success / error / warning / info pop-ups and the
 * "Are you sure?" confirmation), built on the native <dialog>: focus is trapped while open,
 * Escape closes it, focus returns to where it was. No framework, so any page can use it.
 */
import { trapDialogFocus } from '../scripts/dialog-focus';

export type AlertIcon = 'success' | 'error' | 'warning' | 'info';

const icons: Record<AlertIcon, string> = { success: '✓', error: '✕', warning: '!', info: 'i' };

function build(
  icon: AlertIcon,
  title: string,
  text: string | undefined,
  buttons: { label: string; value: string; primary?: boolean }[],
  details: readonly string[] = [],
) {
  const dialog = document.createElement('dialog');
  dialog.className = `alert alert-${icon}`;
  dialog.setAttribute('aria-labelledby', 'alert-title');
  if (text) dialog.setAttribute('aria-describedby', 'alert-text');
  const mark = document.createElement('div');
  mark.className = 'alert-icon';
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = icons[icon];
  const h = document.createElement('h2');
  h.id = 'alert-title';
  h.textContent = title;
  dialog.append(mark, h);
  if (text) {
    const p = document.createElement('p');
    p.id = 'alert-text';
    p.textContent = text;
    dialog.append(p);
  }
  // Lines that go with the message (an order's products with their allergens and net weight).
  if (details.length) {
    const list = document.createElement('ul');
    list.className = 'alert-details';
    for (const d of details) {
      const li = document.createElement('li');
      li.textContent = d;
      list.append(li);
    }
    dialog.append(list);
  }
  const row = document.createElement('form');
  row.method = 'dialog';
  row.className = 'alert-actions';
  for (const b of buttons) {
    const button = document.createElement('button');
    button.value = b.value;
    button.textContent = b.label;
    button.className = b.primary ? 'button' : 'button button-quiet';
    row.append(button);
  }
  dialog.append(row);
  return dialog;
}

function show(dialog: HTMLDialogElement): Promise<string> {
  trapDialogFocus();
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue);
      dialog.remove();
    });
  });
}

export function showAlert(options: { icon: AlertIcon; title: string; text?: string; confirmText?: string; details?: readonly string[] }): Promise<void> {
  return show(build(options.icon, options.title, options.text, [{ label: options.confirmText ?? 'OK', value: 'ok', primary: true }], options.details)).then(
    () => {},
  );
}

/** Resolves true only when the confirm button was chosen (Escape and Cancel give false). */
export async function confirmDialog(options: { title?: string; text?: string; confirmText?: string; cancelText?: string } = {}): Promise<boolean> {
  const value = await show(
    build('warning', options.title ?? 'Are you sure?', options.text, [
      { label: options.cancelText ?? 'Cancel', value: 'cancel' },
      { label: options.confirmText ?? 'Yes, delete it!', value: 'confirm', primary: true },
    ]),
  );
  return value === 'confirm';
}
