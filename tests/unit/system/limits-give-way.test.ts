/**
 * Issue 21, "the limits that still give way", the pure parts: the canonical mailbox a
 * per-recipient allowance counts, which peers may set X-Forwarded-For (TRUSTED_PROXIES), the
 * text request log escaping what a path can smuggle in, and the bidi controls every free text
 * refuses. The API tests (tests/api/system/limits.test.ts, tests/api/system/hardening-text.test.ts) show the
 * same rules over HTTP.
 */
import { describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { canonicalMailbox } from '../../../api/services/limits.ts';
import { isTrustedProxy } from '../../../api/middleware/client.ts';
import { escapeForLog, requestLog } from '../../../api/middleware/request-log.ts';
import { isIpOrCidr, loadEnv } from '../../../api/env.ts';
import { bidiControlsMessage, hasNoBidiControls, isCleanText, optionalText, requiredText } from '../../../contract/common.ts';
import { contactMessage } from '../../../contract/forms.ts';
import { announcementInput, newsletterDraft } from '../../../contract/backoffice.ts';
import { altText } from '../../../contract/galleries.ts';

describe('canonicalMailbox', () => {
  it('drops a +tag for every domain and lower-cases', () => {
    expect(canonicalMailbox('Victim+1@Example.com')).toBe('victim@example.com');
    expect(canonicalMailbox(' victim+a+b@example.org ')).toBe('victim@example.org');
    expect(canonicalMailbox('first.last+news@example.com')).toBe('first.last@example.com');
  });
  it('drops dots for Gmail and takes googlemail.com as gmail.com', () => {
    expect(canonicalMailbox('V.I.C.T.I.M+x@gmail.com')).toBe('victim@gmail.com');
    expect(canonicalMailbox('vic.tim@googlemail.com')).toBe('victim@gmail.com');
    // Elsewhere a dot is part of the name.
    expect(canonicalMailbox('vic.tim@example.com')).toBe('vic.tim@example.com');
  });
  it('leaves what it cannot read as it is', () => {
    expect(canonicalMailbox('+tag@example.com')).toBe('+tag@example.com');
    expect(canonicalMailbox('no-at-sign')).toBe('no-at-sign');
  });
});

describe('TRUSTED_PROXIES', () => {
  it('defaults to loopback and validates each entry', () => {
    expect(loadEnv({ NODE_ENV: 'test' }).TRUSTED_PROXIES).toEqual(['127.0.0.1', '::1']);
    expect(loadEnv({ NODE_ENV: 'test', TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.7 ,fd00::/8' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    expect(() => loadEnv({ NODE_ENV: 'test', TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadEnv({ NODE_ENV: 'test', TRUSTED_PROXIES: 'balancer.internal' })).toThrow(/not an IP address or a CIDR range/);
    expect(isIpOrCidr('::1/128')).toBe(true);
    expect(isIpOrCidr('1.2.3.4/8/1')).toBe(false);
  });
  it('matches addresses and ranges, IPv4 seen through a dual-stack socket too', () => {
    const proxies = ['127.0.0.1', '::1', '10.0.0.0/8'];
    for (const yes of ['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.20.30.40', '::ffff:10.1.1.1']) expect(isTrustedProxy(yes, proxies), yes).toBe(true);
    for (const no of ['127.0.0.2', '192.0.2.1', '::2', '11.0.0.1', '', 'local', undefined]) expect(isTrustedProxy(no, proxies), String(no)).toBe(false);
  });
});

describe('the text request log', () => {
  it('escapes control characters as JSON does, and the bidi and C1 controls too', () => {
    expect(escapeForLog('/a\r\nGET /admin 200 1ms forged\u0000')).toBe('/a\\r\\nGET /admin 200 1ms forged\\u0000');
    expect(escapeForLog('tab\there\\')).toBe('tab\\there\\\\');
    expect(escapeForLog('\u202egnp.exe\u009b31m\u2028')).toBe('\\u202egnp.exe\\u009b31m\\u2028');
    expect(escapeForLog('/api/events/Ana')).toBe('/api/events/Ana');
  });

  it('writes one line per request however the path tries to break it', async () => {
    const app = new Hono();
    app.use('*', requestLog({ quiet: false, format: 'text', trustProxy: 0 }));
    app.get('*', (c) => c.json({ ok: true }, 404));
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      await app.request('/api/x%0D%0AGET%20/api/admin%20200%201ms%20forged%00%1B%5B31m');
    } finally {
      log.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(lines[0]).toContain('/api/x\\r\\nGET /api/admin 200 1ms forged\\u0000\\u001b[31m 404 ');
  });
});

describe('bidi controls in free text', () => {
  const rlo = 'Hello \u202egnp.exe';
  it('are refused by every text field, with a message that names them', () => {
    expect(hasNoBidiControls(rlo)).toBe(false);
    expect(isCleanText(rlo)).toBe(false);
    for (const ch of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(requiredText('Title').safeParse(`a${ch}b`).error?.issues[0]?.message).toBe(bidiControlsMessage('Title'));
      expect(optionalText('Notes').safeParse(`a${ch}b`).error?.issues[0]?.message).toBe(bidiControlsMessage('Notes'));
    }
    expect(contactMessage.safeParse({ name: 'Ana', email: 'ana@example.com', message: rlo }).error?.issues[0]?.message).toBe(bidiControlsMessage('Message'));
    expect(announcementInput.safeParse({ message: rlo, link: '' }).error?.issues[0]?.message).toBe(bidiControlsMessage('Message'));
    expect(newsletterDraft.safeParse({ subject: 'News', body: rlo }).error?.issues[0]?.message).toBe(bidiControlsMessage('Body'));
    expect(altText.safeParse(rlo).error?.issues[0]?.message).toBe(bidiControlsMessage('Alt text'));
  });
  it('while right-to-left writing keeps its marks and joiners, and emoji their joiners', () => {
    for (const ok of ['سلام\u200f! می\u200cخواهم بیایم.', 'Hi \u200e(שלום)', 'We ❤️ 🧘🏽‍♀️']) {
      expect(contactMessage.safeParse({ name: 'Ana', email: 'ana@example.com', message: ok }).success, ok).toBe(true);
    }
  });
});
