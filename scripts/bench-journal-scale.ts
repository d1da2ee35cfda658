/**
 * `npm run bench:journal-scale` (also a step of `npm run bench`, issue 36): her journal at 100×
 * a year of posts (3,000), two replicas (scripts/bench-publish.ts's, real server processes with
 * the built site) on one throwaway PostgreSQL database:
 *  - the posts (about 300 words each, a tag each) are written straight into the database in
 *    batches (tests/helpers/posts.ts), as years of publishing leave them;
 *  - a start at 3,000 posts: the time until a replica listens (goal: within 2× a start with no
 *    posts, timed in the same run), and its RSS then (it renders the journal's first pages only;
 *    the rest is made on its first request);
 *  - a new post published on A through the admin API: until the publish answers (A has made and
 *    stored all it renders; at 3,000 posts that was every `/blog` and tag page) and until A and B
 *    both serve its page and list it on `/blog` (goal ≤ 5 s each, the pages issue's);
 *  - a page behind it (`/blog/page/150`), stale since the publish, made on its first request on B.
 * Writes docs/bench/journal-scale.md; exits non-zero when a number misses its goal.
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import type { ChildProcess } from 'node:child_process';
import { writeBenchReport } from './lib/bench-report.ts';
import { readFileSync } from 'node:fs';
import { openDatabase } from '../db/client.ts';
import { sessionStore } from '../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../api/middleware/session-cookies.ts';
import { insertPosts } from '../tests/helpers/posts.ts';
import { build, isBuildCurrent } from './build.ts';
import { benchAdminUrl, throwawayDatabase } from './lib/throwaway-database.ts';
import { percentile, startReplica, stopReplicas, until } from './bench-publish.ts';

const POSTS = Number(process.env.BENCH_SCALE_POSTS ?? 3_000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 10);
const POLL_MS = Number(process.env.RENDER_POLL_MS ?? 1_000);
const LIVE_MS = 5_000;
/** A start at POSTS posts within this many times a start with none (the cost of a start follows what it renders now, not the journal). */
const START_RATIO = 2;

/** About 300 words of Markdown: a heading, a list and three paragraphs. */
const words = (i: number) => {
  const paragraph =
    `Entry ${i}. The practice begins before the house wakes, with a slow breath in and a longer one out while the kettle warms for cacao. `.repeat(4);
  return [paragraph, '## What you need', '- a mat\n- ten quiet minutes\n- a warm cup', paragraph, '> Slow is smooth.', paragraph].join('\n\n');
};

