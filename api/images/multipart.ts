/**
 * Reading a photo upload (multipart/form-data) as it streams in: the file goes straight to a
 * temporary file, its text fields are kept as strings, and nothing holds the whole body in
 * memory (issue 21). The usual way (Request.formData()) keeps three or four copies of each file
 * until the collector passes: ten 10 MB uploads at once took 300 MB, and the uploads waiting
 * their turn in the photo queue held theirs all the while. Here a waiting upload is a file in
 * the system's temporary folder, deleted once its photo is done.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SpooledUpload {
  /** The file part named `fileField`, on disk; absent when the form had none (or an empty one). */
  file?: { path: string; size: number; name: string; type: string };
  /** The text fields, by name (the last of a repeated name). */
  fields: Record<string, string>;
  /** Deletes the temporary file (call it however the upload ends). */
  discard(): Promise<void>;
}

export type SpoolRefusal = { refused: 'unreadable' | 'fileTooLarge' | 'fieldTooLarge' };

/** A text field longer than this is refused: alt text and the like are a few hundred characters. */
const MAX_FIELD_BYTES = 64 * 1024;
/** Part headers longer than this are refused. */
const MAX_HEADER_BYTES = 16 * 1024;

let folder: string | undefined;
/** This process's folder of uploads in progress, made on first use and removed when it exits. */
function uploadsFolder(): string {
  if (!folder) {
    const made = mkdtempSync(join(tmpdir(), 'yoga-uploads-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    folder = made;
  }
  return folder;
}

/** The boundary of a multipart/form-data Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /^multipart\/form-data\s*;(?:.*;)?\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Streams a multipart body: the part named `fileField` (the first one) to a temporary file of at
 * most `maxFileBytes`, the text fields to strings; other file parts are skipped. Refuses a
 * malformed body (`unreadable`), a file over the limit or a text field over 64 KB (as soon as
 * it is over).
 */
export async function spoolMultipart(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  options: { fileField: string; maxFileBytes: number },
): Promise<SpooledUpload | SpoolRefusal> {
  let path: string | undefined;
  let handle: FileHandle | undefined;
  const discard = async () => {
    await handle?.close().catch(() => {});
    handle = undefined;
    if (path) await rm(path, { force: true });
  };
  try {
    const result = await parse(body, boundary, options, {
      async open() {
        path = join(uploadsFolder(), randomUUID());
        handle = await open(path, 'wx', 0o600);
        return path;
      },
      async write(bytes) {
        await handle!.write(bytes);
      },
      async close() {
        await handle!.close();
        handle = undefined;
      },
    });
    if ('refused' in result) {
      await discard();
      return result;
    }
    return { ...result, discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

interface FileSink {
  open(): Promise<string>;
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const CRLF = Buffer.from('\r\n');

async function parse(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  options: { fileField: string; maxFileBytes: number },
  sink: FileSink,
): Promise<Omit<SpooledUpload, 'discard'> | SpoolRefusal> {
  if (!body) return { refused: 'unreadable' };
  // Each part ends at CRLF "--boundary"; the first delimiter may come without the CRLF.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  let file: SpooledUpload['file'];

  let buffer = Buffer.from(CRLF); // so the first delimiter reads like the others
  let state: 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let part: { kind: 'file' | 'field' | 'skip'; name: string; filename?: string; type: string; chunks: Buffer[]; bytes: number } | undefined;

  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer = buffer.length ? Buffer.concat([buffer, value]) : Buffer.from(value);
      // Take from the buffer whatever can be decided now.
      for (;;) {
        if (state === 'preamble') {
          const at = buffer.indexOf(delimiter);
          if (at < 0) {
            // Keep only what could still be the start of a delimiter.
            buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length + 1));
            break;
          }
          buffer = buffer.subarray(at + delimiter.length);
          state = 'afterDelimiter';
        } else if (state === 'afterDelimiter') {
          if (buffer.length < 2) break;
          if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
            state = 'done';
            break;
          }
          // Transport padding (spaces, tabs) may precede the CRLF.
          const eol = buffer.indexOf(CRLF);
          if (eol < 0) {
            if (buffer.length > 256) return { refused: 'unreadable' };
            break;
          }
          if (!/^[ \t]*$/.test(buffer.subarray(0, eol).toString('latin1'))) return { refused: 'unreadable' };
          buffer = buffer.subarray(eol + 2);
          state = 'headers';
        } else if (state === 'headers') {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) {
            if (buffer.length > MAX_HEADER_BYTES) return { refused: 'unreadable' };
            break;
          }
          const headers = parseHeaders(buffer.subarray(0, end).toString('utf8'));
          buffer = buffer.subarray(end + 4);
          if (!headers) return { refused: 'unreadable' };
          const isFile = headers.filename !== undefined;
          const kind = headers.name === options.fileField && isFile && !file ? 'file' : isFile ? 'skip' : 'field';
          part = { kind, name: headers.name, filename: headers.filename, type: headers.type, chunks: [], bytes: 0 };
          if (kind === 'file') {
            const path = await sink.open();
            file = { path, size: 0, name: headers.filename ?? '', type: headers.type };
          }
          state = 'body';
        } else if (state === 'body') {
          const at = buffer.indexOf(delimiter);
          // Everything before the delimiter is the part's; without one, all but a possible start of it.
          const take = at >= 0 ? at : Math.max(0, buffer.length - delimiter.length + 1);
          if (take > 0) {
            const bytes = buffer.subarray(0, take);
            part!.bytes += bytes.length;
            if (part!.kind === 'file') {
              if (part!.bytes > options.maxFileBytes) return { refused: 'fileTooLarge' };
              await sink.write(bytes);
            } else if (part!.kind === 'field') {
              if (part!.bytes > MAX_FIELD_BYTES) return { refused: 'fieldTooLarge' };
              part!.chunks.push(Buffer.from(bytes));
            }
            buffer = buffer.subarray(take);
          }
          if (at < 0) break;
          buffer = buffer.subarray(delimiter.length);
          if (part!.kind === 'file') {
            await sink.close();
            file!.size = part!.bytes;
          } else if (part!.kind === 'field') {
            fields[part!.name] = Buffer.concat(part!.chunks).toString('utf8');
          }
          part = undefined;
          state = 'afterDelimiter';
        } else {
          break;
        }
      }
      if (state === 'done') break;
      if (done) return { refused: 'unreadable' };
    }
    // What follows the closing delimiter (an epilogue: a CRLF) is read to the end, so the
    // connection can serve the next request; a long one is left (the answer then closes it).
    for (let epilogue = buffer.length; epilogue <= MAX_FIELD_BYTES;) {
      const { value, done } = await reader.read();
      if (done) break;
      epilogue += value.length;
    }
  } finally {
    reader.releaseLock();
  }
  if (file && file.size === 0) file = undefined;
  return { file, fields };
}

/** A part's Content-Disposition name and filename and its Content-Type; null when malformed. */
function parseHeaders(text: string): { name: string; filename?: string; type: string } | null {
  let disposition: string | undefined;
  let type = 'application/octet-stream';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return null;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') type = value;
  }
  if (!disposition || !/^form-data\b/i.test(disposition)) return null;
  const param = (key: string) => {
    const m = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(disposition!);
    return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]) : undefined;
  };
  const name = param('name');
  if (name === undefined) return null;
  const filename = param('filename');
  return { name, ...(filename !== undefined ? { filename } : {}), type };
}
