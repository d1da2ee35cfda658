/**
 * POST /api/chocolates/validate-coupon (SPEC.md sections 5, 7, 8): codes from the database,
 * upper-cased and trimmed, the fraction they take off, the $15 minimum, and a rate limit that
 * keeps codes from being guessed.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });

const validate = (json: unknown) => server.api('/api/chocolates/validate-coupon', { method: 'POST', json });

describe(`cart coupons on ${testDbKind()}`, () => {
  it('answers a seeded code, whatever its case and spaces, with its fraction', async () => {
    for (const [code, answer] of [
      ['TAGGED15', { code: 'TAGGED15', discount: 0.15 }],
      ['  tagged15 ', { code: 'TAGGED15', discount: 0.15 }],
      ['Welcome10', { code: 'WELCOME10', discount: 0.1 }],
    ] as const) {
      const res = await validate({ code });
      expect(res.status, code).toBe(200);
      expect(await res.json()).toEqual(answer);
    }
  });

  it('refuses unknown and inactive codes as invalid', async () => {
    await server.services.db.insertInto('coupons').values({ code: 'SUMMER30', percentOff: 30, active: false }).execute();
    for (const code of ['NOPE', 'summer30', 'TAGGED', 'TAGGED15X', 'TAGGED 15']) {
      const res = await validate({ code, itemsTotal: 40 });
      expect(res.status, code).toBe(404);
      expect(await res.json()).toEqual({ message: 'Invalid coupon code' });
    }
  });

  it('refuses a missing, empty, non-text or overlong code with the same words', async () => {
    for (const body of [{}, { code: '' }, { code: '   ' }, { code: 15 }, { code: null }, { code: 'X'.repeat(65) }]) {
      const res = await validate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ message: 'Invalid coupon code' });
    }
  });

  it('applies only to orders of $15 or more when the items total is given', async () => {
    const below = await validate({ code: 'tagged15', itemsTotal: 14.99 });
    expect(below.status).toBe(400);
    expect(await below.json()).toEqual({ message: 'Coupons valid only on orders $15 or more' });
    for (const itemsTotal of [15, 15.01, 120]) {
      const res = await validate({ code: 'tagged15', itemsTotal });
      expect(res.status, String(itemsTotal)).toBe(200);
      expect(await res.json()).toEqual({ code: 'TAGGED15', discount: 0.15 });
    }
    const bad = await validate({ code: 'TAGGED15', itemsTotal: -1 });
    expect(bad.status).toBe(400);
  });

  it('limits attempts per address, so codes cannot be guessed', async () => {
    for (let i = 0; i < 10; i++) expect((await validate({ code: `GUESS${i}` })).status).toBe(404);
    const limited = await validate({ code: 'TAGGED15' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).message).toMatch(/Too many/);
  });
});
