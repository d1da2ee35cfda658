/**
 * `npm start`: build the site if its sources changed, then start the realtime stand-in (when
 * no PARTYKIT_HOST is configured) and the one Node server. Migrations and the first seed run
 * inside the server's start.
 */
import { build, isBuildCurrent } from './build.ts';
import { loadEnvOrExit, orCannotStart, readDotEnv } from '../api/env.ts';
import { banner, startServer } from '../api/server.ts';
import { startPartykitDev, type PartykitDev } from './partykit.ts';

process.env.ASTRO_TELEMETRY_DISABLED = '1';

readDotEnv();
const env = loadEnvOrExit();

// Built from these sources for this SITE_URL, or built again: the origin is in every page's links.
if (isBuildCurrent(env.SITE_URL)) console.log('[start] site build is up to date');
else {
  console.log(`[start] building the site for ${env.SITE_URL}…`);
  build(env.SITE_URL);
}

let room: PartykitDev | undefined;
if (env.standIns.realtime) {
  room = await startPartykitDev({ port: env.PARTYKIT_PORT, secret: env.PARTYKIT_SECRET, quiet: true });
}
const running = await orCannotStart(startServer(env));
console.log(banner(running));

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([running.close(), room?.stop()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
