/**
 * The private records' encryption (issue 23, decision 0025): intake answers and session notes
 * are sealed with AES-256-GCM in this process before they reach the database, so a dump, a
 * backup or a stolen disk shows only ciphertext.
 *
 * - The key comes from PRIVATE_RECORDS_KEY (32 bytes, base64). Older keys, still needed while a
 *   rotation is under way, come from PRIVATE_RECORDS_OLD_KEYS (comma-separated).
 * - Each record carries the id of the key that sealed it: the first 16 hex digits of a SHA-256
 *   of the key (the key itself is never stored). `npm run rotate-keys` re-seals every record
 *   whose key id is not the current one; a second run finds none.
 * - Development without the variable: a key generated once and saved beside the embedded
 *   database (`<PGLITE_DIR>.private-records-key`, mode 600); with an in-memory or a PostgreSQL
 *   database, a key derived from APP_SECRET (never in production, which refuses to start
 *   without the variable).
 * - At start (checkPrivateRecords) the server refuses a key that can't open what is stored:
 *   every key id found in the records must be a configured key, and the current key must open
 *   the database's canary.
 *
 * Sealed text: `v1.<base64 of iv(12) | tag(16) | ciphertext>`. The additional data binds a
 * sealed value to its table and row, so a ciphertext copied to another client's row fails.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EnvError, type Env } from '../env.ts';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface RecordKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  current: RecordKey;
  /** Every configured key by id, the current one included. */
  byId: Map<string, RecordKey>;
  /** Where the current key came from, for the start banner. */
  source: 'environment' | 'file' | 'derived';
}

export const keyIdOf = (key: Buffer): string => createHash('sha256').update('private-records-key-id\0').update(key).digest('hex').slice(0, 16);

/** A base64 key of exactly 32 bytes, or why not (never echoing the value). */
export function parseKey(name: string, value: string): Buffer {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new EnvError(`${name} must be 32 random bytes in base64 (make one with: openssl rand -base64 32)`);
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES)
    throw new EnvError(`${name} must be 32 bytes in base64 (it decodes to ${key.length} bytes; make one with: openssl rand -base64 32)`);
  return key;
}

const record = (key: Buffer): RecordKey => ({ id: keyIdOf(key), key });

/** Where development keeps its generated key: beside the embedded database's folder. */
export const devKeyPath = (pgliteDir: string) => `${resolve(pgliteDir)}.private-records-key`;

function devKey(env: Env): { key: Buffer; source: Keyring['source'] } {
  if (!env.DATABASE_URL && env.PGLITE_DIR !== 'memory://') {
    const path = devKeyPath(env.PGLITE_DIR);
    if (existsSync(path)) return { key: parseKey(path, readFileSync(path, 'utf8')), source: 'file' };
    const key = randomBytes(KEY_BYTES);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600 });
    try {
      chmodSync(path, 0o600);
    } catch {
      // A file system without modes: the folder's own protection applies.
    }
    // Said once, when made: losing this file makes the records unreadable.
    console.log(`[practice] made the private records' key: ${path} (keep it with the database and apart from its backups)`);
    return { key, source: 'file' };
  }
  // Throwaway or shared development databases: every process of one environment derives the same key.
  return { key: Buffer.from(hkdfSync('sha256', env.APP_SECRET, 'yoga-private-records', 'dev-key', KEY_BYTES)), source: 'derived' };
}

const keyrings = new WeakMap<Env, Keyring>();

/** The keys of this environment (read once per environment). */
export function keyringOf(env: Env): Keyring {
  let ring = keyrings.get(env);
  if (ring) return ring;
  let current: RecordKey;
  let source: Keyring['source'] = 'environment';
  if (env.PRIVATE_RECORDS_KEY) current = record(parseKey('PRIVATE_RECORDS_KEY', env.PRIVATE_RECORDS_KEY));
  else if (env.NODE_ENV === 'production')
    throw new EnvError('Production needs PRIVATE_RECORDS_KEY (32 random bytes in base64) to protect intake answers and session notes');
  else {
    const dev = devKey(env);
    current = record(dev.key);
    source = dev.source;
  }
  const byId = new Map<string, RecordKey>([[current.id, current]]);
  for (const [i, value] of (env.PRIVATE_RECORDS_OLD_KEYS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .entries()) {
    const old = record(parseKey(`PRIVATE_RECORDS_OLD_KEYS (entry ${i + 1})`, value));
    byId.set(old.id, old);
  }
  ring = { current, byId, source };
  keyrings.set(env, ring);
  return ring;
}

/** Seals `plain` with the current key; `context` names the row it belongs to. */
export function seal(ring: Keyring, context: string, plain: string): { keyId: string; sealed: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { keyId: ring.current.id, sealed: `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}` };
}

/** Thrown when a record can't be opened; its message names no content. */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

/** Opens a sealed value with the key its id names. */
export function open(ring: Keyring, context: string, keyId: string, sealed: string): string {
  const key = ring.byId.get(keyId);
  if (!key) throw new SealError(`No configured key has the id ${keyId} (set PRIVATE_RECORDS_OLD_KEYS while rotating)`);
  if (!sealed.startsWith('v1.')) throw new SealError('Unknown sealed format');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SealError('Sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError(`A record sealed with key ${keyId} does not open with it (the key is not the one it was sealed with, or the record was altered)`);
  }
}
