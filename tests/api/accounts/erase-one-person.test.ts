/**
 * Erasure touches one person only (issue 29, decision 0029), on PGlite and PostgreSQL:
 * - deleting `ann-…@` leaves `joann-…@`'s and `hann-…@`'s mails (sent and unsent, to them and
 *   to the teacher about them) and their bounce and complaint suppressions exactly as they were,
 *   even when Ann's name is the teacher's brand, which every mail carries;
 * - strangers asking for login links to her address spend their allowance, not the one her own
 *   deletion request needs.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { queueMails, suppressAddress } from '../../../api/mail/outbox.repo.ts';
import { canonicalMailbox } from '../../../api/services/limits.ts';
import { deletionToken } from '../../../api/accounts/deletion-mails.ts';
import { brandNames } from '../../../api/site/brand.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { createUser } from '../../helpers/auth.ts';

const server = useTestServer({ resetRateLimits: true });

type Person = Awaited<ReturnType<typeof createUser>>;

/** Everything the three mail tables hold, each row as text, keyed by what identifies it. */
async function mailTables() {
  const { db } = server.services;
  const [outbox, mails, suppressions] = await Promise.all([
    db.selectFrom('mailOutbox').selectAll().orderBy('id').execute(),
    db.selectFrom('mails').selectAll().orderBy('id').execute(),
    db.selectFrom('mailSuppressions').selectAll().orderBy('email').execute(),
  ]);
  return { outbox, mails, suppressions };
}

/** A login link and a contact message (which tells the teacher about them), through the API. */
async function mailsFor(p: Person, name: string) {
  expect((await server.api('/api/user/login', { method: 'POST', json: { email: p.email } })).status).toBe(200);
  const contact = await server.api('/api/contact', {
    method: 'POST',
    json: { name, email: p.email, message: `Hello from ${name}`, recaptchaToken: 'dev:contact_form_submit' },
  });
  expect(contact.status).toBe(200);
}

