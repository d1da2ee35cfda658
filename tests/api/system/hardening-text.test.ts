/**
 * Text a visitor or the admin writes (issue 21, "the limits that still give way"): bidi controls
 * that turn text around (U+202E and its kin) are refused with a clear 400 wherever free text is
 * taken, nothing stored and nothing mailed; names spell with the zero-width non-joiner and joiner
 * that Persian, Hindi and other scripts need.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bidiControlsMessage } from '../../../contract/common.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { readMailbox } from '../../helpers/mail.ts';

const kind = testDbKind();
const server = useTestServer({ resetRateLimits: true });
let cookie: string;
let n = 0;
const email = (what: string) => `${what}-${Date.now().toString(36)}-${++n}@example.com`;
// RIGHT-TO-LEFT OVERRIDE: "Pay at gnp.exe" shows as "Pay at exe.png".
const RLO = '\u202e';
// A Persian name with a zero-width non-joiner (U+200C) between the parts of the first name's word.
const PERSIAN = 'مهرداد\u200c کاظمی';

beforeAll(async () => {
  cookie = await adminCookie(server);
});

describe(`bidi controls in free text on ${kind}`, () => {
  it('refuses one in a contact message with a clear 400, storing and mailing nothing', async () => {
    const visitor = email('bidi');
    const before = await server.services.db
      .selectFrom('contactMessages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const control of [RLO, '\u202d', '\u2067', '\u2066']) {
      const res = await server.api('/api/contact', {
        method: 'POST',
        json: { name: 'Ana Lima', email: visitor, message: `Please pay at ${control}gnp.exe`, recaptchaToken: 'dev:contact_form_submit' },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(`message: ${bidiControlsMessage('Message')}`);
    }
    const after = await server.services.db
      .selectFrom('contactMessages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await readMailbox(server, visitor)).toEqual([]);
  });

  it('refuses one in the announcement with a clear 400, and keeps the one that was live', async () => {
    const ok = await server.api('/api/admin/announcement', { method: 'PUT', headers: { cookie }, json: { message: 'Studio closed on Monday', link: '' } });
    expect(ok.status).toBe(200);
    const res = await server.api('/api/admin/announcement', {
      method: 'PUT',
      headers: { cookie },
      json: { message: `Studio closed ${RLO}yadnoM no`, link: '' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(`message: ${bidiControlsMessage('Message')}`);
    const live = (await (await server.api('/api/announcement')).json()) as { announcement: { message: string } | null };
    expect(live.announcement?.message).toBe('Studio closed on Monday');
  });

  it('keeps the marks right-to-left writing uses in a message', async () => {
    const visitor = email('rtl');
    const message = 'سلام\u200f! می\u200cخواهم یک جلسه رزرو کنم.';
    const res = await server.api('/api/contact', {
      method: 'POST',
      json: { name: 'Ana Lima', email: visitor, message, recaptchaToken: 'dev:contact_form_submit' },
    });
    expect(res.status).toBe(200);
    const stored = await server.services.db.selectFrom('contactMessages').select('message').where('email', '=', visitor).executeTakeFirstOrThrow();
    expect(stored.message).toBe(message);
  });
});

describe(`names with ZWNJ and ZWJ on ${kind}`, () => {
  it('takes a Persian name with a ZWNJ in a contact message and greets the visitor by it', async () => {
    const visitor = email('persian');
    const res = await server.api('/api/contact', {
      method: 'POST',
      json: { name: PERSIAN, email: visitor, message: 'سلام', recaptchaToken: 'dev:contact_form_submit' },
    });
    expect(res.status).toBe(200);
    const stored = await server.services.db.selectFrom('contactMessages').select('name').where('email', '=', visitor).executeTakeFirstOrThrow();
    expect(stored.name).toBe(PERSIAN);
    expect((await readMailbox(server, visitor))[0]?.text).toContain(PERSIAN);
  });

  it('registers an account under a Persian name with a ZWNJ, and a Hindi one with a ZWJ', async () => {
    for (const [firstName, lastName] of [
      ['مهرداد\u200c', 'کاظمی'],
      ['क्\u200dषमा', 'शर्मा'],
    ]) {
      const address = email('account');
      const res = await server.api('/api/user/register', { method: 'POST', json: { firstName, lastName, email: address, recaptchaToken: 'dev:register' } });
      expect(res.status, firstName).toBe(200);
      const user = await server.services.db.selectFrom('users').select(['firstName', 'lastName']).where('email', '=', address).executeTakeFirstOrThrow();
      expect(user).toEqual({ firstName, lastName });
    }
  });

  it('still refuses a zero-width space, and a joiner hidden between Latin letters, in a name', async () => {
    for (const name of ['Ana\u200b Lima', 'A\u200dna Lima']) {
      const res = await server.api('/api/contact', {
        method: 'POST',
        json: { name, email: email('hidden'), message: 'hi', recaptchaToken: 'dev:contact_form_submit' },
      });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await res.json()).message).toMatch(/must not contain invisible characters/);
    }
  });
});

describe(`one inbox, one allowance on ${kind} (issue 29)`, () => {
  it('takes an address with its domain’s trailing dot as the same address: one account, its login link, one allowance', async () => {
    const address = email('fqdn');
    const res = await server.api('/api/user/register', {
      method: 'POST',
      json: { firstName: 'Dot', lastName: 'Ted', email: `${address.toUpperCase()}.`, recaptchaToken: 'dev:register' },
    });
    expect(res.status).toBe(200);
    const users = await server.services.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', `${address.split('@')[0]}%`)
      .execute();
    expect(users).toEqual([{ email: address }]);
    // The dotted spelling logs the same account in, and spends the same allowance (five an hour, the registration's mail one of them).
    for (let i = 0; i < 4; i++) {
      const login = await server.api('/api/user/login', { method: 'POST', json: { email: i % 2 ? address : `${address}.` } });
      expect(login.status, `login ${i + 1}`).toBe(200);
    }
    expect((await readMailbox(server, address)).some((m) => m.text.includes('/verify-login?token='))).toBe(true);
    expect((await server.api('/api/user/login', { method: 'POST', json: { email: `${address}.` } })).status).toBe(429);
  });

  it('refuses a quoted name, which would be a second spelling of one mailbox', async () => {
    const [local, domain] = email('quoted').split('@');
    for (const path of ['/api/user/login', '/api/subscribers/subscribe']) {
      const res = await server.api(path, { method: 'POST', json: { email: `"${local}"@${domain}`, recaptchaToken: 'dev:subscribe' } });
      expect(res.status, path).toBe(400);
      expect((await res.json()).message).toMatch(/valid email address/);
    }
  });
});
