/**
 * `npm run bench:serve` (issue 36, decision 0045): a published page and `/favicon.svg` from the
 * production server beside a plain Node file server sending the same bytes, in one run.
 *
 * The server runs as `npm start` runs it (its malloc and V8 settings, package.json) in a process
 * of its own, with the built site (built here if its sources changed) on an in-memory database.
 * The admin logs in and publishes a page of her own through the API (a few sections of text,
 * as she would write it). Its brotli bytes, its plain bytes and the favicon are written to a
 * folder that a plain Node file server (this file with `--plain <folder>`: node:http and fs,
 * reading the file per request, the `.br` copy with `content-encoding: br` when the client
 * accepts it, as a typical small static server does) serves in another process. autocannon
 * (scripts/load.ts, its own process) loads each with 50 keep-alive connections asking for br,
 * the two servers taking turns, three rounds; the ratio of each round, and their median, is
 * printed beside the goal (≥ 0.9) and written to docs/bench/serve.md. Exits 1 on a miss.
 *
 * nginx, when installed, serves the same folder too (one worker; without its brotli module it
 * sends the plain bytes), as a column of reference; it is not required and not part of the goal.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { distDirOf, readBuildStamp } from '../api/lib/build-info.ts';
import { build, isBuildCurrent } from './build.ts';
import { autocannonChild, type LoadResult } from './load.ts';
import { readyLine } from './lib/child-ready.ts';

const GOAL = 0.9;
const ROUNDS = Number(process.env.BENCH_SERVE_ROUNDS ?? 3);
/** Each round: the servers take turns in slices this long, this many each, so a burst of other work on the machine falls on both. */
const SLICE_SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 2);
const SLICES = 3;
const CONNECTIONS = 50;
const ENCODING = { 'accept-encoding': 'br' };
const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', svg: 'image/svg+xml' };

// --- the plain Node file server, in its own process ------------------------------------------

function plain(root: string): void {
  // Which files have a brotli copy, listed once at start (as express-static-gzip does); the bytes are read per request.
  const compressed = new Set(
    readdirSync(root)
      .filter((f) => f.endsWith('.br'))
      .map((f) => `/${f.slice(0, -3)}`),
  );
  const server = createServer(async (req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const br = compressed.has(name) && /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
    const type = TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    try {
      const body = await readFile(join(root, br ? `${name}.br` : name));
      res.writeHead(200, { 'content-type': type, 'content-length': body.byteLength, ...(br ? { 'content-encoding': 'br', vary: 'accept-encoding' } : {}) });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }));
  });
}

// --- the processes ----------------------------------------------------------------------------

interface Child {
  url: string;
  child: ChildProcess;
}

/** A child that prints `{"url": …}` once it listens. */
function started(args: string[], env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return readyLine(child, '{"url"', args.join(' ')).then(({ url }) => ({ url, child }));
}

const stop = (c: Child | undefined) =>
  new Promise<void>((done) => {
    if (!c || c.child.exitCode !== null) return done();
    c.child.once('exit', () => done());
    c.child.kill('SIGTERM');
  });

/** The real server as `npm start` runs it (package.json, decision 0027), with the built site. */
function appServer(): Promise<Child> {
  return started(['--max-semi-space-size=2', '--v8-pool-size=1', 'tests/helpers/server-process.ts'], {
    MALLOC_ARENA_MAX: '2',
    MALLOC_TRIM_THRESHOLD_: '131072',
    ASTRO_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    QUIET: '1',
    SERVE_SITE: '1',
    DATABASE_URL: '',
    PGLITE_DIR: 'memory://',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-serve-password',
    ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
  });
}

/** She logs in and publishes a page of her own; its path. */
async function publishPage(base: string): Promise<string> {
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-serve-password', recaptchaToken: 'dev:admin_login' }),
  });
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const json = { 'content-type': 'application/json', cookie };
  const paragraph =
    'We move slowly and breathe deeply. Each class begins seated, with a few minutes of quiet, then builds through standing poses to a long, supported rest. Bring a blanket; the studio has mats and bolsters.';
  const created = await fetch(`${base}/api/admin/pages`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      slug: 'gentle-mornings',
      title: 'Gentle Mornings',
      brand: 'yoga',
      description: 'A slow morning class for stiff joints and busy minds.',
      sections: [1, 2, 3, 4].map((n) => ({
        markdown: `## Part ${n}\n\n${paragraph}\n\n- Arrive ten minutes early\n- Eat lightly before class\n\n${paragraph}`,
      })),
    }),
  });
  if (created.status !== 201) throw new Error(`create page: ${created.status} ${await created.text()}`);
  const published = await fetch(`${base}/api/admin/pages/gentle-mornings/publish`, { method: 'POST', headers: json });
  if (published.status !== 200) throw new Error(`publish page: ${published.status} ${await published.text()}`);
  return '/gentle-mornings';
}

