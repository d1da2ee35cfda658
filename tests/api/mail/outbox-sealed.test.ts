/**
 * The outbox's sealed words (issue 47, decision 0052), on PGlite and PostgreSQL: a queued mail's
 * words are sealed and bound to its row (moved to another row, they do not open: the mail is
 * failed with a plain reason, not sent); a clear row queued before migration 0039 still sends
 * and loses its words once sent; `npm run rotate-keys` seals waiting mails again with the new key.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { queueMails } from '../../../api/mail/outbox.repo.ts';
import { resealOutbox, sendDueMails } from '../../../api/mail/outbox.ts';
import { useOutboxKeys } from '../../../api/mail/sealed-mail.ts';
import { keyringOf } from '../../../api/lib/keys.ts';
import { loadEnv } from '../../../api/env.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const db = () => server.services.db;
const row = (id: string) => db().selectFrom('mailOutbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const later = () => new Date(Date.now() + 60_000);
const queue = (to: string, text: string) =>
  db()
    .transaction()
    .execute((trx) => queueMails(trx, 'login-link', [{ to, subject: `Your link, ${to}`, text, headers: { 'List-Unsubscribe': `<${text}>` } }]));

describe(`the outbox's sealed words on ${testDbKind()}`, () => {
  it('are sealed at rest and bound to their row: moved to another row they do not open, and that mail is failed, not sent', async () => {
    const [a] = await queue('seal-a@example.com', 'https://example.com/verify-login?token=AAAA-secret-a');
    const [b] = await queue('seal-b@example.com', 'https://example.com/verify-login?token=BBBB-secret-b');
    const stored = await row(a!);
    expect(stored).toMatchObject({ subject: '', text: '', html: '', headers: {}, attachments: [], state: 'pending' });
    expect(stored.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain('secret-a');
    // B's row given A's sealed words: they do not open there.
    await db().updateTable('mailOutbox').set({ sealed: stored.sealed, keyId: stored.keyId }).where('id', '=', b!).execute();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await sendDueMails(server.services, later())).toMatchObject({ sent: 1, failed: 1 });
    logged.mockRestore();
    expect(await row(b!)).toMatchObject({ state: 'failed', lastError: expect.stringContaining('do not open') });
    expect(await readMailbox(server, 'seal-b@example.com')).toEqual([]);
    const toA = itemAt(await readMailbox(server, 'seal-a@example.com'), 0);
    expect(toA.subject).toBe('Your link, seal-a@example.com');
    // A is sent: its words are gone, its subject kept.
    expect(await row(a!)).toMatchObject({ state: 'sent', subject: 'Your link, seal-a@example.com', text: '', headers: {}, keyId: null, sealed: null });
    // Her list names the failed one by its subject (opened), never its words.
    const unsent = await (await server.api('/api/admin/mail/unsent', { headers: { cookie: await adminCookie(server) } })).json();
    expect(unsent.find((m: { id: string }) => m.id === b)).toMatchObject({ subject: '(its words do not open here)' });
  });

  it('keeps no subject of a sent mail that names someone else: she may be erased while it waits (decision 0053)', async () => {
    const [card] = await db()
      .transaction()
      .execute((trx) =>
        queueMails(trx, 'gift-card', [
          {
            to: 'named-recipient@example.com',
            subject: 'A $50.00 gift card from Wren Ashdown',
            text: 'From Wren Ashdown',
            names: ['wren.ashdown@example.com'],
          },
        ]),
      );
    expect((await row(card!)).names).toEqual(['wren.ashdown@example.com']);
    expect((await sendDueMails(server.services, later())).sent).toBe(1);
    // The recipient has her mail as it was written; the outbox keeps who, what kind and when.
    const delivered = itemAt(await readMailbox(server, 'named-recipient@example.com'), 0);
    expect(delivered.subject).toBe('A $50.00 gift card from Wren Ashdown');
    const sent = await row(card!);
    expect(sent).toMatchObject({ state: 'sent', kind: 'gift-card', to: 'named-recipient@example.com', subject: '', text: '', sealed: null });
    expect(JSON.stringify(sent)).not.toContain('Wren');
  });

  it('sends a clear row queued before 0039 as it stands, then drops its words', async () => {
    const legacy = await db()
      .insertInto('mailOutbox')
      .values({
        kind: 'login-link',
        to: 'legacy@example.com',
        canonicalTo: 'legacy@example.com',
        about: 'legacy@example.com',
        subject: 'Your login link',
        text: 'https://example.com/verify-login?token=legacy-token',
        createdAt: new Date(Date.now() - 60_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await sendDueMails(server.services, later())).sent).toBe(1);
    const mail = itemAt(await readMailbox(server, 'legacy@example.com'), 0);
    expect(mail.subject).toBe('Your login link');
    expect(await row(legacy.id)).toMatchObject({ state: 'sent', subject: 'Your login link', text: '', keyId: null, sealed: null });
  });

  it('rotate-keys seals waiting mails again with the new key; they open and send with it alone', async () => {
    const [waiting] = await queue('rotate@example.com', 'https://example.com/verify-login?token=rotate-secret');
    const oldKey = keyringOf(server.env).current.key.toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const rotating = keyringOf(
      loadEnv({ NODE_ENV: 'test', QUIET: '1', PGLITE_DIR: 'memory://', PRIVATE_RECORDS_KEY: newKey, PRIVATE_RECORDS_OLD_KEYS: oldKey }),
    );
    // The row of the first test, whose words were moved, opens with no key: left as it is, and said.
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await resealOutbox(db(), rotating)).toBe(1);
    expect(await resealOutbox(db(), rotating)).toBe(0);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('was left sealed as it was'));
    warned.mockRestore();
    expect((await row(waiting!)).keyId).toBe(rotating.current.id);
    // The server restarted with the new key alone.
    const renewed = keyringOf(loadEnv({ NODE_ENV: 'test', QUIET: '1', PGLITE_DIR: 'memory://', PRIVATE_RECORDS_KEY: newKey }));
    useOutboxKeys(renewed);
    expect((await sendDueMails(server.services, later())).sent).toBeGreaterThanOrEqual(1);
    const mail = itemAt(await readMailbox(server, 'rotate@example.com'), 0);
    expect(mail.subject).toBe('Your link, rotate@example.com');
  });
});
