import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import type { ClientSlotsView } from '../../../contract/slots.ts';

/**
 * Issue 25: the client's slot list was 133 KB on the wire. Her booking calendar asks for the
 * days it shows (`from`/`to`), and the answer is compressed: a month of a year of slots is a
 * few KB. Without the range every free slot still comes (SPEC.md).
 */
const server = useTestServer();
let client: Awaited<ReturnType<typeof createUser>>;
let today: string;
beforeAll(async () => {
  client = await createUser(server);
  today = zonedNow(server.env.SITE_TIMEZONE).date;
  const slots = [];
  for (let d = 1; d <= 335; d++) {
    const date = addDays(today, d);
    for (const time of ['09:00', '10:30', '13:00', '15:00', '16:30']) slots.push({ date, time, startsAt: zonedInstant(date, time, server.env.SITE_TIMEZONE) });
  }
  for (let i = 0; i < slots.length; i += 500)
    await server.services.db
      .insertInto('slots')
      .values(slots.slice(i, i + 500))
      .execute();
});

function wire(path: string): Promise<{ status: number; bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest(`${server.url}${path}`, { headers: { cookie: client.cookie, 'accept-encoding': 'br, gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, encoding: res.headers['content-encoding'] as string | undefined }));
    })
      .on('error', reject)
      .end();
  });
}

describe(`the client's slot list on ${testDbKind()}`, () => {
  it('narrows the free slots to the days asked for; without a range, every free slot', async () => {
    const all = (await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json()) as ClientSlotsView;
    expect(all.availableSlots).toHaveLength(335 * 5);
    const from = addDays(today, 10);
    const to = addDays(today, 51);
    const month = (await (
      await server.api(`/api/bookings?userId=${client.id}&from=${from}&to=${to}`, { headers: { cookie: client.cookie } })
    ).json()) as ClientSlotsView;
    expect(month.availableSlots).toHaveLength(42 * 5);
    expect(month.availableSlots.every((s) => s.date >= from && s.date <= to)).toBe(true);
    expect((await server.api(`/api/bookings?userId=${client.id}&from=tomorrow`, { headers: { cookie: client.cookie } })).status).toBe(400);
  });

  it('a month of it is at most 20 KB on the wire, brotli (a year of slots uncompressed is far more)', async () => {
    const from = addDays(today, -1);
    const to = addDays(today, 42);
    const month = await wire(`/api/bookings?userId=${client.id}&from=${from}&to=${to}`);
    expect(month.status).toBe(200);
    expect(month.encoding).toBe('br');
    expect(month.bytes).toBeLessThanOrEqual(20 * 1024);
    const year = await wire(`/api/bookings?userId=${client.id}`);
    expect(year.encoding).toBe('br');
    expect(year.bytes).toBeGreaterThan(month.bytes * 4);
  });
});
