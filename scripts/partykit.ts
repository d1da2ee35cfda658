/**
 * The realtime stand-in: `partykit dev` running realtime/server.ts on localhost, offline.
 * Used by `npm start`, `npm run dev` and the realtime test. It listens on 127.0.0.1 only:
 * partykit has no host option, so scripts/partykit-loopback.ts is preloaded to pin it there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface PartykitDev {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startPartykitDev(options: { port: number; secret: string; quiet?: boolean }): Promise<PartykitDev> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      `${root}scripts/partykit-loopback.ts`,
      `${root}node_modules/partykit/dist/bin.mjs`,
      'dev',
      '--port',
      String(options.port),
      '--disable-request-cf-fetch',
      '--no-hotkeys',
      '--var',
      `PARTYKIT_SECRET=${options.secret}`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });

  // Ready when the room answers HTTP (an unauthenticated POST gets its 401).
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`partykit dev exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${options.port}/parties/main/ready-check`, { method: 'POST' });
      if (res.status === 401) {
        if (!options.quiet) child.stdout!.pipe(process.stdout);
        return { port: options.port, child, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await stop();
  throw new Error(`partykit dev did not become ready on port ${options.port}:\n${output}`);
}
