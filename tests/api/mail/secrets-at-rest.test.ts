/**
 * Issue 47 (decision 0052): no secret at rest in clear. "A dump or a backup must hold nothing
 * that spends or opens." Over HTTP, through the real Resend client against a local fake of its
 * API (so only production code paths store mails): every kind of mail that carries a secret — a
 * gift card she issued for today (code and print link), a card bought through PayPal for later
 * (the receipt's change link) and its delivery on its day, a login link, a login link the
 * provider refused (failed: it stays in the outbox), the deletion link, a tasting's pay link, a
 * subscriber's unsubscribe link. Each secret is read from what the fake Resend received; then
 * none of them (with and without dashes, URL-encoded too) is found in `pg_dump` (PostgreSQL) or
 * in any file of the PGlite folder, its WAL included, nor in a backup made by the app, once
 * decompressed. A site restored from that backup refuses every code-like and token-like string
 * the dump and the backup hold, and a stranger with only the copy cannot redirect a card (404).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server.ts';
import { backupPglite, backupPostgres, pgTool } from '../../../api/backups/backup.ts';
import { restoreDatabase } from '../../../api/backups/restore.ts';
import { deliverDueCards } from '../../../api/gift-cards/gift-cards.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { testServerEnv, useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { itemAt } from '../../helpers/guards.ts';

const kind = testDbKind();

/** What the fake Resend took: each mail's recipient and every word it carried. */
interface Received {
  to: string;
  subject: string;
  words: string;
}
const received: Received[] = [];
/** Addresses the fake Resend refuses (422): their mails fail for good and stay in the outbox. */
const refusing = new Set<string>();
let resend: FakeServer;
let work: string;
let pgliteDir: string | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'secrets-at-rest-'));
  if (kind === 'pglite') pgliteDir = join(work, 'pglite');
  resend = await startFakeServer((req) => {
    if (req.method !== 'POST' || !req.url.startsWith('/emails')) return { status: 404, body: { statusCode: 404, name: 'not_found', message: 'no' } };
    const mail = JSON.parse(req.body) as { to: string | string[]; subject: string; text?: string; html?: string; headers?: Record<string, string> };
    const to = [mail.to].flat()[0]!;
    if (refusing.has(to)) return { status: 422, body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' } };
    received.push({ to, subject: mail.subject, words: [mail.subject, mail.text ?? '', mail.html ?? '', JSON.stringify(mail.headers ?? {})].join('\n') });
    return { status: 200, body: { id: `email-${received.length}` } };
  });
});

// Registered after the fake Resend's start: the server is given its address.
const server = useTestServer({
  resetRateLimits: true,
  env: () => ({ RESEND_API_KEY: 're_secrets_test', RESEND_BASE_URL: resend.url, ...(pgliteDir ? { PGLITE_DIR: pgliteDir } : {}) }),
});

const restoredDatabases: FreshDatabase[] = [];
let restored: RunningServer | undefined;
afterAll(async () => {
  await restored?.close().catch(() => {});
  for (const d of restoredDatabases) await d.drop().catch(() => {});
  await resend?.close();
  rmSync(work, { recursive: true, force: true });
  if (pgliteDir) rmSync(`${pgliteDir}.private-records-key`, { force: true });
});

const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
let n = 0;
const address = (who: string) => `${who}-${Date.now().toString(36)}-${++n}@example.com`;
const mailsTo = (to: string) => received.filter((m) => m.to === to);

const GROUP = '[2-9A-HJ-NP-Z]{4}';
const CODE = new RegExp(`${GROUP}-${GROUP}-${GROUP}-${GROUP}`, 'g');
const TOKEN = /token=([A-Za-z0-9_.~%-]+)/g;

/** Every code and every token the received mails carry. */
function secretsOf(mails: readonly Received[]) {
  const codes = new Set<string>();
  const tokens = new Set<string>();
  for (const { words } of mails) {
    for (const [code] of words.matchAll(CODE)) codes.add(code);
    // Tokens as the links carry them (URL-encoded, in html with &amp; around them): decoded.
    for (const [, token] of words.matchAll(TOKEN)) tokens.add(decodeURIComponent(token!));
  }
  return { codes: [...codes], tokens: [...tokens] };
}

