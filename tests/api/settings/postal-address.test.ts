/**
 * Issue 48 (decision 0059): her postal address, as CAN-SPAM asks every newsletter to carry.
 * PUT /api/admin/settings/postal-address {address} stores it and answers the settings with
 * POSTAL_ADDRESS_SAVED; an empty one is a 400 (POSTAL_ADDRESS_REQUIRED) that changes nothing;
 * GET answers the address her mails carry now: hers, else her shop's (her tax settings') when it
 * has a street line, else none. Admin only.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { POSTAL_ADDRESS_REQUIRED, POSTAL_ADDRESS_SAVED, type PostalAddressView, type SettingsView } from '../../../contract/settings.ts';

const server = useTestServer();
const ROUTE = '/api/admin/settings/postal-address';

const admin = async () => ({ cookie: await adminCookie(server) });
const get = async (): Promise<PostalAddressView> => {
  const res = await server.api(ROUTE, { headers: await admin() });
  expect(res.status).toBe(200);
  return res.json();
};
const put = async (json: unknown) => server.api(ROUTE, { method: 'PUT', json, headers: await admin() });
const setShop = async (line1: string) => {
  const res = await server.api('/api/admin/settings/tax', {
    method: 'PUT',
    headers: await admin(),
    json: { collectsIn: ['OR'], shopAddress: { line1, city: 'Portland', state: 'OR', zip: '97201' } },
  });
  expect(res.status).toBe(200);
};

describe(`her postal address on ${testDbKind()}`, () => {
  it('reads none while neither she nor her shop’s address gives a street, then her shop’s address, then hers', async () => {
    // A fresh site: her shop is "Portland, OR 97201" with no street line, which is no postal address.
    expect(await get()).toEqual({ address: '', from: 'none' });

    await setShop('12 Elm St');
    expect(await get()).toEqual({ address: '12 Elm St, Portland, OR 97201', from: 'shop' });

    const res = await put({ address: '  PO Box 4120\nPortland, OR 97208  ' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as SettingsView & { postal: PostalAddressView };
    expect(body.message).toBe(POSTAL_ADDRESS_SAVED);
    expect(body.settings.postalAddress).toBe('PO Box 4120\nPortland, OR 97208');
    expect(body.postal).toEqual({ address: 'PO Box 4120\nPortland, OR 97208', from: 'setting' });
    expect(await get()).toEqual({ address: 'PO Box 4120\nPortland, OR 97208', from: 'setting' });
    // The settings read it back, whole.
    const all = (await (await server.api('/api/admin/settings', { headers: await admin() })).json()) as SettingsView;
    expect(all.settings.postalAddress).toBe('PO Box 4120\nPortland, OR 97208');

    // Cleared through the settings' whole PUT: the shop's address again.
    expect((await server.api('/api/admin/settings', { method: 'PUT', headers: await admin(), json: { postalAddress: '' } })).status).toBe(200);
    expect(await get()).toEqual({ address: '12 Elm St, Portland, OR 97201', from: 'shop' });
  });

  it('refuses an empty address, and what is not one, with a 400 that names the field and changes nothing', async () => {
    expect((await put({ address: 'PO Box 7, Portland, OR 97207' })).status).toBe(200);
    const cases: [unknown, RegExp][] = [
      [{ address: '' }, new RegExp(`^address: ${POSTAL_ADDRESS_REQUIRED.replace(/[.()]/g, '\\$&')}$`)],
      [{ address: '   \n  ' }, /a PO box will do/],
      [{}, /^address: must be text$/],
      [{ address: 42 }, /^address: must be text$/],
      [{ address: 'x'.repeat(301) }, /at most 300 characters/],
      [{ address: 'a\nb\nc\nd\ne\nf' }, /at most five lines/],
    ];
    for (const [json, message] of cases) {
      const res = await put(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = await res.json();
      expect(body.message, JSON.stringify(json)).toMatch(message);
      expect(body.issues[0].path).toBe('address');
    }
    expect(await get()).toEqual({ address: 'PO Box 7, Portland, OR 97207', from: 'setting' });
  });

  it('is the admin’s only: without her session 401, and nothing changes', async () => {
    const client = await createUser(server);
    const before = await get();
    for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
      expect((await server.api(ROUTE, { headers })).status).toBe(401);
      expect((await server.api(ROUTE, { method: 'PUT', json: { address: 'PO Box 1' }, headers })).status).toBe(401);
    }
    expect(await get()).toEqual(before);
  });
});
