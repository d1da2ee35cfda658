import { describe, expect, it } from 'vitest';
import { extractLinks, MailError } from '../../../api/services/mail/index.ts';
import { maskedAddress } from '../../../api/mail/send.ts';

describe('extractLinks', () => {
  it('takes hrefs from the html with &amp; decoded', () => {
    const html = '<p><a href="https://example.com/confirm?token=abc&amp;booking=42">Confirm</a></p>';
    expect(extractLinks(html, '')).toEqual(['https://example.com/confirm?token=abc&booking=42']);
  });

  it('takes http and https links from the plain text', () => {
    const text = 'Confirm here: https://example.com/c?x=1\nOr visit http://localhost:4321/dev/mailbox today.';
    expect(extractLinks('', text)).toEqual(['https://example.com/c?x=1', 'http://localhost:4321/dev/mailbox']);
  });

  it('stops a text link at whitespace, angle brackets, quotes and closing parentheses', () => {
    const text = 'a <https://a.example/x> b (https://b.example/y) c "https://c.example/z" d [https://d.example/w]';
    expect(extractLinks('', text)).toEqual(['https://a.example/x', 'https://b.example/y', 'https://c.example/z', 'https://d.example/w']);
  });

  it('de-duplicates links found in both parts, keeping the first appearance order', () => {
    const html = '<a href="https://example.com/b">B</a> <a HREF = "https://example.com/a?x=1&amp;y=2">A</a> <a href="https://example.com/b">B again</a>';
    const text = 'A: https://example.com/a?x=1&y=2 B: https://example.com/b C: https://example.com/c';
    expect(extractLinks(html, text)).toEqual(['https://example.com/b', 'https://example.com/a?x=1&y=2', 'https://example.com/c']);
  });

  it('drops mailto:, tel:, relative and fragment links', () => {
    const html =
      '<a href="mailto:teacher@example.com">Mail</a><a href="tel:+15551234">Call</a><a href="/relative">R</a><a href="#top">Top</a><a href="https://example.com/ok">OK</a>';
    const text = 'Write to mailto:teacher@example.com';
    expect(extractLinks(html, text)).toEqual(['https://example.com/ok']);
  });

  it('returns an empty list when there are no links', () => {
    expect(extractLinks('<p>Hello</p>', 'Hello')).toEqual([]);
  });
});

describe('MailError', () => {
  it('is an Error with a name and the status', () => {
    const e = new MailError('refused', 429);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('MailError');
    expect(e.status).toBe(429);
    expect(e.message).toBe('refused');
  });
});

describe('maskedAddress', () => {
  // The outbox logs a failed try with it (api/mail/outbox.ts): enough to tell mails apart, not to read who.
  it('keeps the first letter and the domain only', () => {
    expect(maskedAddress('ana.lima@example.com')).toBe('a…@example.com');
    expect(maskedAddress('not-an-address')).toBe('…');
  });
});
