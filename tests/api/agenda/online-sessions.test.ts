/**
 * Issue 35: online sessions with her own meeting room. Her room link is a setting only she can
 * change (validated); booking an online slot, by the coupon or through PayPal, sets the session's
 * link in the claim, so its confirmation mail, its .ics and the client's list carry it, and no
 * public answer does. An in-person slot carries none; with no room set the mail says the link
 * will follow.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingForm, freeSlotTime } from '../../helpers/slots.ts';
import { useTestServer } from '../../helpers/server.ts';
import { requireNoIntake } from '../../helpers/intake.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { MEETING_ROOM_INVALID } from '../../../contract/settings.ts';
import { ONLINE_LINK_TO_FOLLOW } from '../../../contract/free-meetings.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
beforeAll(async () => {
  await requireNoIntake(server);
});

const ROOM = 'https://meet.jit.si/yoga-room-7';
const YOGA = 'Individual Yoga Session (60 min)';
type Client = Awaited<ReturnType<typeof createUser>>;

async function setRoom(roomUrl: string) {
  const res = await server.api('/api/admin/settings/meeting', { method: 'PUT', json: { roomUrl }, headers: { cookie: await adminCookie(server) } });
  expect(res.status).toBe(200);
  return res.json();
}

async function addSlot(inDays: number, online: boolean) {
  const { date, time, startsAt } = freeSlotTime(server.env.SITE_TIMEZONE, inDays);
  return server.services.db.insertInto('slots').values({ date, time, startsAt, online }).returning(['id', 'startsAt']).executeTakeFirstOrThrow();
}

/** The client books the slot, paid as `pay` says (the coupon, or an approved PayPal order). */
const book = (client: Client, slotId: string, pay: { couponCode: string } | { paypalOrderId: string }) =>
  server.api(`/api/bookings/${slotId}/book`, { method: 'PUT', json: bookingForm(client, YOGA, pay), headers: { cookie: client.cookie } });
const bookWithCoupon = (client: Client, slotId: string) => book(client, slotId, { couponCode: 'JOURNEY' });

const icsOf = (mail: { attachments: { filename: string; content: string }[] }) => mustFind(mail.attachments, (a) => a.filename.endsWith('.ics')).content;

/** The .ics unfolded (lines longer than 75 octets continue on the next with a space). */
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');

describe(`her meeting room setting on ${testDbKind()}`, () => {
  it('is admin-only, refuses what is not a web address, and is part of her settings', async () => {
    const client = await createUser(server);
    const anonymous = await server.api('/api/admin/settings/meeting', { method: 'PUT', json: { roomUrl: ROOM } });
    expect(anonymous.status).toBe(401);
    const asClient = await server.api('/api/admin/settings/meeting', { method: 'PUT', json: { roomUrl: ROOM }, headers: { cookie: client.cookie } });
    expect([401, 403]).toContain(asClient.status);

    const cookie = await adminCookie(server);
    for (const bad of ['javascript://alert(1)', 'ftp://example.com/room', 'meet.jit.si/room', 'https://', 'https://a b.com', 42]) {
      const res = await server.api('/api/admin/settings/meeting', { method: 'PUT', json: { roomUrl: bad }, headers: { cookie } });
      expect(res.status, String(bad)).toBe(400);
      expect((await res.json()).message).toContain(MEETING_ROOM_INVALID);
    }
    const saved = await setRoom(`  ${ROOM} `);
    expect(saved).toMatchObject({ message: 'Meeting room link saved.', settings: { meetingRoomUrl: ROOM } });
    const read = await (await server.api('/api/admin/settings', { headers: { cookie } })).json();
    expect(read.settings.meetingRoomUrl).toBe(ROOM);
    expect(await setRoom('')).toMatchObject({ message: 'Meeting room link cleared.', settings: { meetingRoomUrl: '' } });
  });
});

