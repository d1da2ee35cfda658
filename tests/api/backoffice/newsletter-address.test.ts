/**
 * Issue 48 (decision 0059): CAN-SPAM (15 U.S.C. 7704(a)(5)) asks every commercial mail for a
 * valid physical postal address. Every newsletter mail carries hers in its footer, text and
 * HTML, beside the unsubscribe: each copy of a send, the preview and her test, a journal post
 * sent as a newsletter, and the welcome a new subscriber gets. While there is none (she set none
 * and her shop's address has no street), a send is refused with a 409 that says what is missing
 * and where to set it, and nothing is queued.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { insertPosts } from '../../helpers/posts.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { sendNewsletterBatch } from '../../../api/backoffice/newsletter-sender.ts';
import { writeSettings } from '../../../api/settings/settings.repo.ts';
import { NEWSLETTER_NO_POSTAL_ADDRESS } from '../../../contract/settings.ts';
import type { NewsletterPreview, NewsletterView } from '../../../contract/backoffice.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const ADDRESS = 'Cacao & Breath\nPO Box 4120\nPortland, OR 97208';
/** As a footer line: her lines joined. */
const LINE = 'Cacao & Breath, PO Box 4120, Portland, OR 97208';
const LINE_HTML = 'Cacao &amp; Breath, PO Box 4120, Portland, OR 97208';

/** The footer's text part: the address, then the subscription line and the unsubscribe, in that order. */
const carriesIt = (mail: { text: string; html?: string | null }, line = LINE, lineHtml = LINE_HTML) => {
  expect(mail.text).toMatch(
    new RegExp(`${line.replace(/[.&]/g, '\\$&')}\\nYou receive this because [^\\n]+\\nUnsubscribe: https?://\\S+/unsubscribe\\?token=`),
  );
  expect(mail.html).toContain(`<p style="margin:0 0 8px;color:#666;font-size:13px">${lineHtml}</p>`);
  expect(mail.html).toMatch(/<a href="[^"]+\/unsubscribe\?token=[^"]+"[^>]*>Unsubscribe<\/a>/);
};

describe(`the newsletter's postal address on ${testDbKind()}`, () => {
  // The server's own sender stays asleep: the test sends the batches itself.
  const server = useTestServer({ env: { NEWSLETTER_INTERVAL_MS: '3600000' } });
  let cookie: string;
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => server.api(path, { ...init, headers: { cookie } });
  const draft = async (subject: string): Promise<NewsletterView> => {
    const res = await call('/api/admin/newsletters', { method: 'POST', json: { subject, body: 'Classes **resume** on Monday.' } });
    expect(res.status).toBe(201);
    return res.json();
  };
  const outboxOf = (id: string) => server.services.db.selectFrom('newsletterOutbox').select('email').where('newsletterId', '=', id).execute();
  const readers = ['ana@example.com', 'bo@example.com', 'cy@example.com'];

  beforeAll(async () => {
    cookie = await adminCookie(server);
    resetRateLimits();
    await server.services.db
      .insertInto('subscribers')
      .values(readers.map((email) => ({ email })))
      .execute();
  });

  it('refuses the send while she has no postal address, saying what is missing and where; nothing is queued', async () => {
    const letter = await draft('No address yet');
    const res = await call(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST' });
    expect(res.status).toBe(409);
    const { message } = await res.json();
    expect(message).toBe(NEWSLETTER_NO_POSTAL_ADDRESS);
    expect(message).toMatch(/postal address/);
    expect(message).toMatch(/Settings/);
    expect(await outboxOf(letter.id)).toEqual([]);
    expect(await (await call(`/api/admin/newsletters/${letter.id}`)).json()).toMatchObject({ status: 'draft', total: 0 });

    // A journal post sent as a newsletter is refused the same way: no newsletter made, the post not marked sent.
    const post = itemAt(await insertPosts(server.services.db, 1, { prefix: 'postal' }), 0);
    const before = await server.services.db.selectFrom('newsletters').select('id').execute();
    const viaPost = await call(`/api/admin/posts/${post.id}/newsletter`, { method: 'POST', json: {} });
    expect(viaPost.status).toBe(409);
    expect((await viaPost.json()).message).toBe(NEWSLETTER_NO_POSTAL_ADDRESS);
    expect(await server.services.db.selectFrom('newsletters').select('id').execute()).toHaveLength(before.length);
    const row = await server.services.db.selectFrom('pages').select(['newsletterSentAt']).where('slug', '=', `post/${post.id}`).executeTakeFirstOrThrow();
    expect(row.newsletterSentAt).toBeNull();

    // Nothing was queued: the sender finds nothing to send.
    expect((await sendNewsletterBatch(server.services, { limit: 100 })).claimed).toBe(0);
  });

  it('puts her address in every copy’s footer, text and HTML, beside the unsubscribe; the preview and her test carry it too', async () => {
    expect((await call('/api/admin/settings/postal-address', { method: 'PUT', json: { address: ADDRESS } })).status).toBe(200);

    const preview = (await (
      await call('/api/admin/newsletters/preview', { method: 'POST', json: { subject: 'Preview', body: 'Hello' } })
    ).json()) as NewsletterPreview;
    carriesIt(preview);

    const letter = await draft('Spring with an address');
    expect((await call(`/api/admin/newsletters/${letter.id}/test`, { method: 'POST' })).status).toBe(200);
    const [test] = (await readMailbox(server, 'admin@example.com')).filter((m) => m.subject === '[Test] Spring with an address');
    carriesIt(test!);

    const res = await call(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST' });
    expect(res.status).toBe(202);
    // The address is fixed when the send starts: changed meanwhile, the copies still carry the one it started with.
    expect((await call('/api/admin/settings/postal-address', { method: 'PUT', json: { address: 'PO Box 9, Salem, OR 97301' } })).status).toBe(200);
    await sendNewsletterBatch(server.services, { limit: 100 });
    for (const email of readers) {
      const mails = (await readMailbox(server, email)).filter((m) => m.subject === 'Spring with an address');
      expect(mails, email).toHaveLength(1);
      carriesIt(mails[0]!);
    }
  });

  it('puts it in a journal post sent as a newsletter, and in the welcome a new subscriber gets', async () => {
    await writeSettings(server.services.db, { postalAddress: ADDRESS });
    const [post] = await insertPosts(server.services.db, 1, { prefix: 'addressed' });
    const sent = await call(`/api/admin/posts/${must(post, 'post').id}/newsletter`, { method: 'POST', json: {} });
    expect(sent.status).toBe(202);
    await sendNewsletterBatch(server.services, { limit: 100 });
    for (const email of readers) {
      const [mail] = (await readMailbox(server, email)).filter((m) => m.subject === must(post, 'post').title);
      carriesIt(mail!);
    }

    const newcomer = 'dee@example.com';
    expect((await server.api('/api/subscribers/subscribe', { method: 'POST', json: { email: newcomer } })).status).toBe(201);
    const [welcome] = await readMailbox(server, newcomer);
    expect(must(welcome, 'welcome').subject).toMatch(/^Welcome to the .+ newsletter$/);
    carriesIt(welcome!);
  });
});