describe(`erasing one account on ${testDbKind()}`, () => {
  it("deleting ann@ leaves joann@'s and hann@'s mails and suppressions as they were, though her name is the teacher's", async () => {
    const { db, env } = server.services;
    const r = randomBytes(3).toString('hex');
    // Her full name is in the signature of every mail the site sends.
    const [first, ...rest] = (await brandNames(db)).yoga.split(' ');
    const ann = await createUser(server, { email: `ann-${r}@example.com`, firstName: first, lastName: rest.join(' ') });
    const joann = await createUser(server, { email: `joann-${r}@example.com`, firstName: 'Jo', lastName: 'Ann' });
    const hann = await createUser(server, { email: `hann-${r}@example.com`, firstName: 'Han', lastName: 'Nah' });
    await mailsFor(ann, 'Ann Example');
    await mailsFor(joann, 'Jo Ann');
    await mailsFor(hann, 'Han Nah');
    // One of joann's never left (still pending), and one to the teacher about hann failed.
    await db.transaction().execute((trx) => queueMails(trx, 'test-pending', [{ to: joann.email, subject: `For ${ann.email}`, text: `${first} says hi` }]));
    await db
      .transaction()
      .execute((trx) => queueMails(trx, 'test-about', [{ to: env.TEACHER_EMAIL, about: hann.email, subject: 'About Han', text: `Signed ${first}` }]));
    await suppressAddress(db, hann.email, 'bounced', 'mailbox full');
    await suppressAddress(db, joann.email, 'complained', null);
    // Her own way out: the mailed link (asked before her address bounced, or it would not leave).
    expect((await server.api(`/api/user/${ann.id}/delete-request`, { method: 'POST', headers: { cookie: ann.cookie } })).status).toBe(200);
    await suppressAddress(db, ann.email, 'bounced', null);

    const before = await mailTables();
    const annBox = canonicalMailbox(ann.email);
    const others = {
      outbox: before.outbox.filter((m) => m.about !== annBox),
      suppressions: before.suppressions.filter((s) => s.email !== annBox),
    };
    const othersKeys = new Set(others.outbox.map((m) => `mail/${m.id}`));
    const othersMails = before.mails.filter((m) => m.idempotencyKey && othersKeys.has(m.idempotencyKey));
    // The test means something: Ann's rows are there, and the others' carry her address and name as substrings.
    expect(before.outbox.filter((m) => m.about === annBox).length).toBeGreaterThanOrEqual(4);
    expect(others.outbox.filter((m) => m.to.includes(ann.email)).length).toBeGreaterThanOrEqual(2);
    expect(others.outbox.filter((m) => m.about === canonicalMailbox(joann.email) && m.to === env.TEACHER_EMAIL)).toHaveLength(1);
    // (The outbox holds their words sealed, and drops them once sent: the delivered copies show her name.)
    expect(othersMails.filter((m) => m.text.includes(`${first} ${rest.join(' ')}`)).length).toBeGreaterThanOrEqual(3);
    expect(othersMails.length).toBeGreaterThanOrEqual(4);

    const done = await server.api('/api/user/delete-account', { method: 'POST', json: { token: deletionToken(env, ann.id) } });
    expect(done.status).toBe(200);

    const after = await mailTables();
    expect(after.outbox).toEqual(others.outbox);
    expect(after.suppressions).toEqual(others.suppressions);
    expect(after.mails.filter((m) => othersMails.some((o) => o.id === m.id))).toEqual(othersMails);
    // Her address itself (not as the tail of joann's) is nowhere.
    const hers = new RegExp(`(?<![\\w.+-])${ann.email.replace(/[.]/g, '\\.')}`);
    for (const m of [...after.mails, ...after.outbox]) expect(`${m.to} ${m.text}`).not.toMatch(hers);
    expect(after.suppressions.map((s) => s.email).sort()).toEqual([joann.email, hann.email].sort());
  });

  it('a mailbox another account also delivers to keeps its suppression and that account’s mails', async () => {
    const { db } = server.services;
    const r = randomBytes(3).toString('hex');
    const plain = await createUser(server, { email: `bea${r}@gmail.com` });
    const dotted = await createUser(server, { email: `b.e.a${r}@gmail.com` });
    await mailsFor(plain, 'Bea One');
    await mailsFor(dotted, 'Bea Two');
    await suppressAddress(db, plain.email, 'bounced', null);
    const kept = (await mailTables()).outbox.filter((m) => m.accountId === dotted.id);
    expect(kept.length).toBeGreaterThanOrEqual(1);

    const admin = await import('../../helpers/auth.ts').then((m) => m.adminCookie(server));
    expect((await server.api(`/api/admin/users/${plain.id}/erase`, { method: 'POST', headers: { cookie: admin } })).status).toBe(200);
    const after = await mailTables();
    expect(after.outbox.filter((m) => m.accountId === plain.id)).toEqual([]);
    expect(after.outbox.filter((m) => m.accountId === dotted.id)).toEqual(kept);
    expect(after.suppressions.map((s) => s.email)).toContain(canonicalMailbox(dotted.email));
  });

  it('after strangers spend the mails of her address, her own deletion request still goes through; it has an allowance of its own', async () => {
    const r = randomBytes(3).toString('hex');
    const client = await createUser(server, { email: `leaving-${r}@example.com` });
    let refused = false;
    for (let i = 0; i < 8 && !refused; i++) {
      const res = await server.api('/api/user/login', { method: 'POST', json: { email: client.email } });
      refused = res.status === 429;
    }
    // Her address has had its mails for the hour: a stranger's next login request is refused.
    expect(refused).toBe(true);
    const ask = () => server.api(`/api/user/${client.id}/delete-request`, { method: 'POST', headers: { cookie: client.cookie } });
    const first = await ask();
    expect(first.status).toBe(200);
    // Hers is bounded too, by her own account's allowance.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask()).status);
    expect(statuses).toContain(429);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
  });
});
