/**
 * `npm run dev`: the same site + API on one origin with hot reload (astro dev mounts the Hono
 * app, see astro.config.mjs), plus the realtime stand-in.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEnvOrExit, readDotEnv } from '../api/env.ts';
import { startPartykitDev } from './partykit.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
readDotEnv();
const env = loadEnvOrExit();
const room = env.standIns.realtime ? await startPartykitDev({ port: env.PARTYKIT_PORT, secret: env.PARTYKIT_SECRET, quiet: true }) : undefined;
if (room) console.log(`[dev] realtime room on 127.0.0.1:${room.port}`);
// The same interface as `npm start` (HOST, loopback by default; loadEnvOrExit refused an unsafe one).
const astro = spawn(`${root}node_modules/.bin/astro`, ['dev', '--port', String(env.PORT), '--host', env.HOST], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
const stop = async () => {
  astro.kill('SIGTERM');
  await room?.stop();
  process.exit(0);
};
astro.on('exit', async (code) => {
  await room?.stop();
  process.exit(code ?? 0);
});
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
