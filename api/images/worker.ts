/**
 * The photo worker: a child process of the server (started by api/images/queue.ts when a photo
 * comes, gone when none has come for a while) that runs the sharp pipeline of
 * api/images/process.ts on the photos it is sent over IPC (an upload by its temporary file) and
 * sends the results back. Its environment, set by its parent, caps libuv's thread pool (so at
 * most IMAGE_CONCURRENCY encodes run at once) and glibc's malloc (so freed pixels go back to the
 * system), and whatever it held goes back when it exits.
 */
import type { FocusPoint } from '../../contract/images.ts';
import { openGraphImage, processImage, recropImage } from './process.ts';

/** A photo to process, by the path of its upload on disk; or a stored master to cut for sharing. */
export type PhotoJob =
  | { id: number; kind: 'processFile'; path: string }
  | { id: number; kind: 'openGraph'; bytes: Uint8Array }
  | { id: number; kind: 'recrop'; bytes: Uint8Array; focus: FocusPoint | null };
export type PhotoAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

if (process.send) {
  process.on('message', (job: PhotoJob) => {
    const run: Promise<unknown> =
      job.kind === 'processFile' ? processImage(job.path) : job.kind === 'recrop' ? recropImage(job.bytes, job.focus) : openGraphImage(job.bytes);
    run.then(
      (result) => process.send!({ id: job.id, ok: true, result } satisfies PhotoAnswer),
      (err: unknown) => process.send!({ id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies PhotoAnswer),
    );
  });
  // The server is gone (or told it to stop): nothing more to do.
  process.on('disconnect', () => process.exit(0));
}
