import { useRef, useState } from 'react';
import type { z } from 'zod';
import { check, fieldErrors } from '../../contract/check.ts';
import { request, type JsonResult } from '../lib/http';
import { useDomValues } from './useDomValues';
import { useHydrated } from './useHydrated';

/**
 * One POST at a time from a form: `sending` is true while it runs (the button says so), the
 * answer goes to `answer`, and a server that can't be reached (offline, timeout) or a throw in
 * `answer` goes to `failed`.
 */
export function useSend() {
  const [sending, setSending] = useState(false);
  async function send<T>(url: string, body: unknown, answer: (res: JsonResult<T>) => Promise<void>, failed: () => Promise<void>) {
    setSending(true);
    try {
      await answer(await request<T>('POST', url, { body }));
    } catch {
      await failed();
    } finally {
      setSending(false);
    }
  }
  return { sending, send };
}

/**
 * A controlled form checked in the browser by the schema the server uses: its values (text
 * typed before hydration is taken in), the field errors of the last check, and useSend.
 */
export function useForm<V extends Record<string, string>>(empty: V) {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useDomValues(formRef, setValues);
  const { sending, send } = useSend();

  const set = (k: keyof V) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  /** What the schema makes of `input`, or null once the field errors are shown. */
  function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | null {
    const result = check(schema, input);
    if (!result.ok) {
      setErrors(fieldErrors(result.issues));
      return null;
    }
    setErrors({});
    return result.data;
  }

  return { values, setValues, set, errors, hydrated, formRef, sending, send, validate };
}
