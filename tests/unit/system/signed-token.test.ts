import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signToken, verifyToken } from '../../../api/lib/signed-token.ts';

const SECRET = 'test-secret-test-secret-test-secret-42';

describe('signed tokens', () => {
  it('give back the payload they were signed with, for their purpose', () => {
    const token = signToken(SECRET, 'unsubscribe', 'ana@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyToken(SECRET, 'unsubscribe', token)).toBe('ana@example.com');
  });

  it('are an HMAC-SHA256 over purpose and payload, base64url', () => {
    const token = signToken(SECRET, 'unsubscribe', 'ana@example.com');
    const mac = createHmac('sha256', SECRET).update('unsubscribe\0ana@example.com').digest('base64url');
    expect(token).toBe(`${Buffer.from('ana@example.com').toString('base64url')}.${mac}`);
  });

  it('round-trip any text, non-ASCII included', () => {
    for (const payload of ['', 'ñandú@example.com', 'a.b.c', '🧘 & 🍫']) {
      expect(verifyToken(SECRET, 'p', signToken(SECRET, 'p', payload))).toBe(payload);
    }
  });

  it('are refused with another secret or for another purpose', () => {
    const token = signToken(SECRET, 'unsubscribe', 'ana@example.com');
    expect(verifyToken(`${SECRET}x`, 'unsubscribe', token)).toBeNull();
    expect(verifyToken(SECRET, 'login', token)).toBeNull();
    expect(verifyToken('', 'unsubscribe', token)).toBeNull();
  });

  it('are refused when the payload or the signature is changed, swapped or re-encoded', () => {
    const token = signToken(SECRET, 'unsubscribe', 'ana@example.com');
    const other = signToken(SECRET, 'unsubscribe', 'bo@example.com');
    const [payload, sig] = token.split('.') as [string, string];
    const [otherPayload, otherSig] = other.split('.') as [string, string];
    expect(verifyToken(SECRET, 'unsubscribe', `${otherPayload}.${sig}`)).toBeNull();
    expect(verifyToken(SECRET, 'unsubscribe', `${payload}.${otherSig}`)).toBeNull();
    // Every one-character change of the signature is refused, including the last character's
    // unused low bits (a non-canonical spelling of the same bytes).
    for (let i = 0; i < sig.length; i++) {
      for (const ch of ['A', 'B', 'Q', 'g', '_']) {
        if (sig[i] === ch) continue;
        const changed = `${sig.slice(0, i)}${ch}${sig.slice(i + 1)}`;
        expect(verifyToken(SECRET, 'unsubscribe', `${payload}.${changed}`), changed).toBeNull();
      }
    }
    expect(verifyToken(SECRET, 'unsubscribe', `${payload}.${sig.slice(0, -1)}`)).toBeNull();
    expect(verifyToken(SECRET, 'unsubscribe', `${payload}=.${sig}`)).toBeNull();
  });

  it('refuse malformed input without throwing', () => {
    for (const bad of [undefined, null, 42, {}, '', '.', 'abc', 'a.b.c', 'a.', '.b', 'a b.c', 'a+b.c/d', 'x'.repeat(5000)]) {
      expect(verifyToken(SECRET, 'unsubscribe', bad)).toBeNull();
    }
  });

  it('need a secret to sign', () => {
    expect(() => signToken('', 'unsubscribe', 'ana@example.com')).toThrow();
  });
});