/** The bytes the server sends for `path` with and without brotli, into `dir/name` and `dir/name.br`. */
async function copyBytes(base: string, path: string, dir: string, name: string): Promise<void> {
  const br = await fetch(`${base}${path}`, { headers: ENCODING });
  const body = Buffer.from(await br.arrayBuffer());
  // fetch decodes brotli itself: the plain bytes are what it hands back; the brotli ones are asked for raw.
  writeFileSync(join(dir, name), body);
  const rawBr = await rawBody(`${base}${path}`);
  if (rawBr.encoding === 'br') {
    if (!brotliDecompressSync(rawBr.body).equals(body)) throw new Error(`${path}: brotli bytes differ from the page`);
    writeFileSync(join(dir, `${name}.br`), rawBr.body);
  }
}

async function rawBody(url: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers: ENCODING }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** nginx with one worker on the same folder, when it is installed. */
function nginx(dir: string): { url: string; stop: () => void } | undefined {
  if (spawnSync('nginx', ['-v']).status !== 0) return undefined;
  const port = 40000 + (process.pid % 20000);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    // As root its worker would be nobody, who can't read the bench's private folder.
    `${process.getuid?.() === 0 ? 'user root; ' : ''}worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log /dev/null;
events {} http { access_log off; types { text/html html; image/svg+xml svg; } server { listen 127.0.0.1:${port}; root ${dir}/site; } }`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', dir], { stdio: 'ignore' });
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A process's CPU time so far (user + system), in clock ticks; undefined where /proc is not. */
function cpuTicks(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

async function slice(url: string, seconds: number): Promise<LoadResult> {
  const result = await autocannonChild(url, { connections: CONNECTIONS, seconds, headers: ENCODING });
  if (result.errors || result.non2xx) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result;
}

interface Contender {
  url: string;
  pid?: number;
}

/** One round: a warm-up each, then SLICES turns each; req/s over the round, and the server's CPU µs a request. */
async function round(contenders: Contender[]): Promise<{ rps: number; cpuUs?: number }[]> {
  for (const c of contenders) await slice(c.url, 1);
  const totals = contenders.map(() => ({ requests: 0, seconds: 0, ticks: 0 as number | undefined }));
  for (let i = 0; i < SLICES; i++) {
    for (const [k, c] of contenders.entries()) {
      const before = cpuTicks(c.pid);
      const r = await slice(c.url, SLICE_SECONDS);
      const after = cpuTicks(c.pid);
      const t = totals[k]!;
      t.requests += r.rps * SLICE_SECONDS;
      t.seconds += SLICE_SECONDS;
      t.ticks = t.ticks === undefined || before === undefined || after === undefined ? undefined : t.ticks + after - before;
    }
  }
  // Clock ticks are 1/100 s on Linux.
  return totals.map((t) => ({ rps: t.requests / t.seconds, ...(t.ticks === undefined ? {} : { cpuUs: (t.ticks * 10_000) / t.requests }) }));
}

async function main(): Promise<void> {
  // Any current build serves: the server runs in test mode, where the origin in its links does not matter.
  const stamp = readBuildStamp(distDirOf());
  if (!stamp || !isBuildCurrent(stamp.siteUrl)) build();
  const dir = mkdtempSync(join(tmpdir(), 'bench-serve-'));
  const site = join(dir, 'site');
  mkdirSync(site);
  let app: Child | undefined;
  let plainServer: Child | undefined;
  let ng: ReturnType<typeof nginx>;
  try {
    app = await appServer();
    const pagePath = await publishPage(app.url);
    await copyBytes(app.url, pagePath, site, 'page.html');
    copyFileSync(join(distDirOf(), 'client', 'favicon.svg'), join(site, 'favicon.svg'));
    plainServer = await started([import.meta.filename, '--plain', site], {});
    ng = nginx(dir);
    const targets = [
      { label: `a page she published (\`${pagePath}\`)`, app: pagePath, plain: '/page.html' },
      { label: '`/favicon.svg`', app: '/favicon.svg', plain: '/favicon.svg' },
    ];
    const rows: string[] = [];
    const ratios: number[] = [];
    const summary: string[] = [];
    let missed = false;
    for (const target of targets) {
      const rounds: { app: number; plain: number; appCpu?: number; plainCpu?: number; nginx?: number }[] = [];
      for (let n = 0; n < ROUNDS; n++) {
        const [ours, theirs, other] = await round([
          { url: `${app.url}${target.app}`, pid: app.child.pid },
          { url: `${plainServer.url}${target.plain}`, pid: plainServer.child.pid },
          ...(ng ? [{ url: `${ng.url}${target.plain}` }] : []),
        ]);
        rounds.push({ app: ours!.rps, plain: theirs!.rps, appCpu: ours!.cpuUs, plainCpu: theirs!.cpuUs, ...(other ? { nginx: other.rps } : {}) });
        console.log(
          `[bench:serve] ${target.app} round ${n + 1}: ${ours!.rps.toFixed(0)} req/s vs plain Node ${theirs!.rps.toFixed(0)} (${(ours!.rps / theirs!.rps).toFixed(2)}×)`,
        );
      }
      const ratio = median(rounds.map((r) => r.app / r.plain));
      ratios.push(ratio);
      const ok = ratio >= GOAL;
      missed ||= !ok;
      for (const [i, r] of rounds.entries())
        rows.push(
          `| ${target.label} | ${i + 1} | ${r.app.toFixed(0)} | ${r.plain.toFixed(0)} | ${(r.app / r.plain).toFixed(2)} | ${r.appCpu?.toFixed(0) ?? '–'} | ${r.plainCpu?.toFixed(0) ?? '–'} |${ng ? ` ${r.nginx!.toFixed(0)} |` : ''}`,
        );
      summary.push(`| ${target.label} | ${ratio.toFixed(2)} | ≥ ${GOAL} | ${ok ? 'yes' : '**no**'} |`);
      console.log(`[bench:serve] ${target.label}: ${ratio.toFixed(2)}× a plain Node file server (median of ${ROUNDS}; goal ≥ ${GOAL}) ${ok ? 'ok' : 'MISSED'}`);
    }
    mkdirSync('docs/bench', { recursive: true });
    writeFileSync(
      'docs/bench/serve.md',
      [
        '# Serving published pages and static files',
        '',
        `One run of \`npm run bench:serve\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), Node ${process.version}.`,
        `The production server (\`api/server.ts\`, started as \`npm start\` starts it) beside a plain Node file server (node:http and fs, reading the file per request, the \`.br\` copy with \`content-encoding: br\`) sending the same bytes, each in a process of its own; autocannon with ${CONNECTIONS} keep-alive connections, \`accept-encoding: br\`; ${ROUNDS} rounds, each a 1 s warm-up per server then ${SLICES} turns of ${SLICE_SECONDS} s each, the servers alternating so a burst of other work on the shared machine falls on both. CPU µs a request is the server process's user + system time over its turns ÷ its requests: steadier than req/s on a busy machine. ${ng ? 'nginx (one worker) serves the same folder for reference.' : 'nginx is not installed here, so it has no column.'}`,
        '',
        '| request | median ratio | goal | met |',
        '|---|---:|---:|---|',
        ...summary,
        '',
        `| request | round | server req/s | plain Node req/s | ratio | server CPU µs/req | plain Node CPU µs/req |${ng ? ' nginx req/s |' : ''}`,
        `|---|---:|---:|---:|---:|---:|---:|${ng ? '---:|' : ''}`,
        ...rows,
        '',
      ].join('\n'),
    );
    console.log('[bench:serve] wrote docs/bench/serve.md');
    if (missed) process.exitCode = 1;
  } finally {
    ng?.stop();
    await stop(plainServer);
    await stop(app);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--plain') plain(process.argv[3]!);
else await main();
