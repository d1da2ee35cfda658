/**
 * `npm run bench`: one run, one report (docs/bench/report.md).
 *  1. Steps, each a script of its own that writes docs/bench/<name>.md and exits non-zero when a
 *     figure misses its goal (a miss fails the bench; BENCH_SKIP_<NAME> skips a step):
 *     - bench-pages.ts: JS/CSS/transfer and Lighthouse per route;
 *     - bench-photos.ts (issue 14): galleries and products full of 12-MP photos; upload time,
 *       transfer before/after scrolling, Lighthouse and CLS;
 *     - bench-photos-dpr3.ts (issue 36): every public page with photos read to the end on a DPR 3
 *       phone with textured 12-MP photos, ≤ 600 KB each;
 *     - bench-newsletter.ts (issue 16): mails a minute through the stand-in and a fake of Resend;
 *     - bench-outbox.ts (issue 21): the mail outbox's commit → sent delay and drain rate;
 *     - bench-publish.ts (issue 19): publish → served by two replicas on one PostgreSQL;
 *     - bench-speed.ts (issue 25): a phone visitor who scrolls and fills a cart, the slot list on
 *       the wire, idle RSS and API throughput on PGlite beside PostgreSQL;
 *     - bench-serve.ts (issue 36): a page she published and `/favicon.svg`, each as a ratio to a
 *       plain Node file server sending the same bytes (≥ 0.9);
 *     - bench-journal.ts (issue 22): the journal at 300 posts with 12-MP covers on a phone;
 *     - bench-first-tap.ts (issue 36): the script the first tap on the home page's form fetches
 *       (≤ 60 KB in ≤ 4 requests), a content page's script files, Lighthouse on /cart (≥ 98);
 *     - bench-lists.ts (issue 36): each admin list's first page at 1×, 10× and 100× a year of
 *       data, flat within 2×;
 *     - bench-journal-scale.ts (issue 36): a start and a publish → live on two replicas at 3,000
 *       posts (≤ 5 s);
 *     - check-memory.ts with CHECK_MEMORY_ONLY=pglite (issue 36): PGlite's peak RSS at a first
 *       start, a restart and under a mixed load, each under the ceiling it states.
 *  2. How fast the built server answers `/`, `/yoga` and `/chocolates` (pages rendered ahead
 *     with the published content), each as a ratio to the same server answering a small
 *     static file in the same run.
 *  3. The API on PostgreSQL with a realistic amount of data (a year of events and slots,
 *     hundreds of clients, sign-ups and orders): GET /api/events (whole and one month's grid), /api/chocolates and the
 *     admin's /api/bookings, each as a ratio to GET /api/health in the same run; then a booking
 *     paid through PayPal beside one made with a session credit, p50/p95 of each (issue 32); and the
 *     client's slot list through the availability rule without and with 200 busy times from her
 *     calendar (issue 35).
 * Ratios make the numbers comparable across machines; absolute numbers are for this one.
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres
 * (a throwaway database is created there and dropped afterwards).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { autocannonChild } from './load.ts';
import pg from 'pg';
import { sql } from 'kysely';
import { loadEnv } from '../api/env.ts';
import { startServer, type RunningServer } from '../api/server.ts';
import { sessionStore } from '../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../api/middleware/session-cookies.ts';
import { addDays, zonedInstant, zonedNow } from '../api/lib/time.ts';
import { build, isBuildCurrent } from './build.ts';
import { insertSlots } from './lib/bench-data.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Result {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(label: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  // Warm up (JIT, caches, connection pool), then measure; the load generator runs in its own process (scripts/load.ts).
  await autocannonChild(url, { connections: CONNECTIONS, seconds: 2, headers });
  const r = await autocannonChild(url, { connections: CONNECTIONS, seconds: DURATION, headers });
  const result = { label, ...r };
  console.log(`${label}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`);
  return result;
}

const table = (rows: Result[], base: Result) => [
  '| request | req/s | p50 ms | p99 ms | req/s ratio | p50 ratio | p99 ratio | errors |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / base.rps).toFixed(2)} | ${(r.p50 / Math.max(base.p50, 0.5)).toFixed(1)} | ${(r.p99 / Math.max(base.p99, 0.5)).toFixed(1)} | ${r.errors + r.non2xx} |`,
  ),
];

async function pages(): Promise<string[]> {
  if (!isBuildCurrent()) build();
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PGLITE_DIR: 'memory://', QUIET: '1', DATABASE_URL: '' });
  const server = await startServer(env);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const enc = { 'accept-encoding': 'br, gzip' };
    const file = await measure('`/favicon.svg` (small static file)', `${base}/favicon.svg`, enc);
    // Content pages come from the pages rendered ahead with her published content (issue 19).
    const home = await measure('`/`', `${base}/`, enc);
    const yoga = await measure('`/yoga` (published content page)', `${base}/yoga`, enc);
    const shop = await measure('`/chocolates`', `${base}/chocolates`, enc);
    return table([file, home, yoga, shop], file);
  } finally {
    await server.close();
  }
}

/** A year of the teacher's life: classes, slots, clients, sign-ups, products and orders. */
async function seedRealistic(server: RunningServer) {
  const { db } = server.services;
  const zone = server.env.SITE_TIMEZONE;
  const today = zonedNow(zone).date;
  const events = [];
  const slots = [];
  for (let d = -30; d < 335; d++) {
    const date = addDays(today, d);
    for (const [time, title] of [
      ['07:00', 'Sunrise Flow'],
      ['12:15', 'Lunch Break Yoga'],
      ['18:00', 'Gentle Flow'],
    ] as const) {
      events.push({ title, date, time, location: 'Community Studio', startsAt: zonedInstant(date, time, zone), capacity: 12 });
    }
    // 13:30, not 13:00: the 12:15 class runs to 13:15, and a slot it overlaps is never offered (issue 35).
    for (const time of ['09:00', '10:30', '13:30', '15:00', '16:30']) slots.push({ date, time, startsAt: zonedInstant(date, time, zone) });
  }
  for (let i = 0; i < events.length; i += 500)
    await db
      .insertInto('events')
      .values(events.slice(i, i + 500))
      .execute();
  await insertSlots(db, slots);

  const users = Array.from({ length: 400 }, (_, i) => ({ email: `client${i}@example.com`, firstName: `Client${i}`, lastName: 'Bench', city: 'Portland, OR' }));
  const userIds = (await db.insertInto('users').values(users).returning('id').execute()).map((u) => u.id);
  // A third of the future slots are booked.
  const slotRows = await db.selectFrom('slots').select('id').where('startsAt', '>', new Date()).execute();
  for (let i = 0; i < slotRows.length; i += 3) {
    const uid = userIds[i % userIds.length]!;
    await db
      .updateTable('slots')
      .set({
        bookedBy: uid,
        bookedAt: new Date(),
        firstName: 'Client',
        lastName: 'Bench',
        email: 'c@example.com',
        sessionType: 'Individual Yoga Session (60 min)',
        message: 'See you',
        amountCents: 9000,
      })
      .where('id', '=', slotRows[i]!.id)
      .execute();
  }
  const eventRows = await db.selectFrom('events').select(['id', 'title', 'date']).limit(300).execute();
  const signups = [];
  for (let i = 0; i < 1200; i++) {
    const e = eventRows[i % eventRows.length]!;
    signups.push({
      eventId: e.id,
      classTitle: e.title,
      date: e.date,
      name: `Student ${i}`,
      email: `student${i}@example.com`,
      phone: '5035550100',
      waiverAccepted: true,
    });
  }
  for (let i = 0; i < signups.length; i += 500)
    await db
      .insertInto('classSignups')
      .values(signups.slice(i, i + 500))
      .execute();
  const products = Array.from({ length: 30 }, (_, i) => ({
    name: `Bench Tin ${String(i).padStart(2, '0')}`,
    description: 'A tin for measuring.',
    priceCents: 1500 + i * 50,
    inventory: 100,
  }));
  const productIds = await db.insertInto('products').values(products).returning(['id', 'name', 'priceCents']).execute();
  for (let i = 0; i < 600; i++) {
    const p = productIds[i % productIds.length]!;
    const order = await db
      .insertInto('orders')
      .values({
        paypalOrderId: `BENCH${i}`,
        payerName: 'Bench Buyer',
        payerEmail: 'buyer@example.com',
        itemsTotalCents: p.priceCents * 2,
        shippingCents: 500,
        totalCents: p.priceCents * 2 + 500,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('orderItems').values({ orderId: order.id, productId: p.id, name: p.name, unitPriceCents: p.priceCents, quantity: 2 }).execute();
  }
  const counts = await sql<{ t: string; n: number }>`
    select 'events' as t, count(*)::int as n from events union all select 'slots', count(*)::int from slots
    union all select 'users', count(*)::int from users union all select 'class_signups', count(*)::int from class_signups
    union all select 'orders', count(*)::int from orders union all select 'products', count(*)::int from products`.execute(db.withoutPlugins());
  return counts.rows;
}

/** This month's 42-day calendar grid (Sunday on or before the 1st), as the /calendar island asks for it. */
function monthGridRange(now = new Date()): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const start = new Date(first.getTime() - first.getUTCDay() * 86_400_000);
  const end = new Date(start.getTime() + 41 * 86_400_000);
  return `from=${start.toISOString().slice(0, 10)}&to=${end.toISOString().slice(0, 10)}`;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Issue 32: how long `PUT /api/bookings/{slotId}/book` takes with a session credit beside a paid
 * booking (the PayPal capture through the in-process emulator), one booking at a time on free slots
 * of the year of data: p50/p95 of each, in the same run. Four clients per kind, ten bookings each
 * (the booking limit is per account).
 */
async function bookingLatency(server: RunningServer, base: string, admin: { cookie: string }): Promise<string[]> {
  const { db } = server.services;
  const PER_KIND = 40;
  // The slots a client is offered (issue 35: a free slot her agenda took is not), a week ahead and on.
  const lister = await db
    .insertInto('users')
    .values({ email: 'bench-lister@example.com', firstName: 'Bench', lastName: 'Lister' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const listed = await fetch(`${base}/api/bookings?userId=${lister.id}`, {
    headers: { cookie: `${SESSION_COOKIES.user}=${(await sessionStore(db, 'user').create(lister.id)).token}` },
  });
  const weekAhead = Date.now() + 7 * 86_400_000;
  const free = ((await listed.json()) as { availableSlots: { _id: string; startsAt: string }[] }).availableSlots
    .filter((s) => Date.parse(s.startsAt) > weekAhead)
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))
    .filter((s, i, all) => i === 0 || Date.parse(s.startsAt) - Date.parse(all[i - 1]!.startsAt) >= 3_600_000)
    .slice(0, PER_KIND * 2)
    .map((s) => ({ id: s._id }));
  if (free.length < PER_KIND * 2) throw new Error(`bench: ${free.length} free slots, ${PER_KIND * 2} wanted`);
  const type = 'Individual Yoga Session (60 min)';
  const clients = async (kind: string) =>
    Promise.all(
      Array.from({ length: PER_KIND / 10 }, async (_, i) => {
        const email = `bench-${kind}-${i}@example.com`;
        const user = await db.insertInto('users').values({ email, firstName: 'Bench', lastName: kind }).returning('id').executeTakeFirstOrThrow();
        const { token } = await sessionStore(db, 'user').create(user.id);
        return { id: user.id, email, cookie: `${SESSION_COOKIES.user}=${token}` };
      }),
    );
  const call = async (path: string, method: string, cookie: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`bench: ${method} ${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const book = (client: { id: string; email: string; cookie: string }, slotId: string, payment: Record<string, unknown>) =>
    call(`/api/bookings/${slotId}/book`, 'PUT', client.cookie, {
      userId: client.id,
      firstName: 'Bench',
      lastName: 'Client',
      email: client.email,
      sessionType: type,
      message: '',
      ...payment,
    });
  const timed = async (run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    return performance.now() - t;
  };

  const paid: number[] = [];
  const payers = await clients('paid');
  for (let i = 0; i < PER_KIND; i++) {
    const client = payers[i % payers.length]!;
    const slotId = free[i]!.id;
    // The buyer's steps before the booking (not timed): the order, then PayPal's approval.
    const { orderID } = await call(`/api/bookings/${slotId}/paypal-order`, 'POST', client.cookie, { amount: 80, sessionType: type });
    await call(`/dev/paypal/v2/checkout/orders/${String(orderID)}/approve`, 'POST', '', { givenName: 'Bench' });
    paid.push(await timed(() => book(client, slotId, { paypalOrderId: orderID })));
  }
  const withCredit: number[] = [];
  const holders = await clients('credit');
  for (const h of holders) await call(`/api/admin/users/${h.id}/credits`, 'POST', admin.cookie, { sessions: 10, reason: 'Benchmark' });
  for (let i = 0; i < PER_KIND; i++) {
    const client = holders[i % holders.length]!;
    withCredit.push(await timed(() => book(client, free[PER_KIND + i]!.id, { useCredit: true })));
  }
  const row = (label: string, ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return `| ${label} | ${ms.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} |`;
  };
  const lines = [
    `Booking a session (\`PUT /api/bookings/{slotId}/book\`), one at a time on free slots of this data, ${PER_KIND} of each (issue 32):`,
    '',
    '| booking | n | p50 ms | p95 ms |',
    '| --- | --- | --- | --- |',
    row('paid (PayPal capture through the in-process emulator)', paid),
    row('with a session credit (no PayPal)', withCredit),
  ];
  for (const line of lines.slice(-2)) console.log(line);
  return lines;
}

/**
 * Issue 35: the client's slot list (`GET /api/bookings?userId=`) answered by the one availability
 * rule over a year of slots, classes and booked sessions, without busy times and then with 200
 * busy times read from a connected calendar (rows of source 'google', as a refresh stores them):
 * the whole year and one month, p50/p95 of 40 requests one at a time, in the same run.
 */
async function availabilityLatency(server: RunningServer, base: string): Promise<string[]> {
  const { db } = server.services;
  const zone = server.env.SITE_TIMEZONE;
  const user = await db
    .insertInto('users')
    .values({ email: 'bench-slots@example.com', firstName: 'Bench', lastName: 'Slots' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await sessionStore(db, 'user').create(user.id);
  const cookie = `${SESSION_COOKIES.user}=${token}`;
  const today = zonedNow(zone).date;
  const month = `from=${addDays(today, 30)}&to=${addDays(today, 60)}`;
  const runs = async (query: string) => {
    const ms: number[] = [];
    for (let i = 0; i < 45; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/api/bookings?userId=${user.id}${query}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`bench: slot list → ${res.status}`);
      await res.arrayBuffer();
      if (i >= 5) ms.push(performance.now() - t);
    }
    return [...ms].sort((a, b) => a - b);
  };
  const row = (label: string, sorted: number[]) =>
    `| ${label} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} |`;
  const lines = [
    "The client's slot list through the availability rule (`GET /api/bookings?userId=`), a year of slots, classes and booked sessions (issue 35):",
    '',
    '| slot list | n | p50 ms | p95 ms |',
    '| --- | --- | --- | --- |',
  ];
  lines.push(row('a year, no busy times', await runs('')), row('one month, no busy times', await runs(`&${month}`)));
  // 200 busy times of an hour, spread over the year, as her connected calendar's refresh stores them.
  const busy = Array.from({ length: 200 }, (_, i) => {
    const startsAt = zonedInstant(addDays(today, 1 + Math.floor((i * 330) / 200)), i % 2 ? '11:00' : '14:00', zone);
    return { startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000), source: 'google' as const, calendarId: 'primary', title: 'Busy' };
  });
  await db.insertInto('busyTimes').values(busy).execute();
  lines.push(row('a year, 200 busy times from her calendar', await runs('')), row('one month, 200 busy times from her calendar', await runs(`&${month}`)));
  for (const line of lines.slice(-4)) console.log(line);
  return lines;
}

async function api(): Promise<{ lines: string[]; counts: { t: string; n: number }[] }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', DATABASE_URL: url.toString() });
  const server = await startServer(env, { site: false, seedContent: true });
  try {
    const counts = await seedRealistic(server);
    await sql`analyze`.execute(server.services.db);
    const adminRow = await server.services.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
    const { token } = await sessionStore(server.services.db, 'admin').create(adminRow.id);
    const cookie = { cookie: `${SESSION_COOKIES.admin}=${token}` };
    const base = `http://127.0.0.1:${server.port}`;
    const health = await measure('`GET /api/health`', `${base}/api/health`);
    const rows = [
      health,
      await measure("`GET /api/events` (all ahead, the spec's call)", `${base}/api/events`),
      await measure('`GET /api/events?from&to` (one month grid, as /calendar asks)', `${base}/api/events?${monthGridRange()}`),
      await measure('`GET /api/chocolates`', `${base}/api/chocolates`),
      await measure('`GET /api/bookings` (admin view)', `${base}/api/bookings`, cookie),
    ];
    const bookings = await bookingLatency(server, base, cookie);
    const availability = await availabilityLatency(server, base);
    return { lines: [...table(rows, health), '', ...bookings, '', ...availability], counts };
  } finally {
    // The load generator's last requests (it runs in its own process) finish before the database closes.
    await new Promise((r) => setTimeout(r, 1500));
    await server.close();
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.end();
  }
}

async function main() {
  if (process.env.BENCH_ONLY === 'api') {
    // The API part alone (a quick look after a change); the report is written by a whole run only.
    console.log((await api()).lines.join('\n'));
    return;
  }
  mkdirSync('docs/bench', { recursive: true });
  // Each step is a script of its own that writes its report and exits non-zero when a figure
  // misses its goal; a miss fails the whole bench (issue 36), after every step has run.
  const missed: string[] = [];
  const step = (script: string, skip: string, file: string, subHeadings = false, env: Record<string, string> = {}): string => {
    if (!process.env[skip]) {
      const r = spawnSync(process.execPath, [`scripts/${script}`], { stdio: 'inherit', env: { ...process.env, ...env } });
      if (r.status !== 0) {
        missed.push(script);
        console.warn(`[bench] ${script} missed a figure (see above)`);
      }
    }
    if (!existsSync(`docs/bench/${file}`)) return '';
    const text = readFileSync(`docs/bench/${file}`, 'utf8').replace(/^# .*\n/, '');
    return subHeadings ? text.replace(/^## /gm, '### ') : text;
  };
  const pageReport = step('bench-pages.ts', 'BENCH_SKIP_PAGES', 'pages.md');
  const photoReport = step('bench-photos.ts', 'BENCH_SKIP_PHOTOS', 'photos.md', true);
  const photosDpr3Report = step('bench-photos-dpr3.ts', 'BENCH_SKIP_PHOTOS_DPR3', 'photos-dpr3.md', true);
  const newsletterReport = step('bench-newsletter.ts', 'BENCH_SKIP_NEWSLETTER', 'newsletter.md');
  const outboxReport = step('bench-outbox.ts', 'BENCH_SKIP_OUTBOX', 'outbox.md');
  const publishReport = step('bench-publish.ts', 'BENCH_SKIP_PUBLISH', 'publish.md');
  const speedReport = step('bench-speed.ts', 'BENCH_SKIP_SPEED', 'speed.md', true);
  const serveReport = step('bench-serve.ts', 'BENCH_SKIP_SERVE', 'serve.md');
  const journalReport = step('bench-journal.ts', 'BENCH_SKIP_JOURNAL', 'journal.md', true);
  const firstTapReport = step('bench-first-tap.ts', 'BENCH_SKIP_FIRST_TAP', 'first-tap.md');
  const listsReport = step('bench-lists.ts', 'BENCH_SKIP_LISTS', 'lists.md');
  const journalScaleReport = step('bench-journal-scale.ts', 'BENCH_SKIP_JOURNAL_SCALE', 'journal-scale.md');
  const pgliteMemoryReport = step('check-memory.ts', 'BENCH_SKIP_PGLITE_MEMORY', 'memory-pglite.md', true, { CHECK_MEMORY_ONLY: 'pglite' });
  const pageLines = await pages();
  const apiResult = await api();
  const pgVersion = await (async () => {
    const c = new pg.Client({
      connectionString: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    await c.connect();
    const v = (await c.query('show server_version')).rows[0].server_version;
    await c.end();
    return v;
  })();
  const report = [
    '# Benchmark report',
    '',
    `One run of \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, PostgreSQL ${pgVersion}.`,
    `Load: autocannon in a process of its own (scripts/load.ts), ${CONNECTIONS} connections, ${DURATION} s per request after a 2 s warm-up, on loopback (the load generator shares the machine, not the server's process).`,
    'Ratios compare each request with the baseline measured in the same run, so they travel between machines better than the absolute numbers.',
    '',
    '## Pages served by the built server',
    '',
    'The production server (`api/server.ts`) with precompressed static files; baseline: a small static file from the same server.',
    '',
    ...pageLines,
    '',
    '## API on PostgreSQL with a year of data',
    '',
    `Rows: ${apiResult.counts.map((c) => `${c.n} ${c.t}`).join(', ')}. Baseline: \`GET /api/health\` (one \`select 1\`).`,
    '',
    ...apiResult.lines,
    '',
    '## Page weight and Lighthouse',
    pageReport,
    '## Photos (issue 14)',
    photoReport,
    '## Photos at DPR 3, textured 12-MP photos (issue 36)',
    photosDpr3Report,
    '## Newsletter sender (issue 16)',
    newsletterReport,
    '## Publish → served by every replica (issue 19)',
    publishReport,
    '## Journal at 300 posts (issue 22)',
    journalReport,
    '## Journal at 100× posts (issue 36)',
    journalScaleReport,
    "## PGlite's peak memory: a first start, a restart, a mixed load (issue 36)",
    pgliteMemoryReport,
    '## A visitor who scrolls and fills a cart; PGlite beside PostgreSQL (issue 25)',
    speedReport,
    '## Mail outbox (issue 21)',
    outboxReport,
    '## Published pages and static files beside a plain Node file server (issue 36)',
    serveReport,
    '## A first tap that costs little (issue 36)',
    firstTapReport,
    '## Admin lists as her years pile up (issue 36)',
    listsReport,
  ];
  writeFileSync('docs/bench/report.md', report.join('\n'));
  console.log('\nWrote docs/bench/report.md');
  if (missed.length) {
    console.error(`[bench] a figure missed its goal in: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
