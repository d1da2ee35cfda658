/**
 * Issue 12, item 5: the realtime stand-in (`partykit dev`) listens on loopback only, so nobody
 * on the network can post to the room or attach to its inspector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startPartykitDev, type PartykitDev } from '../../../scripts/partykit.ts';
import { must } from '../../helpers/guards.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** 'open' or the error code of a TCP connection to host:port. */
const reach = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });

const outsideAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a && !a.internal && a.family === 'IPv4')
  .map((a) => must(a, 'a').address);

/** Every TCP socket the process tree of `pid` listens on, as `address:port` (needs `ss`). */
function listeningOf(pid: number): string[] | undefined {
  try {
    const children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const pids = new Set([String(pid), ...children]);
    return execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => [...line.matchAll(/pid=(\d+)/g)].some((m) => pids.has(m[1]!)))
      .map((line) => line.trim().split(/\s+/)[3]!);
  } catch {
    return undefined;
  }
}

let room: PartykitDev;
beforeAll(async () => {
  room = await startPartykitDev({ port: await freePort(), secret: 'loopback-test', quiet: true });
}, 60_000);
afterAll(async () => {
  await room?.stop();
});

describe('partykit dev', () => {
  it('answers on 127.0.0.1', async () => {
    expect(await reach('127.0.0.1', room.port)).toBe('open');
  });

  it.skipIf(outsideAddresses.length === 0)('is not reachable on the machine’s other addresses', async () => {
    for (const address of outsideAddresses) expect(await reach(address, room.port), address).toBe('ECONNREFUSED');
  });

  it('listens on loopback only, the room and its inspector alike', (ctx) => {
    const sockets = listeningOf(room.child.pid!);
    if (!sockets) return ctx.skip();
    expect(sockets.length).toBeGreaterThan(0);
    for (const socket of sockets) expect(socket, socket).toMatch(/^(127\.0\.0\.1|\[::1\]):\d+$/);
  });
});
