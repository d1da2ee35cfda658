/**
 * Reading back what the CSV exports write, for the tests only: RFC 4180 with quoted fields,
 * doubled quotes and CRLF rows. Text after the last CRLF (a row left unterminated) is dropped:
 * a test that cares checks the file's end itself.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

/** A decimal amount as the exports write it ("12.34"), in cents. */
export const cents = (decimal: string) => Math.round(Number(decimal) * 100);

/** The income figures' columns (issue 30), named alike in Finances' CSV and the Tax year's, after each one's first column. */
export const INCOME_COLUMNS = [
  'Shop sales (net of sales tax)',
  'Session payments kept',
  'Class places kept (paid workshops)',
  'Tastings (deposits and balances)',
  'Gigs paid',
  'Gigs paid with tax withheld',
  'Income (shop + sessions + classes + tastings + gigs)',
  'Sales tax collected (passes through)',
  'Refunds (orders + sessions + classes)',
  'Refunded orders (tax included)',
  'Refunded sessions',
  'Refunded class places',
  'Sales tax refunded',
];
