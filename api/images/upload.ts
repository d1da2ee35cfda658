import type { Context } from 'hono';
import { bodyLimit } from '../middleware/body-limit.ts';
import type { AppEnv } from '../types.ts';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../contract/images.ts';
import type { ProcessedImage } from './process.ts';
import { boundaryOf, spoolMultipart } from './multipart.ts';
import { photoWork } from './queue.ts';

/**
 * Receiving one photo upload (multipart/form-data, the file in the field `file`), shared by the
 * product images and the galleries. The app-wide body limit skips these routes (api/app.ts) so
 * this larger one applies, after the admin guard: nobody else gets to send 20 MB.
 */
export const uploadBodyLimit = bodyLimit(
  // Room for the multipart framing and a few text fields around a file of the largest size.
  IMAGE_MAX_BYTES + 64 * 1024,
  (c) => c.json({ message: IMAGE_MESSAGES.tooLarge }, 413),
  // The handler streams the whole body to a temporary file before anything else: counted as it goes.
  'as read',
);

export type Received = { ok: true; image: ProcessedImage; fields: Record<string, string> } | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * Reads, checks and processes the upload; nothing is stored here. `checkFields` sees the text
 * fields before any pixel is decoded and returns a refusal message or null. The file streams to
 * a temporary file (api/images/multipart.ts); its processing waits its turn in the photo queue
 * and runs in the photo worker (api/images/queue.ts). A waiting upload has been received (the
 * browser's progress is complete) and holds no memory; its file is deleted when it is done.
 */
export async function receiveImage(c: Context<AppEnv>, checkFields?: (fields: Record<string, string>) => string | null): Promise<Received> {
  const contentType = c.req.header('content-type');
  if (!(contentType ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return { ok: false, status: 400, message: 'Send the image as multipart/form-data in the field "file".' };
  }
  const unreadable = { ok: false, status: 400, message: 'The upload could not be read. Please try again.' } as const;
  const boundary = boundaryOf(contentType);
  if (!boundary) return unreadable;
  let upload: Awaited<ReturnType<typeof spoolMultipart>>;
  try {
    upload = await spoolMultipart(c.req.raw.body, boundary, { fileField: 'file', maxFileBytes: IMAGE_MAX_BYTES });
  } catch {
    // The client went away, or the body broke off.
    return unreadable;
  }
  if ('refused' in upload) {
    if (upload.refused === 'fileTooLarge') return { ok: false, status: 413, message: IMAGE_MESSAGES.tooLarge };
    if (upload.refused === 'fieldTooLarge') return { ok: false, status: 413, message: 'A text field of the upload is too long.' };
    return unreadable;
  }
  try {
    if (!upload.file) return { ok: false, status: 400, message: 'Choose an image to upload.' };
    const wrong = checkFields?.(upload.fields);
    if (wrong) return { ok: false, status: 400, message: wrong };
    const { env } = c.var.services;
    const processed = await photoWork(env.IMAGE_CONCURRENCY).processFile(upload.file.path);
    if ('refused' in processed) {
      return { ok: false, status: processed.refused === 'tooManyPixels' ? 413 : processed.refused === 'unreadable' ? 400 : 415, message: processed.message };
    }
    return { ok: true, image: processed, fields: upload.fields };
  } finally {
    await upload.discard();
  }
}
