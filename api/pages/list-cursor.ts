/**
 * The cursor of a list answered a page at a time (issue 36, decision 0047): the sort key of the
 * last row of a page, as opaque text the client sends back as `after`. Written for the journal's
 * admin list and kept free of it (a tuple of strings, checked against a pattern each), so the
 * other admin lists can share it.
 */

/** `values` (the last row's sort key, each as text) as a cursor. */
export const encodeCursor = (values: readonly string[]): string => Buffer.from(JSON.stringify(values)).toString('base64url');

/** The sort key a cursor carries when it has one string per pattern, each matching its pattern; else undefined. */
export function decodeCursor(cursor: string, patterns: readonly RegExp[]): string[] | undefined {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== patterns.length) return undefined;
  return values.every((v, i) => typeof v === 'string' && patterns[i]!.test(v)) ? (values as string[]) : undefined;
}

/** A timestamptz as PostgreSQL writes it as text (ISO DateStyle): what a cursor on a time carries, exact to the microsecond. */
export const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;
