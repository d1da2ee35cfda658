/**
 * `npm run bench:outbox` (issue 21), also part of `npm run bench`: the mail outbox
 * (api/mail/outbox.ts) with the mailbox stand-in, on PostgreSQL and on PGlite in memory:
 *  - the delay from a change's commit to the mail service having its mail, when the request
 *    sends it right after its commit (sendQueued): p50 and p95 over BENCH_OUTBOX_MAILS one-mail
 *    transactions, one after the other;
 *  - the periodic sender's delivery rate: BENCH_OUTBOX_MAILS mails queued at once (as a crash
 *    would leave them), drained by ticks (sendDueMails), with one sender and with two.
 * Every run checks each mail reached the mailbox exactly once. Writes docs/bench/outbox.md.
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { cpus } from 'node:os';
import { writeBenchLines } from './lib/bench-report.ts';
import { benchAdminUrl, throwawayDatabase } from './lib/throwaway-database.ts';
import { loadEnv } from '../api/env.ts';
import { startServer, type RunningServer } from '../api/server.ts';
import { queueMails } from '../api/mail/outbox.repo.ts';
import { sendDueMails, sendQueued } from '../api/mail/outbox.ts';
import type { Services } from '../api/services/index.ts';

const MAILS = Number(process.env.BENCH_OUTBOX_MAILS ?? 1000);

const mail = (i: number, tag: string) => ({
  to: `reader-${tag}-${i}@example.com`,
  subject: `Your booking ${i}`,
  text: `Hello ${i}`,
  html: `<p>Hello ${i}</p>`,
});
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(server: RunningServer, label: string): Promise<string[]> {
  const services: Services = server.services;
  // The provider "has it" when the mailer's send resolves: timed around the stand-in's send.
  const received = new Map<string, number>();
  const inner = services.mailer;
  const timed: Services = {
    ...services,
    mailer: {
      kind: inner.kind,
      send: async (m) => {
        await inner.send(m);
        received.set(m.to, performance.now());
      },
    },
  };

  // 1. Commit → sent, the request's own send after its commit.
  const delays: number[] = [];
  for (let i = 0; i < MAILS; i++) {
    const ids = await services.db.transaction().execute((trx) => queueMails(trx, 'bench', [mail(i, `${label}-now`)]));
    const committed = performance.now();
    await sendQueued(timed, ids);
    delays.push(received.get(mail(i, `${label}-now`).to)! - committed);
  }
  delays.sort((a, b) => a - b);

  // 2. The periodic sender draining what a crash left, with one and two senders.
  const drain = async (senders: number, tag: string) => {
    await services.db.transaction().execute((trx) =>
      queueMails(
        trx,
        'bench',
        Array.from({ length: MAILS }, (_, i) => mail(i, tag)),
      ),
    );
    const later = new Date(Date.now() + 60_000);
    const t0 = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: senders }, async () => {
        for (;;) {
          const r = await sendDueMails(timed, later);
          sent += r.sent;
          if (r.claimed === 0) return;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return { sent, perMinute: Math.round((sent / seconds) * 60) };
  };
  const one = await drain(1, `${label}-one`);
  const two = await drain(2, `${label}-two`);
  const stored = await services.db
    .selectFrom('mails')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(stored.n) !== 3 * MAILS || one.sent !== MAILS || two.sent !== MAILS)
    throw new Error(`${label}: ${stored.n} mails stored, not ${3 * MAILS} once each`);
  return [
    `| ${label} | ${percentile(delays, 50).toFixed(1)} ms | ${percentile(delays, 95).toFixed(1)} ms | ${one.perMinute.toLocaleString('en-US')} | ${two.perMinute.toLocaleString('en-US')} |`,
  ];
}

export async function benchOutbox(): Promise<string[]> {
  const base = { ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', OUTBOX_INTERVAL_MS: '3600000' };
  const options = { site: false, newsletters: false, reminders: false, reconciler: false, outbox: false, backups: false, journal: false } as const;
  const rows: string[] = [];

  const database = await throwawayDatabase(benchAdminUrl(), 'bench_outbox');
  const onPg = await startServer(loadEnv({ ...base, DATABASE_URL: database.url }), options);
  try {
    rows.push(...(await measure(onPg, 'PostgreSQL')));
  } finally {
    await onPg.close();
    await database.drop();
  }
  const onPglite = await startServer(loadEnv({ ...base, DATABASE_URL: '', PGLITE_DIR: 'memory://' }), options);
  try {
    rows.push(...(await measure(onPglite, 'PGlite (in memory)')));
  } finally {
    await onPglite.close();
  }
  return [
    `${MAILS} mails per measure, the mailbox stand-in (one INSERT per mail into the same database), ${cpus().length} cores; each mail checked stored exactly once.`,
    '',
    '| database | commit → sent, p50 | p95 | periodic sender, 1 process (mails / minute) | 2 processes |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
    'Commit → sent: the request that made the change sends its mail right after its commit (claim, send, mark sent). The periodic sender is the path of retries and of mails a crash left; it claims 50 at a time.',
  ];
}

if (import.meta.main) {
  writeBenchLines('outbox', 'Mail outbox', await benchOutbox());
}