/** Each secret as it could sit in a file: a code with and without dashes, a token plain and URL-encoded. */
function needlesOf(secrets: { codes: string[]; tokens: string[] }): string[] {
  const needles = new Set<string>();
  for (const code of secrets.codes) {
    needles.add(code);
    needles.add(code.replace(/-/g, ''));
  }
  for (const token of secrets.tokens) {
    needles.add(token);
    needles.add(encodeURIComponent(token));
  }
  return [...needles];
}

/** The needles `bytes` holds (searched as bytes: a data file is not text). */
const foundIn = (bytes: Buffer, needles: readonly string[]) => needles.filter((s) => bytes.includes(Buffer.from(s, 'utf8')));

function run(command: string, args: string[]): Promise<Buffer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${command} exited ${code}: ${err}`)))),
  );
}

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

/** Strings in a copy of the database shaped like a code or a link's token: what a thief would try. */
function harvest(bytes: Buffer) {
  const text = bytes.toString('latin1');
  const codes = new Set<string>();
  for (const [code] of text.matchAll(new RegExp(`(?<![A-Za-z0-9])(?:${GROUP}-?){3}${GROUP}(?![A-Za-z0-9])`, 'g'))) codes.add(code);
  const tokens = new Set<string>();
  for (const [, token] of text.matchAll(TOKEN)) tokens.add(decodeURIComponent(token!));
  // A link token's shape (128 bits in base64url) standing alone.
  for (const [token] of text.matchAll(/(?<![A-Za-z0-9_+/-])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_+/=-])/g)) tokens.add(token);
  return { codes, tokens };
}

describe(`no secret at rest in clear, on ${kind}`, () => {
  const cards: { id: string; delivered: boolean }[] = [];
  let laterCard: string;
  let quoteId: string;
  let secrets: { codes: string[]; tokens: string[] };
  let needles: string[];
  let backupFile: string;
  const harvested = { codes: new Set<string>(), tokens: new Set<string>() };
  const keep = (found: ReturnType<typeof harvest>) => {
    found.codes.forEach((c) => harvested.codes.add(c));
    found.tokens.forEach((t) => harvested.tokens.add(t));
  };

  it('every kind of mail that carries a secret leaves through Resend, and once sent its words are gone from the outbox', async () => {
    const cookie = await adminCookie(server);

    // A card she issues for today: the recipient's mail carries the code and the print link.
    const issued = await server.api('/api/admin/gift-cards', {
      method: 'POST',
      headers: { cookie },
      json: { amountCents: 5_000, recipientName: 'Rae Gift', recipientEmail: address('rae'), message: 'For the raffle', design: 'chocolates' },
    });
    expect(issued.status, await issued.clone().text()).toBe(201);
    cards.push({ id: ((await issued.json()) as { _id: string })._id, delivered: true });

    // Two cards bought through PayPal for later: the receipts carry the change links; the first is delivered on its day.
    for (const days of [7, 10]) {
      const made = await server.api('/api/gift-cards/paypal-order', { method: 'POST', json: { amountCents: 10_000 } });
      expect(made.status).toBe(200);
      const { orderID } = (await made.json()) as { orderID: string };
      const approved = await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Bea', surname: 'Buyer' } });
      expect(approved.status).toBe(200);
      const bought = await server.api('/api/gift-cards', {
        method: 'POST',
        json: {
          paypalOrderId: orderID,
          amountCents: 10_000,
          design: 'yoga',
          buyerName: 'Bea Buyer',
          buyerEmail: address('bea'),
          recipientName: 'Rae Later',
          recipientEmail: address('rae-later'),
          message: 'Happy birthday',
          sendOn: addDays(today(), days),
        },
      });
      expect(bought.status, await bought.clone().text()).toBe(201);
      cards.push({ id: ((await bought.json()) as { _id: string })._id, delivered: days === 7 });
    }
    laterCard = itemAt(cards, 2).id;
    await deliverDueCards(server.services, addDays(today(), 7));

    // A login link; one more the provider refuses for good (it stays in the outbox, failed).
    const client = await createUser(server, { email: address('ana'), firstName: 'Ana' });
    expect((await server.api('/api/user/login', { method: 'POST', json: { email: client.email } })).status).toBe(200);
    const typo = await createUser(server, { email: address('typo'), firstName: 'Tia' });
    refusing.add(typo.email);
    expect((await server.api('/api/user/login', { method: 'POST', json: { email: typo.email } })).status).toBe(503);

    // Her account's deletion link.
    expect((await server.api(`/api/user/${client.id}/delete-request`, { method: 'POST', headers: { cookie: client.cookie } })).status).toBe(200);

    // A tasting's pay link.
    const requested = await server.api('/api/tastings', {
      method: 'POST',
      json: {
        name: 'Tess Taster',
        email: address('tess'),
        phone: '123-456-7890',
        occasion: 'Team retreat',
        guests: 18,
        dates: [addDays(today(), 20), addDays(today(), 21)],
        place: '12 Cacao Lane, Portland',
        recaptchaToken: 'dev:tasting_request',
      },
    });
    expect(requested.status, await requested.clone().text()).toBe(201);
    const requestId = ((await requested.json()) as { _id: string })._id;
    const quoted = await server.api(`/api/admin/tastings/${requestId}/quote`, {
      method: 'POST',
      headers: { cookie },
      json: { priceCents: 52_000, depositCents: 26_000, date: addDays(today(), 20), time: '18:00', place: '12 Cacao Lane, Portland' },
    });
    expect(quoted.status, await quoted.clone().text()).toBe(201);
    quoteId = ((await quoted.json()) as { _id: string })._id;

    // A subscriber's welcome: its unsubscribe link and List-Unsubscribe header.
    expect((await server.api('/api/subscribers/subscribe', { method: 'POST', json: { email: address('reader') } })).status).toBeLessThan(300);

    // The secrets, as the mails carried them: a code per delivered card, every link's token.
    secrets = secretsOf(received);
    expect(secrets.codes).toHaveLength(2);
    const tokenOf = (mails: Received[]) => secretsOf(mails).tokens;
    expect(received.filter((m) => /token=/.test(m.words)).length).toBeGreaterThanOrEqual(7);
    expect(tokenOf(mailsTo(client.email)).length).toBeGreaterThanOrEqual(2);
    expect(secrets.tokens.length).toBeGreaterThanOrEqual(7);
    needles = needlesOf(secrets);

    // The outbox: sent rows keep who, what kind, when and the subject, no words; the failed one stays sealed.
    const rows = await server.services.db.selectFrom('mailOutbox').selectAll().execute();
    const failed = rows.filter((r) => r.state === 'failed');
    expect(failed.map((r) => r.to)).toEqual([typo.email]);
    expect(failed[0]).toMatchObject({ subject: '', text: '', html: '' });
    expect(itemAt(failed, 0).sealed).toMatch(/^v1\./);
    for (const r of rows.filter((r) => r.state === 'sent')) {
      expect(r).toMatchObject({ text: '', html: '', headers: {}, attachments: [], keyId: null, sealed: null });
      // A mail that names someone besides its recipient (a card "from" its buyer) keeps no subject either (decision 0053).
      if (r.names.length === 0) expect(r.subject).not.toBe('');
      else expect(r.subject).toBe('');
    }
    expect(rows.filter((r) => r.state === 'sent').length).toBe(received.length);
    // Her list opens the failed one's subject, never its words.
    const unsent = await (await server.api('/api/admin/mail/unsent', { headers: { cookie } })).json();
    expect(unsent).toMatchObject([{ kind: 'login-link', to: typo.email, state: 'failed', subject: expect.stringMatching(/\S/) }]);
    expect(foundIn(Buffer.from(JSON.stringify(unsent)), needles)).toEqual([]);
  }, 60_000);

  it('pg_dump, or every file of the PGlite folder with its WAL, holds none of them', async () => {
    expect(needles, 'the mails were sent').toBeDefined();
    if (kind === 'postgres') {
      const dump = await run(pgTool('pg_dump'), [server.env.DATABASE_URL!]);
      expect(dump.length).toBeGreaterThan(10_000);
      keep(harvest(dump));
      expect(foundIn(dump, needles)).toEqual([]);
    } else {
      await sql`CHECKPOINT`.execute(server.services.db);
      const files = filesUnder(pgliteDir!);
      expect(files.some((f) => f.path.includes('pg_wal'))).toBe(true);
      const found: string[] = [];
      for (const f of files) {
        keep(harvest(f.bytes));
        found.push(...foundIn(f.bytes, needles).map((s) => `${s} in ${f.path}`));
      }
      expect(found).toEqual([]);
    }
  }, 60_000);

  it("the app's backup, decompressed, holds none of them", async () => {
    expect(needles, 'the mails were sent').toBeDefined();
    let plain: Buffer;
    if (kind === 'postgres') {
      backupFile = join(work, 'secrets.dump');
      await backupPostgres(server.env.DATABASE_URL!, backupFile);
      plain = await run(pgTool('pg_restore'), ['--file=-', backupFile]);
    } else {
      backupFile = join(work, 'secrets.tar.gz');
      await backupPglite(server.services.database.pglite!, backupFile);
      plain = gunzipSync(readFileSync(backupFile));
    }
    expect(plain.length).toBeGreaterThan(10_000);
    keep(harvest(plain));
    expect(foundIn(plain, needles)).toEqual([]);
  }, 60_000);

  it('the site restored from the backup refuses every code and token the copies hold; the redirect attack gets 404', async () => {
    expect(backupFile, 'the backup was made').toBeDefined();
    const target: Record<string, string> = {};
    if (kind === 'postgres') {
      const fresh = await freshDatabase('postgres');
      restoredDatabases.push(fresh);
      target.DATABASE_URL = fresh.env.DATABASE_URL!;
    } else {
      target.PGLITE_DIR = join(work, 'restored');
    }
    const env = testServerEnv({ APP_SECRET: server.env.APP_SECRET, ...target });
    await restoreDatabase(env, backupFile);
    restored = await startServer(env, { site: false, seedContent: false });
    const base = `http://127.0.0.1:${restored.port}`;
    const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const { json, ...rest } = init;
      return fetch(`${base}${path}`, {
        ...rest,
        headers: { 'content-type': 'application/json' },
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    };

    // The restored site works: the real code (from the recipient's mailbox) and the real change link open.
    resetRateLimits();
    const realCode = secrets.codes[0]!;
    expect((await api(`/api/gift-cards/balance?code=${encodeURIComponent(realCode)}`)).status).toBe(200);

    // What the copies hold that looks like a code or a link's token: each one tried is refused.
    // Catalogue names and the like, shaped as a token by chance: each is tried below.
    expect(harvested.codes.size + harvested.tokens.size).toBeLessThan(2_000);
    for (const code of harvested.codes) {
      resetRateLimits();
      const res = await api(`/api/gift-cards/balance?code=${encodeURIComponent(code)}`);
      expect([400, 404], code).toContain(res.status);
    }
    // A stranger with only the copy: every token-like string against every card's links, the tasting's pay page, the login.
    const tries = harvested.tokens.size ? [...harvested.tokens] : ['AAAAAAAAAAAAAAAAAAAAAA'];
    for (const token of tries) {
      resetRateLimits();
      for (const card of cards) {
        const shown = await api(`/api/gift-cards/${card.id}/delivery?token=${encodeURIComponent(token)}`);
        expect([400, 404], `${card.id} ${token}`).toContain(shown.status);
      }
      const redirect = await api(`/api/gift-cards/${laterCard}/delivery`, {
        method: 'PUT',
        json: { token, recipientName: 'Mallory', recipientEmail: 'mallory@example.com', sendOn: today() },
      });
      expect([400, 404], token).toContain(redirect.status);
      expect([400, 404], token).toContain((await api(`/api/tastings/quotes/${quoteId}?token=${encodeURIComponent(token)}`)).status);
      expect((await api('/api/user/verify-login', { method: 'POST', json: { token } })).status).toBe(400);
    }
    // The redirect attack with a token shaped right: 404, and the card still goes to its recipient.
    resetRateLimits();
    const attack = await api(`/api/gift-cards/${laterCard}/delivery`, {
      method: 'PUT',
      json: { token: tries[0], recipientName: 'Mallory', recipientEmail: 'mallory@example.com', sendOn: today() },
    });
    expect(attack.status).toBe(404);
    const still = await restored.services.db
      .selectFrom('giftCards')
      .select(['recipientEmail', 'deliveredAt'])
      .where('id', '=', laterCard)
      .executeTakeFirstOrThrow();
    expect(still.recipientEmail).not.toBe('mallory@example.com');
    expect(still.deliveredAt).toBeNull();
    // None of them was ours to begin with.
    expect([...harvested.codes, ...harvested.tokens].filter((s) => needles.includes(s))).toEqual([]);
  }, 120_000);
});