/** A replica's resident memory now and at its peak (MB), from /proc. */
function memoryOf(child: ChildProcess): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function main() {
  if (!isBuildCurrent()) build();
  const { url: databaseUrl, drop } = await throwawayDatabase(benchAdminUrl(), 'bench_journal_scale');
  const replicas: ChildProcess[] = [];
  const problems: string[] = [];
  try {
    // The first start migrates the empty database; the posts then go in as years leave them.
    const emptyStarted = performance.now();
    const first = await startReplica(databaseUrl, POLL_MS);
    const emptyStart = performance.now() - emptyStarted;
    const handle = await openDatabase({ url: databaseUrl, pgliteDir: 'memory://' });
    console.log(`Writing ${POSTS} published posts…`);
    await insertPosts(handle.db, POSTS, { prefix: 'years', body: words });
    const adminRow = await handle.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
    const cookie = `${SESSION_COOKIES.admin}=${(await sessionStore(handle.db, 'admin').create(adminRow.id)).token}`;
    await handle.close();
    await new Promise<void>((resolve) => {
      first.child.once('exit', () => resolve());
      first.child.kill('SIGTERM');
    });

    // --- a start at POSTS posts, twice (the second while the first serves) ------------------
    const starts: { ms: number; rss: number; peak: number }[] = [];
    const started = async () => {
      const t = performance.now();
      const replica = await startReplica(databaseUrl, POLL_MS);
      replicas.push(replica.child);
      starts.push({ ms: performance.now() - t, ...memoryOf(replica.child) });
      console.log(`start at ${POSTS} posts: ${Math.round(starts.at(-1)!.ms)} ms, RSS ${starts.at(-1)!.rss} MB (peak ${starts.at(-1)!.peak} MB)`);
      return replica;
    };
    const a = await started();
    const b = await started();
    for (const s of starts)
      if (s.ms > START_RATIO * emptyStart)
        problems.push(`a start at ${POSTS} posts took ${Math.round(s.ms)} ms > ${START_RATIO} × ${Math.round(emptyStart)} ms (a start with no posts)`);

    // --- publish → live on both ---------------------------------------------------------------
    const api = async <T>(path: string, json?: unknown): Promise<T> => {
      const res = await fetch(`${a.url}/api/admin${path}`, {
        method: 'POST',
        headers: { cookie, origin: a.url, 'content-type': 'application/json' },
        body: JSON.stringify(json ?? {}),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const both: number[] = [];
    /** The publish's own answer: it comes once A has made and stored everything the publish renders. */
    const answers: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      const title = `A new post at ${POSTS} posts, number ${i}`;
      const { id, slug } = await api<{ id: string; slug: string }>('/posts', { title, brand: 'yoga', body: words(POSTS + i), tags: ['cacao'] });
      const live = async (base: string, since: number) =>
        Math.max(...(await Promise.all([until(`${base}/blog/${slug}`, title, since), until(`${base}/blog`, title, since)])));
      const sent = performance.now();
      const [answered, ta, tb] = await Promise.all([api(`/posts/${id}/publish`).then(() => performance.now() - sent), live(a.url, sent), live(b.url, sent)]);
      both.push(Math.max(ta, tb));
      answers.push(answered);
      console.log(`publish ${i + 1}: answered ${Math.round(answered)} ms, live on A ${Math.round(ta)} ms, on B ${Math.round(tb)} ms`);
      if (answered > LIVE_MS) problems.push(`publish ${i + 1} answered after ${Math.round(answered)} ms > ${LIVE_MS} ms`);
      if (Math.max(ta, tb) > LIVE_MS) problems.push(`publish ${i + 1} live on both after ${Math.round(Math.max(ta, tb))} ms > ${LIVE_MS} ms`);
      await new Promise((r) => setTimeout(r, 137 + ((i * 331) % 700)));
    }

    // --- a stale page made on its first request ------------------------------------------------
    const deep = '/blog/page/150';
    const t = performance.now();
    const res = await fetch(`${b.url}${deep}`);
    const firstAsk = performance.now() - t;
    if (res.status !== 200) problems.push(`${deep}: ${res.status}`);
    await res.text();
    const t2 = performance.now();
    await (await fetch(`${b.url}${deep}`)).text();
    const secondAsk = performance.now() - t2;
    console.log(`${deep} on B: first request ${firstAsk.toFixed(1)} ms, then ${secondAsk.toFixed(1)} ms`);

    const ms = (v: number[], p: number) => Math.round(percentile(v, p));
    const report = [
      '# Journal at 100× posts',
      '',
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:journal-scale\` on the production build: two server processes on one PostgreSQL database, RENDER_POLL_MS ${POLL_MS}, ${POSTS} published posts of about 300 words (one of 6 tags each).`,
      '',
      '| figure | measured | goal |',
      '|---|---:|---:|',
      `| a start with no posts (it migrates the empty database too) | ${(emptyStart / 1000).toFixed(1)} s | |`,
      ...starts.map(
        (s, i) =>
          `| start ${i + 1} at ${POSTS} posts (until it listens) | ${(s.ms / 1000).toFixed(1)} s (${(s.ms / emptyStart).toFixed(2)}×), RSS ${s.rss} MB (peak ${s.peak} MB) | ≤ ${START_RATIO}× |`,
      ),
      `| publish answered (A has made and stored all it renders), p50 / p95 / max of ${PUBLISHES} | ${ms(answers, 50)} / ${ms(answers, 95)} / ${Math.round(Math.max(...answers))} ms | each ≤ ${LIVE_MS} ms |`,
      `| publish → live on both replicas (its page and \`/blog\`), p50 / p95 / max of ${PUBLISHES} | ${ms(both, 50)} / ${ms(both, 95)} / ${Math.round(Math.max(...both))} ms | each ≤ ${LIVE_MS} ms |`,
      `| \`${deep}\` on B, stale since the publishes: first request / the next | ${firstAsk.toFixed(1)} / ${secondAsk.toFixed(1)} ms | |`,
      '',
      'Before issue 36 (commit 38e7c95, measured by this script on this machine 2026-11-29 02:55 UTC, 3 publishes): a publish rendered every `/blog` and tag page whose cards moved and answered after 8.6–9.1 s (its page and `/blog` were served after about 1.1 s: each replica’s poll picks up the pages stored while the publish still runs), and a start rendered every page of the journal: 88.9 s and 161.9 s, RSS 752 and 1,055 MB.',
      '',
      problems.length ? `Missed: ${problems.join('; ')}.` : 'Every number within its goal.',
      '',
    ].join('\n');
    console.log(`\n${report}`);
    writeBenchReport('journal-scale', report, problems);
  } finally {
    await stopReplicas(replicas);
    await drop();
  }
}

await main();
