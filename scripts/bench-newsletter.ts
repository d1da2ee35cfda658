/**
 * `npm run bench:newsletter` (issue 16), also part of `npm run bench`: how many newsletter mails
 * a minute the outbox sender (api/backoffice/newsletter-sender.ts) gets through, unpaced (its
 * ceiling; in production NEWSLETTER_RATE_PER_MINUTE holds it far below), on PostgreSQL:
 *  - through the mailbox stand-in (each mail one INSERT into the same database);
 *  - through a local fake of Resend's API (an HTTP server in this script answering POST /emails
 *    like Resend, after BENCH_RESEND_LATENCY_MS, default 20 ms), with one sender and with
 *    two senders claiming from the same outbox at once.
 * Writes docs/bench/newsletter.md. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres (a throwaway database, dropped afterwards).
 */
import { createServer, type Server } from 'node:http';
import { cpus } from 'node:os';
import { writeBenchLines } from './lib/bench-report.ts';
import { benchAdminUrl, throwawayDatabase } from './lib/throwaway-database.ts';
import { loadEnv } from '../api/env.ts';
import { startServer } from '../api/server.ts';
import { createResendMailer } from '../api/services/mail/resend.ts';
import { sendNewsletterBatch } from '../api/backoffice/newsletter-sender.ts';
import { insertNewsletter, startSend } from '../api/backoffice/newsletters.repo.ts';
import type { Services } from '../api/services/index.ts';

const RECIPIENTS = Number(process.env.BENCH_NEWSLETTER_RECIPIENTS ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_RESEND_LATENCY_MS ?? 20);
const BATCH = 100;

/** A fake Resend: POST /emails answers {id} after the latency; counts what it got. */
async function fakeResend(): Promise<{ url: string; received: () => number; twice: () => number; close: () => Promise<void> }> {
  let received = 0;
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      setTimeout(() => {
        const mail = req.method === 'POST' && req.url === '/emails' ? (JSON.parse(body) as { to?: string[]; subject?: string }) : {};
        if (mail.to) {
          received++;
          const key = `${mail.subject}|${mail.to.join()}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `email-${received}` }));
        } else res.writeHead(422).end('{}');
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    twice: () => [...seen.values()].filter((n) => n > 1).length,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function run(services: Services, label: string, senders: number): Promise<{ label: string; mails: number; seconds: number; perMinute: number }> {
  const letter = await insertNewsletter(services.db, {
    subject: `Bench ${label}`,
    body: '# News\n\nHello **everyone**, see [the calendar](https://example.com/calendar).',
  });
  const started = await services.db.transaction().execute((trx) => startSend(trx, letter.id, new Date(), 'PO Box 1, Portland, OR 97201'));
  if (!started.ok) throw new Error(`could not start: ${started.kind}`);
  const t0 = performance.now();
  let mails = 0;
  await Promise.all(
    Array.from({ length: senders }, async () => {
      for (;;) {
        const r = await sendNewsletterBatch(services, { limit: BATCH });
        mails += r.sent;
        if (r.claimed === 0) return;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { label, mails, seconds, perMinute: Math.round((mails / seconds) * 60) };
}

export async function benchNewsletter(): Promise<string[]> {
  const database = await throwawayDatabase(benchAdminUrl(), 'bench_nl');
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', DATABASE_URL: database.url });
  const server = await startServer(env, { site: false, newsletters: false, reminders: false, reconciler: false });
  const resend = await fakeResend();
  try {
    const { db } = server.services;
    for (let i = 0; i < RECIPIENTS; i += 500) {
      await db
        .insertInto('subscribers')
        .values(Array.from({ length: Math.min(500, RECIPIENTS - i) }, (_, j) => ({ email: `reader-${i + j}@example.com` })))
        .execute();
    }
    const resendMailer = createResendMailer({ apiKey: 're_bench', from: env.MAIL_FROM, baseUrl: resend.url });
    const results = [
      await run(server.services, 'mailbox stand-in, 1 sender', 1),
      await run({ ...server.services, mailer: resendMailer }, `fake Resend (${LATENCY_MS} ms a call), 1 sender`, 1),
      await run({ ...server.services, mailer: resendMailer }, `fake Resend (${LATENCY_MS} ms a call), 2 senders`, 2),
    ];
    if (resend.received() !== 2 * RECIPIENTS || resend.twice())
      throw new Error(`the fake Resend got ${resend.received()} mails (${resend.twice()} twice), not ${2 * RECIPIENTS} once each`);
    const dupes = await db
      .selectFrom('mails')
      .select(['to', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('to')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    if (dupes.length) throw new Error(`${dupes.length} recipients got the stand-in's mail twice`);
    return [
      `${RECIPIENTS} subscribers on PostgreSQL, ${cpus().length} cores; claims of ${BATCH} rows; every mail rendered (Markdown, layout, signed unsubscribe link); each run checked: every recipient exactly once.`,
      '',
      '| sender | mails | seconds | mails / minute |',
      '|---|---:|---:|---:|',
      ...results.map((r) => `| ${r.label} | ${r.mails} | ${r.seconds.toFixed(1)} | ${r.perMinute.toLocaleString('en-US')} |`),
      '',
      `These are ceilings: in production each server process sends at most NEWSLETTER_RATE_PER_MINUTE (default ${env.NEWSLETTER_RATE_PER_MINUTE}, under Resend's default limit of 2 requests a second).`,
    ];
  } finally {
    await resend.close();
    await server.close();
    await database.drop();
  }
}

if (import.meta.main) {
  writeBenchLines('newsletter', 'Newsletter sender', await benchNewsletter());
}
