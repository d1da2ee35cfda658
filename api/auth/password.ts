/**
 * The admin password hash: scrypt from node:crypto (memory-hard, no native add-on to build).
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

const N = 2 ** 15;
const r = 8;
const p = 1;
const KEYLEN = 32;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { N, r, p, maxmem });
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, rr, pp, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const cost = { N: Number(n), r: Number(rr), p: Number(pp), maxmem };
  // A corrupted or tampered hash must never compare equal by being short, nor crash the caller.
  if (expected.length !== KEYLEN) return false;
  if (!Number.isInteger(cost.N) || cost.N < 2 ** 10 || cost.N > 2 ** 20 || (cost.N & (cost.N - 1)) !== 0) return false;
  if (!Number.isInteger(cost.r) || cost.r < 1 || cost.r > 32 || !Number.isInteger(cost.p) || cost.p < 1 || cost.p > 16) return false;
  try {
    const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), KEYLEN, cost);
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
