/**
 * The build and the origin it is for (issue 13, "Deploys right"), with the real scripts in child
 * processes and a build folder of its own (DIST_DIR), so the suite's shared dist/ is untouched:
 *  - `npm run build` without SITE_URL, then `npm start` with SITE_URL=https://example.com: the
 *    start rebuilds, and every canonical link, og:url and sitemap URL is https://example.com/…;
 *  - a production server refuses a build made for another origin and says which;
 *  - a production build refuses to run without SITE_URL;
 *  - `.env` is read (the refusal names the origin that only .env set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { productionEnv } from '../../helpers/production-env.ts';

const root = join(import.meta.dirname, '../../..');
const distDir = join(root, `.data/dist-origin-${process.pid}`);

/** Only what a shell would pass: no SITE_URL, PORT or DIST_DIR from the test runner. */
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ASTRO_TELEMETRY_DISABLED: '1' });

const run = (script: string, env: Record<string, string>, cwd = root) =>
  spawnSync(process.execPath, [join(root, script)], { cwd, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 180_000 });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Every URL a page or the sitemap gives as its own address. */
function ownUrls(html: string): string[] {
  return [
    ...[...html.matchAll(/<link rel="canonical" href="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<meta property="og:url" content="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!),
  ];
}

describe('the origin a build is made for', () => {
  beforeAll(() => {
    const built = run('scripts/build.ts', { DIST_DIR: distDir });
    expect(built.status, built.stderr).toBe(0);
  }, 180_000);
  afterAll(() => rmSync(distDir, { recursive: true, force: true }));

  it('npm run build without SITE_URL builds for localhost, and says so in its stamp', () => {
    expect(JSON.parse(readFileSync(join(distDir, '.build-stamp.json'), 'utf8')).siteUrl).toBe('http://localhost:4321');
    expect(ownUrls(readFileSync(join(distDir, 'client/index.html'), 'utf8'))).toEqual(['http://localhost:4321/', 'http://localhost:4321/']);
  });

  it('a production server refuses that build for another origin, and says which', () => {
    const started = run('api/server.ts', { ...productionEnv(), SITE_URL: 'https://example.com', DIST_DIR: distDir, PORT: '0', HOST: '127.0.0.1' });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('Cannot start: The site was built for http://localhost:4321 but SITE_URL is https://example.com');
  });

  it('reads .env from the working directory: the origin only .env names is the one checked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
    try {
      writeFileSync(join(dir, '.env'), 'SITE_URL=https://from-dotenv.example\n# a comment\nPORT=0\n');
      const started = run('api/server.ts', { ...productionEnv(), SITE_URL: '', DIST_DIR: distDir, HOST: '127.0.0.1' }, dir);
      // An empty SITE_URL in the environment is "set": the environment wins over .env…
      expect(started.status).toBe(1);
      const { SITE_URL: _unused, ...withoutSiteUrl } = productionEnv();
      const fromFile = run('api/server.ts', { ...withoutSiteUrl, DIST_DIR: distDir, HOST: '127.0.0.1' }, dir);
      // …and without it, .env's value is used.
      expect(fromFile.status).toBe(1);
      expect(fromFile.stderr).toContain('SITE_URL is https://from-dotenv.example');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a production build needs SITE_URL', () => {
    const refused = run('scripts/build.ts', { NODE_ENV: 'production', DIST_DIR: join(distDir, 'never') });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('A production build needs SITE_URL');
  });

  it('npm start with SITE_URL=https://example.com rebuilds, and every canonical, og:url and sitemap URL is https://example.com/…', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(root, 'scripts/start.ts')], {
      cwd: root,
      env: {
        ...baseEnv(),
        SITE_URL: 'https://example.com',
        PORT: String(port),
        HOST: '127.0.0.1',
        DIST_DIR: distDir,
        PGLITE_DIR: 'memory://',
        // A realtime room that is "deployed" elsewhere: npm start starts no partykit dev for it.
        PARTYKIT_HOST: '127.0.0.1:9',
        QUIET: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(output).toContain('building the site for https://example.com');
      const urls: string[] = [];
      for (const path of ['/', '/chocolates', '/yoga', '/sitemap.xml']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(res.status, path).toBe(200);
        urls.push(...ownUrls(await res.text()));
      }
      expect(urls.length).toBeGreaterThan(8);
      for (const url of urls) expect(url).toMatch(/^https:\/\/example\.com\//);
      expect(JSON.parse(readFileSync(join(distDir, '.build-stamp.json'), 'utf8')).siteUrl).toBe('https://example.com');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 180_000);
});
