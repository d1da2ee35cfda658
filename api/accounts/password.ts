/**
 * The admin password hash (docs/decisions/0013): argon2id from Node's own `crypto.argon2` (no
 * native add-on to build), at or above OWASP's minimum (m = 19 MiB, t = 2, p = 1), stored in
 * the PHC string form `$argon2id$v=19$m=…,t=…,p=…$salt$hash` so the parameters travel with the
 * hash and can be raised later without breaking what is stored. Hashes of the earlier scheme
 * (`scrypt$N$r$p$salt$hash`) still verify, so an existing admin can log in once; `needsRehash`
 * then tells the caller to store a current hash.
 */
import { argon2 as argon2Cb, randomBytes, scrypt as scryptCb, timingSafeEqual, type Argon2Parameters, type ScryptOptions } from 'node:crypto';

/** What new hashes are made with; a stored hash with anything else is rehashed at the next login. */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const SALT_BYTES = 16;
const TAG_BYTES = 32;

const argon2 = (parameters: Argon2Parameters) =>
  new Promise<Buffer>((resolve, reject) => argon2Cb('argon2id', parameters, (err, key) => (err ? reject(err) : resolve(key))));

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

// PHC strings use standard base64 without padding.
const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

const prefix = (p: { memory: number; passes: number; parallelism: number }) => `$argon2id$v=19$m=${p.memory},t=${p.passes},p=${p.parallelism}$`;
const CURRENT_PREFIX = prefix(ARGON2_PARAMS);

export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(SALT_BYTES);
  const tag = await argon2({ message: password.normalize('NFKC'), nonce, tagLength: TAG_BYTES, ...ARGON2_PARAMS });
  return `${CURRENT_PREFIX}${b64(nonce)}$${b64(tag)}`;
}

/** True when `stored` was not made with the current algorithm and parameters. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) return verifyArgon2(password, stored);
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/;

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [memory, passes, parallelism] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const nonce = Buffer.from(match[4]!, 'base64');
  const expected = Buffer.from(match[5]!, 'base64');
  // A tampered hash must neither compare equal by being short nor make a login eat the
  // server's memory: lengths and costs are bounded before any work is done.
  if (expected.length < 16 || expected.length > 64 || nonce.length < 8) return false;
  if (parallelism < 1 || parallelism > 16 || passes < 1 || passes > 16) return false;
  if (memory < 8 * parallelism || memory > 256 * 1024) return false;
  try {
    const actual = await argon2({ message: password.normalize('NFKC'), nonce, tagLength: expected.length, memory, passes, parallelism });
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

// The earlier scheme, kept only to verify hashes stored before argon2id.
const SCRYPT_KEYLEN = 32;
const maxmem = 64 * 1024 * 1024;

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [kind, n, rr, pp, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const cost = { N: Number(n), r: Number(rr), p: Number(pp), maxmem };
  // A corrupted or tampered hash must never compare equal by being short, nor crash the caller.
  if (expected.length !== SCRYPT_KEYLEN) return false;
  if (!Number.isInteger(cost.N) || cost.N < 2 ** 10 || cost.N > 2 ** 20 || (cost.N & (cost.N - 1)) !== 0) return false;
  if (!Number.isInteger(cost.r) || cost.r < 1 || cost.r > 32 || !Number.isInteger(cost.p) || cost.p < 1 || cost.p > 16) return false;
  try {
    const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), SCRYPT_KEYLEN, cost);
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
