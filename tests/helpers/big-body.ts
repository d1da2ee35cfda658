/**
 * A large request body written as fast as the connection takes it (the refused-bodies tests and
 * scripts/check-memory.ts): 64 KB chunks of "a", waiting for 'drain' when the socket is full,
 * stopping as soon as the caller has its answer.
 */
import type { ClientRequest } from 'node:http';

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Writes `bytes` to `req` then ends it, unless `stopped()` says the answer is in; `counted` hears each chunk's length as it goes. */
export function writeBigBody(req: ClientRequest, bytes: number, stopped: () => boolean, counted: (n: number) => void): void {
  let sent = 0;
  const pump = () => {
    while (!stopped() && sent < bytes) {
      const n = Math.min(CHUNK.length, bytes - sent);
      sent += n;
      counted(n);
      if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
        req.once('drain', pump);
        return;
      }
    }
    if (!stopped()) req.end();
  };
  pump();
}