describe(`booking an online slot on ${testDbKind()}`, () => {
  it('by the coupon: the link is in the confirmation, its .ics and the client list, and in no public answer', async () => {
    await setRoom(ROOM);
    const client = await createUser(server);
    const other = await createUser(server);
    const slot = await addSlot(5, true);

    // Free, the slot says it is online and nothing more: no link, in any answer anyone can read.
    const before = await (await server.api(`/api/bookings?userId=${other.id}`, { headers: { cookie: other.cookie } })).text();
    expect(before).toContain(slot.id);
    expect(before).not.toContain(ROOM);

    expect((await bookWithCoupon(client, slot.id)).status).toBe(200);
    const row = await server.services.db.selectFrom('slots').select(['link', 'online']).where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ link: ROOM, online: true });

    const [mail] = await readMailbox(server, client.email);
    expect(must(mail, 'mail').subject).toMatch(/^Booking Confirmed!/);
    expect(must(mail, 'mail').text).toContain(`Join here: ${ROOM}`);
    expect(must(mail, 'mail').links).toContain(ROOM);
    const ics = unfold(icsOf(mail!));
    expect(ics).toContain(`URL:${ROOM}`);
    expect(ics).toContain('LOCATION:Online');
    expect(ics).toContain(`Join here: ${ROOM}`);

    const mine = await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json();
    expect(mine.bookedSlots.find((s: { _id: string }) => s._id === slot.id)).toMatchObject({ online: true, link: ROOM });

    // Another client, the public answers: never the link.
    for (const path of [`/api/bookings?userId=${other.id}`, '/api/publicBookings/times', '/api/events', '/api/config']) {
      const res = await server.api(path, { headers: { cookie: other.cookie } });
      expect(await res.text(), path).not.toContain(ROOM);
    }
  });

  it('through PayPal: the link is set in the claim and the confirmation carries it', async () => {
    await setRoom(ROOM);
    const client = await createUser(server);
    const slot = await addSlot(6, true);
    // The order as the booking page makes it, approved in PayPal's window (the emulator).
    const order = await server.api(`/api/bookings/${slot.id}/paypal-order`, {
      method: 'POST',
      json: { amount: 80, sessionType: YOGA },
      headers: { cookie: client.cookie },
    });
    const { orderID } = (await order.json()) as { orderID: string };
    await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Pat' } });
    const res = await book(client, slot.id, { paypalOrderId: orderID });
    expect(res.status).toBe(200);
    const [mail] = await readMailbox(server, client.email);
    expect(must(mail, 'mail').text).toContain(`Join here: ${ROOM}`);
    expect(unfold(icsOf(mail!))).toContain(`URL:${ROOM}`);
    const mine = await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json();
    expect(mine.bookedSlots.find((s: { _id: string }) => s._id === slot.id)).toMatchObject({ online: true, link: ROOM });
  });

  it('in person carries no link; online with no room set, the mail says the link will follow', async () => {
    await setRoom(ROOM);
    const client = await createUser(server);
    const inPerson = await addSlot(7, false);
    expect((await bookWithCoupon(client, inPerson.id)).status).toBe(200);
    expect((await server.services.db.selectFrom('slots').select('link').where('id', '=', inPerson.id).executeTakeFirstOrThrow()).link).toBeNull();
    const first = itemAt(await readMailbox(server, client.email), 0);
    expect(first.text).not.toContain(ROOM);

    await setRoom('');
    const later = await createUser(server);
    const online = await addSlot(8, true);
    expect((await bookWithCoupon(later, online.id)).status).toBe(200);
    const [mail] = await readMailbox(server, later.email);
    expect(must(mail, 'mail').text).toContain(ONLINE_LINK_TO_FOLLOW);
    expect(unfold(icsOf(mail!))).toContain('LOCATION:Online');
  });

  it('a move onto an online slot takes her room, back onto an in-person one clears it', async () => {
    await setRoom(ROOM);
    const client = await createUser(server);
    const start = await addSlot(10, false);
    const online = await addSlot(11, true);
    const inPerson = await addSlot(12, false);
    expect((await bookWithCoupon(client, start.id)).status).toBe(200);
    const move = (from: string, to: string) =>
      server.api(`/api/bookings/${from}/reschedule`, { method: 'POST', json: { toSlotId: to }, headers: { cookie: client.cookie } });
    const link = async (id: string) => (await server.services.db.selectFrom('slots').select('link').where('id', '=', id).executeTakeFirstOrThrow()).link;
    expect((await move(start.id, online.id)).status).toBe(200);
    expect(await link(online.id)).toBe(ROOM);
    const moved = itemAt(await readMailbox(server, client.email), 0);
    expect(moved.text).toContain(`Join here: ${ROOM}`);
    expect((await move(online.id, inPerson.id)).status).toBe(200);
    expect(await link(inPerson.id)).toBeNull();
    expect(await link(online.id)).toBeNull();
  });
});
