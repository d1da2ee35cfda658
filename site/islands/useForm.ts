import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { check, fieldErrors, issuesNaming, type FieldIssue } from '../../contract/check.ts';
import { request, type JsonResult } from '../lib/http';
import { useDomValues } from './useDomValues';
import { useHydrated } from './useHydrated';

/**
 * One POST at a time from a form: `sending` is true while it runs (the button says so), the
 * answer goes to `answer`, and a server that can't be reached (offline, timeout) or a throw in
 * `answer` goes to `failed`. `submitting` makes the whole submit busy from the first click (the
 * human check before the POST included) and ignores a second click meanwhile: the busy count is
 * a ref, so it holds before React has re-rendered the disabled button.
 */
export function useSend() {
  const [sending, setSending] = useState(false);
  const busy = useRef(0);
  async function busyWhile(fn: () => Promise<void>) {
    busy.current++;
    setSending(true);
    try {
      await fn();
    } finally {
      if (--busy.current === 0) setSending(false);
    }
  }
  async function send<T>(url: string, body: unknown, answer: (res: JsonResult<T>) => Promise<void>, failed: () => Promise<void>) {
    await busyWhile(async () => {
      try {
        await answer(await request<T>('POST', url, { body }));
      } catch {
        await failed();
      }
    });
  }
  async function submitting(fn: () => Promise<void>) {
    if (busy.current > 0) return;
    await busyWhile(fn);
  }
  return { sending, send, submitting };
}

/**
 * A controlled form checked in the browser by the schema the server uses: its values (text
 * typed before hydration is taken in), the field errors of the last check, and useSend. After a
 * failed check, in the browser or on the server, focus moves to the first field in error.
 */
export function useForm<V extends Record<string, string>>(empty: V) {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Bumped on each failed check: the effect runs after the render that marks the fields.
  const [failedChecks, setFailedChecks] = useState(0);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useDomValues(formRef, setValues);
  const { sending, send, submitting } = useSend();

  useEffect(() => {
    if (failedChecks > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failedChecks]);

  const set = (k: keyof V) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  function showIssues(issues: FieldIssue[]) {
    setErrors(fieldErrors(issues));
    setFailedChecks((n) => n + 1);
  }

  /** What the schema makes of `input`, or null once the field errors are shown. */
  function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | null {
    const result = check(schema, input);
    if (!result.ok) {
      showIssues(result.issues);
      return null;
    }
    setErrors({});
    return result.data;
  }

  /**
   * A server's 400 `{issues}` shown like the browser's check: true when one names a field of
   * this form (the caller then needs no dialog), false otherwise.
   */
  function serverIssues(data: object): boolean {
    const issues = issuesNaming(data, (name) => name in values);
    if (!issues) return false;
    showIssues(issues);
    return true;
  }

  return { values, setValues, set, errors, hydrated, formRef, sending, send, submitting, validate, serverIssues };
}
