/**
 * Issue 20: a place for each session. Her default place (her settings) goes on the slots she
 * adds without one; POST /api/bookings takes a place per slot; PUT /api/bookings/{slotId}/place
 * changes one (a booked client is mailed the new place with the updated .ics). The confirmation
 * and the reminder carry the place (linked when it is a web address), the .ics has LOCATION (and
 * URL for a link), and the client's dashboard data has it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { sendDueReminders } from '../../../api/booking/reminders.ts';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
const STUDIO = 'Studio 3, 12 Alder St, Portland';
const ONLINE = 'https://meet.example.com/maya-linden';
const YOGA = 'Individual Yoga Session (60 min)';

beforeAll(async () => {
  admin = await adminCookie(server);
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) => server.api(path, { ...init, headers: { cookie: admin } });
const day = (n: number) => addDays(zonedNow(server.env.SITE_TIMEZONE).date, n);
/** The .ics text with its folded lines unfolded. */
const icsOf = (mail: { attachments: { content: string }[] }) => itemAt(mail.attachments, 0).content.replace(/\r\n /g, '');

async function addSlots(slots: unknown[]) {
  const res = await asAdmin('/api/bookings', { method: 'POST', json: { slots } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).slots as { _id: string; date: string; time: string; place: string; startsAt: string }[];
}

async function bookWithCoupon(slotId: string, client: Awaited<ReturnType<typeof createUser>>) {
  const res = await server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, couponCode: 'JOURNEY' },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe(`a place for each session on ${testDbKind()}`, () => {
  it('gives slots without a place her default place, and each slot its own when given', async () => {
    // None set yet: no place.
    const none = itemAt(await addSlots([{ date: day(4), time: '08:05' }]), 0);
    expect(none.place).toBe('');

    const saved = await asAdmin('/api/admin/settings', { method: 'PUT', json: { defaultPlace: STUDIO } });
    expect(saved.status).toBe(200);
    const added = await addSlots([
      { date: day(4), time: '09:05' },
      { date: day(4), time: '10:05', place: ONLINE },
      { date: day(4), time: '11:05', place: '' },
    ]);
    expect(added.map((s) => s.place)).toEqual([STUDIO, ONLINE, '']);
    // The admin's list shows them.
    const list = await (await asAdmin('/api/bookings')).json();
    const places = new Map((list.availableSlots as { _id: string; place: string }[]).map((s) => [s._id, s.place]));
    expect(added.map((s) => places.get(s._id))).toEqual([STUDIO, ONLINE, '']);
  });

  it('refuses a place that is not an address or an http(s) link, or not one line, and adds nothing', async () => {
    const before = (await (await asAdmin('/api/bookings')).json()).availableSlots.length;
    for (const place of ['javascript://alert(1)', 'ftp://files.example.com/x', 'Room 1\nRoom 2', 'x'.repeat(501), 42]) {
      const res = await asAdmin('/api/bookings', { method: 'POST', json: { slots: [{ date: day(5), time: '08:10', place }] } });
      expect(res.status, String(place)).toBe(400);
      expect((await res.json()).message).toMatch(/place/i);
    }
    expect((await (await asAdmin('/api/bookings')).json()).availableSlots.length).toBe(before);
  });

  it('puts an online place in the confirmation (linked), the .ics (LOCATION and URL) and the client’s dashboard', async () => {
    const client = await createUser(server, { firstName: 'Ana' });
    const slot = itemAt(await addSlots([{ date: day(6), time: '14:30', place: ONLINE }]), 0);
    await bookWithCoupon(slot._id, client);

    const [mail] = (await readMailbox(server, client.email)).filter((m) => m.subject.startsWith('Booking Confirmed!'));
    expect(must(mail, 'mail').text).toContain(`Place: ${ONLINE}`);
    expect(must(mail, 'mail').html).toContain(`<a href="${ONLINE}"`);
    const ics = icsOf(mail!);
    expect(ics).toContain(`\r\nLOCATION:${ONLINE}\r\n`);
    expect(ics).toContain(`\r\nURL:${ONLINE}\r\n`);
    // The teacher's notice names the place too.
    const teacher = must(
      (await readMailbox(server, server.env.TEACHER_EMAIL)).find((m) => m.subject.startsWith('New booking') && m.text.includes(client.email)),
      'teacher',
    );
    expect(teacher.text).toContain(`Place: ${ONLINE}`);

    const mine = await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json();
    expect(mine.bookedSlots).toEqual([expect.objectContaining({ _id: slot._id, place: ONLINE })]);
  });

  it('puts an address in the confirmation as text and in the .ics as LOCATION, and in the reminder', async () => {
    const client = await createUser(server, { firstName: 'Bea' });
    const slot = itemAt(await addSlots([{ date: day(7), time: '15:45', place: STUDIO }]), 0);
    await bookWithCoupon(slot._id, client);
    const [mail] = await readMailbox(server, client.email);
    expect(must(mail, 'mail').text).toContain(`Place: ${STUDIO}`);
    const ics = icsOf(mail!);
    expect(ics).toContain('\r\nLOCATION:Studio 3\\, 12 Alder St\\, Portland\r\n');
    expect(ics).toContain(`\r\nURL:${server.env.SITE_URL}/user/${client.id}\r\n`);

    // The reminder two hours before carries it.
    const sent = await sendDueReminders(server.services, new Date(new Date(slot.startsAt).getTime() - 60 * 60_000));
    expect(sent.soon).toBeGreaterThanOrEqual(1);
    const reminder = must(
      (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Reminder:')),
      'reminder',
    );
    expect(reminder.text).toContain(`Place: ${STUDIO}`);
  });

  it('changes one slot’s place; a booked client is mailed the new place with the updated .ics', async () => {
    const free = itemAt(await addSlots([{ date: day(8), time: '09:20' }]), 0);
    const moved = await asAdmin(`/api/bookings/${free._id}/place`, { method: 'PUT', json: { place: ONLINE } });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ message: 'Place saved.', clientMailed: false, slot: { _id: free._id, place: ONLINE } });

    const client = await createUser(server, { firstName: 'Cy' });
    const slot = itemAt(await addSlots([{ date: day(8), time: '10:20', place: STUDIO }]), 0);
    await bookWithCoupon(slot._id, client);
    const res = await asAdmin(`/api/bookings/${slot._id}/place`, { method: 'PUT', json: { place: ONLINE } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: 'Place saved. The client was mailed the new place.', clientMailed: true, slot: { place: ONLINE } });
    const [notice] = await readMailbox(server, client.email);
    expect(must(notice, 'notice').subject).toMatch(/^New place for your session on /);
    expect(must(notice, 'notice').text).toContain(`Place: ${ONLINE}`);
    const ics = icsOf(notice!);
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('\r\nSEQUENCE:1\r\n');
    expect(ics).toContain(`\r\nUID:booking-${slot._id}-`);
    expect(ics).toContain(`\r\nLOCATION:${ONLINE}\r\n`);
    const mine = await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json();
    expect(mine.bookedSlots[0].place).toBe(ONLINE);

    // The same place again is no news.
    const same = await asAdmin(`/api/bookings/${slot._id}/place`, { method: 'PUT', json: { place: ONLINE } });
    expect(await same.json()).toMatchObject({ clientMailed: false });
    expect((await readMailbox(server, client.email)).filter((m) => m.subject.startsWith('New place'))).toHaveLength(1);
  });

  it('refuses a bad place, an unknown slot and anyone but the admin, changing nothing', async () => {
    const [slot] = await addSlots([{ date: day(9), time: '11:30', place: STUDIO }]);
    const bad = await asAdmin(`/api/bookings/${must(slot, 'slot')._id}/place`, { method: 'PUT', json: { place: 'data://x' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/place/i);
    const unknown = await asAdmin('/api/bookings/00000000-0000-0000-0000-000000000000/place', { method: 'PUT', json: { place: STUDIO } });
    expect(unknown.status).toBe(404);
    const client = await createUser(server);
    for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
      const res = await server.api(`/api/bookings/${must(slot, 'slot')._id}/place`, { method: 'PUT', json: { place: ONLINE }, headers });
      expect(res.status).toBe(401);
    }
    const row = await server.services.db.selectFrom('slots').select('place').where('id', '=', must(slot, 'slot')._id).executeTakeFirstOrThrow();
    expect(row.place).toBe(STUDIO);
  });
});
