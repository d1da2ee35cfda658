/**
 * Issue 48 (decision 0057): her food licence. GET /api/admin/settings/food-licence answers how she
 * sells her food, seeded licensed with no number (so shipping works as before), and what a label
 * still lacks under it; PUT stores it whole, draws the public pages again (the product details
 * carry the cottage statement in cottage mode), and refuses bad input with a 400 that names the
 * field and changes nothing. Admin only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { DEFAULT_FOOD_LICENCE, FOOD_LICENCE_SAVED, type FoodLicenceView } from '../../../contract/food.ts';

const server = useTestServer();
const ROUTE = '/api/admin/settings/food-licence';
afterEach(() => vi.restoreAllMocks());

const HER_KITCHEN = {
  mode: 'licensed',
  licenceNumber: 'DK-12345',
  businessName: 'Cacao Kitchen',
  businessAddress: '12 Elm St, Portland, OR 97201',
  phone: '503-555-0100',
  capDollars: 50_000,
} as const;

const get = async (cookie?: string): Promise<FoodLicenceView> => {
  const res = await server.api(ROUTE, { headers: { cookie: cookie ?? (await adminCookie(server)) } });
  expect(res.status).toBe(200);
  return res.json();
};
const put = async (json: unknown, cookie?: string | null) =>
  server.api(ROUTE, { method: 'PUT', json, headers: cookie === null ? {} : { cookie: cookie ?? (await adminCookie(server)) } });

describe(`her food licence on ${testDbKind()}`, () => {
  it('reads licensed with no number until she sets it, and says the number (and the label’s other facts) are missing', async () => {
    expect(await get()).toEqual({
      licence: DEFAULT_FOOD_LICENCE,
      missing: ['licence number', 'business name', 'business address', 'phone'],
    });
    expect(DEFAULT_FOOD_LICENCE.mode).toBe('licensed');
  });

  it('is the admin’s only: without her session 401, and nothing changes', async () => {
    const client = await createUser(server);
    for (const cookie of [null, client.cookie]) {
      expect((await server.api(ROUTE, { headers: cookie ? { cookie } : {} })).status).toBe(401);
      expect((await put({ ...HER_KITCHEN, mode: 'cottage' }, cookie)).status).toBe(401);
    }
    expect((await get()).licence).toEqual(DEFAULT_FOOD_LICENCE);
  });

  it('refuses what is not a licence with a 400 naming the field, and keeps what was stored', async () => {
    expect((await put(HER_KITCHEN)).status).toBe(200);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ mode: 'exempt' }, /Mode must be licensed or cottage/],
      [{ mode: undefined }, /Mode must be licensed or cottage/],
      [{ businessName: '' }, /Business name is required/],
      [{ businessName: undefined }, /Business name must be text/],
      [{ businessAddress: '   ' }, /Business address is required/],
      [{ phone: 'call me' }, /Phone must be a phone number/],
      [{ licenceNumber: 'DK-1\nDK-2' }, /Licence number must be one line/],
      [{ licenceNumber: 'x'.repeat(61) }, /Licence number must be at most 60 characters/],
      [{ capDollars: 0 }, /at least \$1/],
      [{ capDollars: 12.5 }, /whole number of dollars/],
      [{ capDollars: '50000' }, /whole number of dollars/],
    ];
    for (const [change, message] of cases) {
      const res = await put({ ...HER_KITCHEN, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const body = await res.json();
      expect(body.message, JSON.stringify(change)).toMatch(message);
      expect(body.issues[0].path).toBe(Object.keys(change)[0]);
    }
    const notJson = await server.api(ROUTE, {
      method: 'PUT',
      body: 'mode=cottage',
      headers: { cookie: await adminCookie(server), 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect((await get()).licence).toEqual(HER_KITCHEN);
  });

  it('stores her licence whole, says what a label still lacks, and draws the public pages again', async () => {
    const regenerate = vi.spyOn(server.services.publisher, 'regenerate');
    const res = await put({ ...HER_KITCHEN, licenceNumber: ' DK-777 ' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ licence: { ...HER_KITCHEN, licenceNumber: 'DK-777' }, missing: [], message: FOOD_LICENCE_SAVED });
    expect(regenerate).toHaveBeenCalledWith({ kind: 'all' });

    // Cottage mode asks for no number; the cap defaults to the law's $50,000 when she leaves it out.
    const { capDollars: _cap, ...withoutCap } = HER_KITCHEN;
    const cottage = await put({ ...withoutCap, mode: 'cottage', licenceNumber: '' });
    expect(cottage.status).toBe(200);
    expect((await cottage.json()).missing).toEqual([]);
    expect(await get()).toEqual({ licence: { ...HER_KITCHEN, mode: 'cottage', licenceNumber: '' }, missing: [] });
    expect(regenerate).toHaveBeenCalledTimes(2);

    // Licensed again without the number: the number is what is missing.
    const licensed = await put({ ...HER_KITCHEN, licenceNumber: undefined, capDollars: 60_000 });
    expect(await licensed.json()).toMatchObject({ licence: { mode: 'licensed', licenceNumber: '', capDollars: 60_000 }, missing: ['licence number'] });
  });

  it('draws the public pages again when the licence comes through her whole settings too', async () => {
    const regenerate = vi.spyOn(server.services.publisher, 'regenerate');
    const res = await server.api('/api/admin/settings', {
      method: 'PUT',
      json: { foodLicence: { ...HER_KITCHEN, mode: 'cottage', licenceNumber: '' } },
      headers: { cookie: await adminCookie(server) },
    });
    expect(res.status).toBe(200);
    expect(regenerate).toHaveBeenCalledWith({ kind: 'all' });
    expect((await get()).licence.mode).toBe('cottage');
  });
});
