import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../types.ts';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../contract/images.ts';
import type { ProcessedImage } from './process.ts';
import { photoWork } from './queue.ts';

/**
 * Receiving one photo upload (multipart/form-data, the file in the field `file`), shared by the
 * product images and the galleries. The app-wide body limit skips these routes (api/app.ts) so
 * this larger one applies, after the admin guard: nobody else gets to send 20 MB.
 */
export const uploadBodyLimit = bodyLimit({
  // Room for the multipart framing and a few text fields around a file of the largest size.
  maxSize: IMAGE_MAX_BYTES + 64 * 1024,
  // The rest of the body is never read, so the connection can't be reused: say so.
  onError: (c) => c.json({ message: IMAGE_MESSAGES.tooLarge }, 413, { connection: 'close' }),
});

export type Received = { ok: true; image: ProcessedImage; fields: Record<string, string> } | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * Reads, checks and processes the upload; nothing is stored here. `checkFields` sees the text
 * fields before any pixel is decoded and returns a refusal message or null. The processing
 * waits its turn in the photo queue and runs in the photo worker (api/images/queue.ts); the
 * upload itself has been received by then, and only its bytes are kept while it waits.
 */
export async function receiveImage(c: Context<AppEnv>, checkFields?: (fields: Record<string, string>) => string | null): Promise<Received> {
  const read = await readUpload(c, checkFields);
  if (!read.ok) return read;
  const { env } = c.var.services;
  const processed = await photoWork(env.IMAGE_CONCURRENCY).process(read.bytes);
  if ('refused' in processed) {
    return { ok: false, status: processed.refused === 'tooManyPixels' ? 413 : processed.refused === 'unreadable' ? 400 : 415, message: processed.message };
  }
  return { ok: true, image: processed, fields: read.fields };
}

/** The file's bytes and the text fields; the parsed form (another copy of the file) is left behind for the collector. */
async function readUpload(
  c: Context<AppEnv>,
  checkFields?: (fields: Record<string, string>) => string | null,
): Promise<{ ok: true; bytes: Uint8Array; fields: Record<string, string> } | Extract<Received, { ok: false }>> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return { ok: false, status: 400, message: 'Send the image as multipart/form-data in the field "file".' };
  }
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    return { ok: false, status: 400, message: 'The upload could not be read. Please try again.' };
  }
  const file = body['file'];
  if (!(file instanceof File) || file.size === 0) return { ok: false, status: 400, message: 'Choose an image to upload.' };
  if (file.size > IMAGE_MAX_BYTES) return { ok: false, status: 413, message: IMAGE_MESSAGES.tooLarge };
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields[k] = v;
  const wrong = checkFields?.(fields);
  if (wrong) return { ok: false, status: 400, message: wrong };
  return { ok: true, bytes: new Uint8Array(await file.arrayBuffer()), fields };
}
