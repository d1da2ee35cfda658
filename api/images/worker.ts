/**
 * The photo worker: a child process of the server (started by api/images/queue.ts when a photo
 * comes, gone when none has come for a while) that runs the sharp pipeline of api/images/process.ts
 * on the bytes it is sent over IPC and sends the result back. Its environment, set by its parent,
 * caps libuv's thread pool (so at most IMAGE_CONCURRENCY encodes run at once) and glibc's malloc
 * (so freed pixels go back to the system), and whatever it held goes back when it exits.
 */
import { openGraphImage, processImage } from './process.ts';

export type PhotoJob = { id: number; kind: 'process' | 'openGraph'; bytes: Uint8Array };
export type PhotoAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

if (process.send) {
  process.on('message', (job: PhotoJob) => {
    const run = job.kind === 'process' ? processImage(job.bytes) : openGraphImage(job.bytes);
    run.then(
      (result) => process.send!({ id: job.id, ok: true, result } satisfies PhotoAnswer),
      (err: unknown) => process.send!({ id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies PhotoAnswer),
    );
  });
  // The server is gone (or told it to stop): nothing more to do.
  process.on('disconnect', () => process.exit(0));
}
