/**
 * `npm run build`, and the "build if needed" step of `npm start`: astro build, then gzip and
 * brotli copies of text assets for the static server. A stamp of the inputs' contents lets
 * `npm start` skip the build when nothing changed.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist/.build-stamp');
// What the built site is made of: the Astro project, its config, the schemas islands share, the lockfile.
const inputs = ['site', 'contract', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

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

export function isBuildCurrent(): boolean {
  return existsSync(stampFile) && existsSync(join(root, 'dist/server/entry.mjs')) && readFileSync(stampFile, 'utf8') === inputsFingerprint();
}

export function compressAssets(dir = join(root, 'dist/client')): number {
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

export function build(): void {
  const fingerprint = inputsFingerprint();
  // Run Astro on this very Node (24), not whatever `node` the shell finds first.
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    // Always a production build, whoever calls it: Vitest and Playwright's web server run with
    // NODE_ENV=test, which would otherwise bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status})`);
  const n = compressAssets();
  writeFileSync(stampFile, fingerprint);
  console.log(`[build] precompressed ${n} files`);
}

if (import.meta.main) build();
