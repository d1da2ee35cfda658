/**
 * The photo queue (issue 21): every decode and encode of a photo (uploads to the product images
 * and the galleries, the Open Graph cuts) waits here for one of IMAGE_CONCURRENCY places (2 by
 * default) and then runs in the photo worker, a child process (api/images/worker.ts).
 *
 * Why a queue: a 12-MP photo takes 100–300 MB while it is being encoded (AVIF most of all), and
 * ten uploads at once used to take it all together (the server went from 631 to 1,307 MB). Why
 * a child process: sharp's threads leave glibc's memory fragmented in the process that ran them
 * (a server that had encoded a few photos kept 600 MB more for good, one photo at a time or
 * not); the child runs with malloc settings that give freed pixels back, its thread pool capped
 * at IMAGE_CONCURRENCY (so at most that many encodes run at once), and exits when no photo has
 * come for WORKER_IDLE_MS, giving back all it held. The server itself never loads sharp.
 *
 * Waiting uploads have already been received (the browser's progress bar is full); each answer
 * comes when its photo's turn is done. Only the file's bytes are kept while it waits.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ImageRefusal, ImageVariant, ProcessedImage } from './process.ts';
import type { PhotoAnswer, PhotoJob } from './worker.ts';
import type { FocusPoint } from '../../contract/images.ts';

/** At most `concurrency` jobs run at once; the rest wait in arrival order. */
export class WorkQueue {
  readonly concurrency: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, not ${concurrency}`);
    this.concurrency = concurrency;
  }

  /** Jobs being run now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `job` once a place is free (first come, first served) and gives the place on when it ends, however it ends. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running < this.concurrency) this.#running++;
    // The place is handed over by the job that ends (below): the count stays as it is.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** How long the photo worker waits for another photo before it exits. */
export const WORKER_IDLE_MS = 30_000;

const WORKER_FILE = fileURLToPath(new URL('./worker.ts', import.meta.url));

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Pending = { child: ChildProcess; resolve: (result: unknown) => void; reject: (err: Error) => void };

/** The queue and its worker process. */
export class PhotoWork {
  readonly queue: WorkQueue;
  #child: ChildProcess | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;

  constructor(concurrency: number) {
    this.queue = new WorkQueue(concurrency);
  }

  /** api/images/process.ts's processImage of the photo in `path` (an upload spooled to disk), in turn, in the worker. */
  processFile(path: string): Promise<ProcessedImage | ImageRefusal> {
    return this.queue.run(async () => {
      const result = (await this.#send({ kind: 'processFile', path })) as ProcessedImage | ImageRefusal;
      if ('refused' in result) return result;
      return {
        ...result,
        master: asBuffer(result.master),
        variants: result.variants.map((v): ImageVariant => ({ ...v, bytes: asBuffer(v.bytes) })),
      };
    });
  }

  /** api/images/process.ts's openGraphImage, in turn, in the worker. */
  openGraph(master: Uint8Array): Promise<Buffer> {
    return this.queue.run(async () => asBuffer((await this.#send({ kind: 'openGraph', bytes: master })) as Uint8Array));
  }

  /** api/images/process.ts's recropImage (her new focal point), in turn, in the worker. */
  recrop(master: Uint8Array, focus: FocusPoint | null): Promise<ImageVariant[]> {
    return this.queue.run(async () => {
      const variants = (await this.#send({ kind: 'recrop', bytes: master, focus })) as ImageVariant[];
      return variants.map((v) => ({ ...v, bytes: asBuffer(v.bytes) }));
    });
  }

  /** Ends the worker now (its jobs fail); the next job starts another. */
  stop(): void {
    clearTimeout(this.#idle);
    const child = this.#child;
    this.#child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill();
  }

  #send(job: DistributiveOmit<PhotoJob, 'id'>): Promise<unknown> {
    const child = this.#worker();
    const id = this.#nextId++;
    clearTimeout(this.#idle);
    // Busy: the worker keeps this process alive until its answers are in.
    child.ref();
    child.channel?.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { child, resolve, reject });
      child.send({ id, ...job } satisfies PhotoJob, (err) => {
        if (err) this.#settle(id, { id, ok: false, message: `The photo worker could not be reached: ${err.message}` });
      });
    });
  }

  #worker(): ChildProcess {
    if (this.#child?.connected) return this.#child;
    const child = fork(WORKER_FILE, [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: workerEnv(this.queue.concurrency),
    });
    child.on('message', (answer: PhotoAnswer) => this.#settle(answer.id, answer));
    const gone = (why: string) => {
      if (this.#child === child) this.#child = undefined;
      for (const [id, p] of this.#pending) {
        if (p.child !== child) continue;
        this.#pending.delete(id);
        p.reject(new Error(`The photo worker stopped (${why}) before the photo was done.`));
      }
    };
    child.once('exit', (code, signal) => gone(signal ?? `exit code ${code}`));
    child.once('error', (err) => gone(err.message));
    this.#child = child;
    return child;
  }

  #settle(id: number, answer: PhotoAnswer): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    if (answer.ok) p.resolve(answer.result);
    else p.reject(new Error(answer.message));
    if (this.#pending.size === 0 && this.#child) {
      // Idle: the worker no longer keeps this process alive, and ends if nothing comes.
      const child = this.#child;
      child.unref();
      child.channel?.unref();
      this.#idle = setTimeout(() => this.#child === child && this.stop(), WORKER_IDLE_MS).unref();
    }
  }
}

/** Bytes that came through IPC (a Uint8Array) as the Buffer the rest of the code expects, without a copy. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * The worker's environment: none of the server's secrets; libuv's thread pool (where sharp runs
 * each encode) as large as the concurrency; glibc's malloc with two arenas and a fixed mmap
 * threshold, so the pixel buffers of a finished encode are unmapped instead of kept (without it
 * a worker that had encoded two photos held about 300 MB more; ignored off glibc).
 */
function workerEnv(concurrency: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    UV_THREADPOOL_SIZE: String(concurrency),
    MALLOC_ARENA_MAX: '2',
    GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, 'glibc.malloc.mmap_threshold=131072'].filter(Boolean).join(':'),
  };
}

const works = new Map<number, PhotoWork>();

/** The process's photo queue and worker for a concurrency (the servers of a test process share theirs). */
export function photoWork(concurrency: number): PhotoWork {
  let work = works.get(concurrency);
  if (!work) works.set(concurrency, (work = new PhotoWork(concurrency)));
  return work;
}
