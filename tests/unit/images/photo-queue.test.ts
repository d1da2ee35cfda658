/**
 * Issue 21, photos under load, the parts below HTTP: the work queue lets `concurrency` jobs run
 * and the rest wait in order, whatever they end in; an upload streams to a temporary file
 * (split anywhere across reads), with its text fields and refusals; the photo worker answers
 * what the pipeline would, in its own process.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { boundaryOf, spoolMultipart, type SpooledUpload } from '../../../api/images/multipart.ts';
import { PhotoWork, WorkQueue } from '../../../api/images/queue.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { must } from '../../helpers/guards.ts';

describe('WorkQueue', () => {
  it('runs at most `concurrency` jobs at once, the others in arrival order, and goes on past a failure', async () => {
    const queue = new WorkQueue(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (i: number) => async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5 + (i % 3) * 5));
      running--;
      if (i === 2) throw new Error('boom');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => queue.run(job(i))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([0, 1, 'failed', 3, 4, 5, 6, 7]);
    expect([queue.running, queue.waiting]).toEqual([0, 0]);
  });

  it('refuses a concurrency that is not a whole number of at least 1', () => {
    expect(() => new WorkQueue(0)).toThrow(RangeError);
    expect(() => new WorkQueue(1.5)).toThrow(RangeError);
  });
});

/** A multipart body in chunks of `size` bytes (every split of the delimiter gets met). */
function streamOf(bytes: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
}

async function formBytes(form: FormData): Promise<{ bytes: Buffer; boundary: string }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const boundary = boundaryOf(request.headers.get('content-type') ?? '')!;
  return { bytes: Buffer.from(await request.arrayBuffer()), boundary };
}

describe('spoolMultipart', () => {
  const photo = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));

  it('writes the file part to a temporary file and keeps the text fields, however the body is split', async () => {
    const form = new FormData();
    form.append('alt', 'A cup of cacao — “warm” ☕');
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'cup 1.jpg');
    form.append('other', new Blob([Buffer.from('not kept')]), 'other.txt');
    form.append('note', '');
    const { bytes, boundary } = await formBytes(form);
    for (const size of [1, 3, 17, 64, 4096, bytes.length]) {
      const spooled = (await spoolMultipart(streamOf(bytes, size), boundary, { fileField: 'file', maxFileBytes: 100_000 })) as SpooledUpload;
      expect(spooled.fields, `chunks of ${size}`).toEqual({ alt: 'A cup of cacao — “warm” ☕', note: '' });
      expect(spooled.file?.name).toBe('cup 1.jpg');
      expect(spooled.file?.type).toBe('image/jpeg');
      expect(spooled.file?.size).toBe(photo.length);
      expect(readFileSync(must(spooled.file, 'spooled.file').path).equals(photo), `chunks of ${size}`).toBe(true);
      await spooled.discard();
      expect(existsSync(must(spooled.file, 'spooled.file').path)).toBe(false);
    }
  });

  it('refuses a file over the limit as soon as it is over, a long field, and a body that breaks off, leaving no file behind', async () => {
    const form = new FormData();
    form.append('file', new Blob([photo]), 'big.jpg');
    const { bytes, boundary } = await formBytes(form);
    expect(await spoolMultipart(streamOf(bytes, 1000), boundary, { fileField: 'file', maxFileBytes: 60_000 })).toEqual({ refused: 'fileTooLarge' });
    expect(await spoolMultipart(streamOf(bytes.subarray(0, 50_000), 1000), boundary, { fileField: 'file', maxFileBytes: 100_000 })).toEqual({
      refused: 'unreadable',
    });
    const long = new FormData();
    long.append('alt', 'x'.repeat(70_000));
    const longBody = await formBytes(long);
    expect(await spoolMultipart(streamOf(longBody.bytes, 4096), longBody.boundary, { fileField: 'file', maxFileBytes: 100 })).toEqual({
      refused: 'fieldTooLarge',
    });
    expect(await spoolMultipart(streamOf(Buffer.from('no parts here'), 4), 'xyz', { fileField: 'file', maxFileBytes: 100 })).toEqual({ refused: 'unreadable' });
  });

  it('has no file for a form without one, or with an empty one', async () => {
    const form = new FormData();
    form.append('file', new Blob([]), 'empty.jpg');
    form.append('alt', 'x');
    const { bytes, boundary } = await formBytes(form);
    const spooled = (await spoolMultipart(streamOf(bytes, 10), boundary, { fileField: 'file', maxFileBytes: 100 })) as SpooledUpload;
    expect(spooled.file).toBeUndefined();
    expect(spooled.fields).toEqual({ alt: 'x' });
    await spooled.discard();
  });

  it('reads the boundary from the Content-Type, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
    expect(boundaryOf('application/json; boundary=x')).toBeUndefined();
  });
});

describe('the photo worker', () => {
  it('processes a photo in a child process and answers what the pipeline makes; a broken one is refused', async () => {
    const work = new PhotoWork(1);
    try {
      const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const dir = mkdtempSync(join(tmpdir(), 'photo-worker-test-'));
      try {
        const path = join(dir, 'photo.jpg');
        writeFileSync(path, await smallJpeg(800, 600));
        const done = await work.processFile(path);
        if ('refused' in done) throw new Error(done.message);
        expect([done.width, done.height]).toEqual([800, 600]);
        expect(Buffer.isBuffer(done.master)).toBe(true);
        expect(done.variants.map((v) => `${v.format} ${v.width}`)).toEqual([
          'webp 160',
          'webp 320',
          'webp 480',
          'webp 640',
          'avif 160',
          'avif 320',
          'avif 480',
          'avif 640',
          'avif 800',
        ]);
        const cut = await work.openGraph(done.master);
        expect(cut.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
        writeFileSync(path, 'not a photo');
        expect(await work.processFile(path)).toMatchObject({ refused: 'wrongType' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      work.stop();
    }
  });
});
