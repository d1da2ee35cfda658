import { useEffect, type RefObject } from 'react';

/**
 * Islands hydrated on interaction may find text already typed into the server-rendered
 * inputs: take it into state once, on mount, so nothing the visitor typed is lost.
 */
export function useDomValues<T extends Record<string, string>>(form: RefObject<HTMLFormElement | null>, setValues: (f: (v: T) => T) => void) {
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    const typed: Partial<T> = {};
    for (const control of Array.from(el.elements) as HTMLInputElement[]) {
      if (control.name && typeof control.value === 'string' && control.value !== '') (typed as Record<string, string>)[control.name] = control.value;
    }
    if (Object.keys(typed).length) setValues((v) => ({ ...v, ...typed }));
  }, []);
}
