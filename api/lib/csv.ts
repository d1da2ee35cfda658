/**
 * CSV for the admin's exports, as spreadsheets open it (decision 0019): RFC 4180 (CRLF between
 * rows, a field with a comma, quote, CR or LF in double quotes, quotes doubled), UTF-8 with a
 * byte-order mark (so Excel reads "é" and "€" as such), and formula injection neutralised: a
 * text cell starting with =, +, -, @, tab or CR gets a leading ' so no spreadsheet runs what a
 * visitor typed into a form (OWASP's CSV injection advice).
 */
export type Cell = string | number | boolean | null | undefined;

export const BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  // Numbers and booleans are ours, never a visitor's: only text can smuggle a formula.
  if (typeof value === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The whole file: BOM, header row, one row per record, each line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return BOM + [header, ...rows].map((r) => r.map(csvCell).join(',') + '\r\n').join('');
}

/** Cents as a plain decimal a spreadsheet sums: 1850 -> "18.50". */
export const decimal = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
