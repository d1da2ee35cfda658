/**
 * `npm run test:e2e`: Playwright against the built server with a fresh database, in the
 * system's Chromium (Playwright can't download browsers here). Finds the browser or says how
 * to get one.
 */
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build, e2eOrigin, isBuildCurrent } from './build.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean) as string[];
const chromium = candidates.find((p) => existsSync(p));
if (!chromium) {
  console.error(
    '\n  No Chromium found (looked at CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome).\n' +
      '  On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium\n' +
      '  Elsewhere: install Chromium or Chrome and set CHROMIUM_PATH to its executable.\n',
  );
  process.exit(1);
}

// Built for the origin the test server will have, so its start doesn't build again.
if (!isBuildCurrent(e2eOrigin())) build(e2eOrigin());
// A fresh database for every run (playwright.config.ts names it after the port).
rmSync(`${root}.data/e2e-${process.env.E2E_PORT ?? 4399}`, { recursive: true, force: true });

const result = spawnSync(`${root}node_modules/.bin/playwright`, ['test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, ASTRO_TELEMETRY_DISABLED: '1' },
});
process.exit(result.status ?? 1);
