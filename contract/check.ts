/**
 * Validation shared by the API and the islands: the same zod schema checks a form in the
 * browser and the request body on the server, and both speak of the problem the same way.
 * This module must stay free of server-only imports: islands bundle it.
 */
import type { z } from 'zod';

export interface FieldIssue {
  /** Dotted path of the field, e.g. "email" or "slots.0.time". */
  path: string;
  message: string;
}

export type Checked<T> = { ok: true; data: T } | { ok: false; message: string; issues: FieldIssue[] };

export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid input';
  return { ok: false, message, issues };
}

/** The first message per field, for showing next to inputs. */
export function fieldErrors(issues: FieldIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) out[i.path] ??= i.message;
  return out;
}

/**
 * A server's 400 `{issues}` when one of them names a field the form has (`has`, by the first part
 * of its path): those issues, to show beside the fields; else null (the form says the message).
 */
export function issuesNaming(data: object, has: (field: string) => boolean): FieldIssue[] | null {
  const given = (data as { issues?: unknown }).issues;
  const issues = Array.isArray(given) ? (given as FieldIssue[]) : [];
  return issues.some((i) => typeof i?.path === 'string' && has(i.path.split('.')[0]!)) ? issues : null;
}
