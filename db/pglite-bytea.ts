import type { PGlite } from '@electric-sql/pglite';

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * Photos go in and out of PGlite as bytea. PGlite's own bytea serializer writes a parameter as
 * hex text through an array of one string per byte, and its parser reads it back a character
 * pair at a time: for a 7 MB photo with its sizes that is about 200 MB of short-lived objects and
 * a second of the event loop per upload (issue 21, `npm run check:memory`), and as much for every
 * photo served. These send bytes as a binary parameter (PGlite's Bind message passes a
 * Uint8Array through as is, format 1) and decode the hex text of a result natively, as `pg`
 * does with a PostgreSQL server.
 */
export function useNativeBytea(pglite: PGlite): void {
  pglite.serializers[BYTEA] = (value: unknown) => {
    if (value instanceof Uint8Array || typeof value === 'string') return value as string;
    throw new Error('Invalid input for bytea type');
  };
  pglite.parsers[BYTEA] = (text: string) => {
    // PostgreSQL's default bytea_output is hex: \x0a1b…
    if (!text.startsWith('\\x')) throw new Error('bytea in escape format is not expected');
    const bytes = Buffer.from(text.slice(2), 'hex');
    // A small Buffer sits in Node's shared pool: copy it out, so `.buffer` holds only these bytes.
    return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
  };
}
