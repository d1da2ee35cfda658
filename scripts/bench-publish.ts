/**
 * `npm run bench:publish` (issue 19): how soon a publish is served by every replica. Two real
 * server processes with the built site on one throwaway PostgreSQL database; the admin edits
 * the yoga page's first FAQ answer on A and publishes it, 20 times; each time, the time from
 * sending the publish until A serves the new text and until B does (polled every 20 ms). A's
 * time is the publish itself (render, store, serve); B's adds its wait for the next
 * RENDER_POLL_MS look at the database. Writes docs/bench/publish.md.
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { openDatabase } from '../db/client.ts';
import { sessionStore } from '../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../api/middleware/session-cookies.ts';
import { build, isBuildCurrent } from './build.ts';
import { benchAdminUrl, throwawayDatabase } from './lib/throwaway-database.ts';
import { readyLine } from './lib/child-ready.ts';
import { replicaEnv } from '../tests/helpers/replicas.ts';

const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20);
const POLL_MS = Number(process.env.RENDER_POLL_MS ?? 1_000);

/** One replica: the real server in a process of its own, on `databaseUrl`, with the built site (DIST_DIR and SITE_URL passed on when set). */
export function startReplica(databaseUrl: string, pollMs = POLL_MS): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['tests/helpers/server-process.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      ...replicaEnv(databaseUrl, 'bench-publish-replicas-share-this-secret'),
      RENDER_POLL_MS: String(pollMs),
      ...(process.env.SITE_URL ? { SITE_URL: process.env.SITE_URL } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return readyLine(child, '{"url"', 'replica').then(({ url }) => ({ url, child }));
}

/** Stops the replicas and waits until each has exited (at most 5 s each), so their database can be dropped. */
export async function stopReplicas(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const timer = setTimeout(() => (child.kill('SIGKILL'), done()), 5_000);
          child.once('exit', () => (clearTimeout(timer), done()));
          child.kill('SIGTERM');
        }),
    ),
  );
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Polls `url` every 20 ms until it shows `text`: the ms since `since`. */
export async function until(url: string, text: string, since: number): Promise<number> {
  for (;;) {
    if ((await (await fetch(url)).text()).includes(text)) return performance.now() - since;
    if (performance.now() - since > 30_000) throw new Error(`${url} never showed the new text`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  if (!isBuildCurrent()) build();
  const { url: databaseUrl, drop } = await throwawayDatabase(benchAdminUrl(), 'bench_publish');
  const replicas: ChildProcess[] = [];
  try {
    const a = await startReplica(databaseUrl);
    replicas.push(a.child);
    const b = await startReplica(databaseUrl);
    replicas.push(b.child);
    const handle = await openDatabase({ url: databaseUrl, pgliteDir: 'memory://' });
    const adminRow = await handle.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
    const cookie = `${SESSION_COOKIES.admin}=${(await sessionStore(handle.db, 'admin').create(adminRow.id)).token}`;
    await handle.close();
    const api = (path: string, method = 'GET', json?: unknown) =>
      fetch(`${a.url}/api/admin/pages${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        ...(json ? { body: JSON.stringify(json) } : {}),
      });
    const onA: number[] = [];
    const onB: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      const page = (await (await api('/yoga')).json()) as { content: { faq: { items: { a: string }[] } }; version: number };
      const marker = `Benchmark answer ${i} ${Date.now()}`;
      page.content.faq.items[0]!.a = marker;
      await api('/yoga', 'PUT', { content: page.content, version: page.version });
      const sent = performance.now();
      const published = await api('/yoga/publish', 'POST');
      if (published.status !== 200) throw new Error(`publish: ${published.status}`);
      const [ta, tb] = await Promise.all([until(`${a.url}/yoga`, marker, sent), until(`${b.url}/yoga`, marker, sent)]);
      onA.push(ta);
      onB.push(tb);
      // Publishes a little apart, at different points of B's poll.
      await new Promise((r) => setTimeout(r, 137 + ((i * 331) % 700)));
    }
    const row = (label: string, v: number[]) =>
      `| ${label} | ${Math.round(percentile(v, 50))} | ${Math.round(percentile(v, 95))} | ${Math.round(Math.max(...v))} |`;
    const report = [
      '# Publish → served by every replica',
      '',
      `${PUBLISHES} publishes of the yoga page on replica A, two server processes with the built site on one PostgreSQL database, RENDER_POLL_MS ${POLL_MS}. Time from sending the publish until the replica serves the new text (ms).`,
      '',
      '| replica | p50 ms | p95 ms | max ms |',
      '|---|---:|---:|---:|',
      row('A (published there)', onA),
      row('B (the other replica)', onB),
      '',
    ].join('\n');
    console.log(report);
    mkdirSync('docs/bench', { recursive: true });
    writeFileSync('docs/bench/publish.md', report);
  } finally {
    await stopReplicas(replicas);
    await drop();
  }
}

if (import.meta.main) await main();
