import { useLayoutEffect, type RefObject } from 'react';

/**
 * Islands hydrated on interaction may find text already typed into the server-rendered
 * inputs: take it into state once, on mount, so nothing the visitor typed is lost. A layout
 * effect: its update is committed before the browser paints, so a press held until the island is
 * alive (site/directives/interaction.ts) never meets the state from before it was read — with a
 * plain effect, a busy machine could replay the press first and find the fields empty.
 */
export function useDomValues<T extends Record<string, string>>(form: RefObject<HTMLFormElement | null>, setValues: (f: (v: T) => T) => void) {
  useLayoutEffect(() => {
    const el = form.current;
    if (!el) return;
    const typed: Partial<T> = {};
    for (const control of Array.from(el.elements) as HTMLInputElement[]) {
      // A radio or checkbox holds its value whether ticked or not: only the ticked one was chosen.
      if ((control.type === 'radio' || control.type === 'checkbox') && !control.checked) continue;
      if (control.name && typeof control.value === 'string' && control.value !== '') (typed as Record<string, string>)[control.name] = control.value;
    }
    if (Object.keys(typed).length) setValues((v) => ({ ...v, ...typed }));
  }, []);
}
