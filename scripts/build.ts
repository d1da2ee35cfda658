/**
 * `npm run build`, and the "build if needed" step of `npm start`: astro build, then gzip and
 * brotli copies of text assets for the static server. A stamp of the inputs' contents and the
 * origin built for (api/lib/build-info.ts) lets `npm start` skip the build when neither changed.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { distDirOf, originOf, readBuildStamp, writeBuildStamp } from '../api/lib/build-info.ts';
import { readDotEnv } from '../api/env.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// What the built site is made of: the Astro project, its config, the schemas islands share, the lockfile.
const inputs = ['site', 'contract', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

/** The origin a build is made for: SITE_URL, else where `npm start` listens by default (as api/env.ts says). */
export const defaultSiteUrl = () => originOf(process.env.SITE_URL ?? `http://localhost:${process.env.PORT ?? 4321}`);

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) return yield path;
  for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
}

export function inputsFingerprint(): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(join(root, input))) {
      hash.update(file.slice(root.length));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

/** The origin of the Playwright server (playwright.config.ts, api/env.ts's default SITE_URL): the tests' build is made for it once. */
export const e2eOrigin = () => `http://localhost:${process.env.E2E_PORT ?? 4399}`;

/** Built from these inputs, for this origin. */
export function isBuildCurrent(siteUrl = defaultSiteUrl(), distDir = distDirOf()): boolean {
  const stamp = readBuildStamp(distDir);
  return !!stamp && existsSync(join(distDir, 'server/entry.mjs')) && stamp.inputs === inputsFingerprint() && originOf(stamp.siteUrl) === originOf(siteUrl);
}

export function compressAssets(dir: string): number {
  let count = 0;
  for (const file of files(dir)) {
    if (!/\.(html|js|mjs|css|svg|json|xml|txt|webmanifest)$/.test(file)) continue;
    const body = readFileSync(file);
    if (body.length < 1024) continue;
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    count++;
  }
  return count;
}

/** Builds the site for `siteUrl` into `distDir` (DIST_DIR, else dist/) and stamps both. */
export function build(siteUrl = defaultSiteUrl(), distDir = distDirOf()): void {
  const fingerprint = inputsFingerprint();
  const origin = originOf(siteUrl);
  // Run Astro on this very Node (24), not whatever `node` the shell finds first.
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', distDir], {
    cwd: root,
    stdio: 'inherit',
    // Always a production build, whoever calls it: Vitest and Playwright's web server run with
    // NODE_ENV=test, which would otherwise bundle React's development build. The origin goes
    // into every canonical link, og:url and the sitemap (astro.config.mjs reads SITE_URL).
    env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: origin },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status})`);
  const n = compressAssets(join(distDir, 'client'));
  // A fresh database cluster for a first start to load instead of running initdb (decision 0051), in a
  // process of its own: `npm start` builds in the server's process, which must not carry initdb's memory.
  const template = spawnSync(process.execPath, [join(root, 'db/pglite-template.ts'), distDir], { cwd: root, stdio: 'inherit' });
  if (template.status !== 0) throw new Error(`the PGlite template failed (exit ${template.status})`);
  writeBuildStamp(distDir, { inputs: fingerprint, siteUrl: origin });
  console.log(`[build] built for ${origin}; precompressed ${n} files`);
}

if (import.meta.main) {
  readDotEnv();
  // A production build must know its origin: a default one would put localhost in every link.
  if (process.env.NODE_ENV === 'production' && !process.env.SITE_URL) {
    console.error(
      '\n  A production build needs SITE_URL (the public origin, e.g. https://example.com): it goes into canonical links, og:url and the sitemap.\n',
    );
    process.exit(1);
  }
  build();
}
