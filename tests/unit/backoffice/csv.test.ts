/** The exports' CSV (api/lib/csv.ts): RFC 4180 quoting, the BOM, formula injection neutralised. */
import { describe, expect, it } from 'vitest';
import { BOM, csvCell, decimal, toCsv } from '../../../api/lib/csv.ts';

describe('csvCell', () => {
  it('quotes fields with a comma, quote, CR or LF and doubles the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('neutralises text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a=1')).toBe('a=1');
    // Our own numbers are never a visitor's formula.
    expect(csvCell(-5)).toBe('-5');
  });
});

describe('toCsv', () => {
  it('starts with a BOM and ends every row with CRLF', () => {
    expect(toCsv(['A', 'B'], [['1', 'x,y']])).toBe(`${BOM}A,B\r\n1,"x,y"\r\n`);
  });
});

describe('decimal', () => {
  it('writes cents as dollars without float rounding', () => {
    expect(decimal(0)).toBe('0.00');
    expect(decimal(5)).toBe('0.05');
    expect(decimal(123456789)).toBe('1234567.89');
  });
});
