/**
 * Issue 32 (decision 0038): /yoga, rendered ahead of the request, offers her active packages with
 * their price on her scale and what each saves against single sessions, and is made again when
 * she changes a package (a retired one leaves the page).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import type { PackageView } from '../../../contract/packages.ts';

const server = useTestServer({ site: true, seedContent: true });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const yoga = async () => {
  const res = await fetch(`${server.url}/yoga`);
  expect(res.status).toBe(200);
  return (await res.text()).replaceAll('&#39;', "'");
};

describe(`her packages on /yoga, ${testDbKind()}`, () => {
  it('shows each active package with what it saves, links to the booking page, and follows her changes', async () => {
    const html = await yoga();
    expect(html).toContain('Eight weeks of yoga therapy');
    expect(html).toContain('$45 a session at the suggested $360; saves $280 against 8 single sessions at $80');
    expect(html).toContain('$90 a session at the suggested $450; saves $100 against 5 single sessions at $110');
    expect(html).toContain('href="/user/me/book"');

    const list = (await (await server.api('/api/admin/packages', { headers: { cookie } })).json()) as PackageView[];
    const five = list.find((p) => p.name === 'Five individual yoga sessions')!;
    const { _id, ...fields } = five;
    const renamed = await server.api(`/api/admin/packages/${_id}`, { method: 'PUT', json: { ...fields, name: 'Five sessions of yoga' }, headers: { cookie } });
    expect(renamed.status).toBe(200);
    expect(await yoga()).toContain('Five sessions of yoga');

    const retired = await server.api(`/api/admin/packages/${_id}`, {
      method: 'PUT',
      json: { ...fields, name: 'Five sessions of yoga', active: false },
      headers: { cookie },
    });
    expect(retired.status).toBe(200);
    const after = await yoga();
    expect(after).not.toContain('Five sessions of yoga');
    expect(after).toContain('Eight weeks of yoga therapy');
  });
});
