/**
 * Issue 20: marking an order shipped (with a tracking number and carrier) or picked up tells the
 * buyer, once. PUT /api/admin/orders/{id}/status stores the tracking, mails the buyer the number
 * linked on the carrier's public tracking page, answers a confirmation for the screen, and a
 * repeated PUT of the same news mails nothing more; bad input changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { sendDueMails } from '../../../api/mail/outbox.ts';
import { readMailbox, withMailerDown } from '../../helpers/mail.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });
let admin: string;
let caramel: string;

async function buy(email: string, isLocalPickup: boolean, givenName = 'Ana') {
  const cart = { cartItems: [{ _id: caramel, quantity: 1 }], isLocalPickup };
  const { orderID } = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName, surname: 'Lima', email } });
  const res = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: orderID, ...cart } });
  expect(res.status).toBe(201);
  return (await res.json()).order._id as string;
}

const put = (id: string, json: unknown, cookie: string | null = admin) =>
  server.api(`/api/admin/orders/${id}/status`, { method: 'PUT', json, headers: cookie ? { cookie } : {} });
const orderRow = (id: string) => server.services.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The buyer's mails about delivery (not the order confirmation). */
const deliveryMails = async (to: string) => (await readMailbox(server, to)).filter((m) => /on its way|picked up/.test(m.subject));

beforeAll(async () => {
  admin = await adminCookie(server);
  caramel = (await server.services.db.selectFrom('products').select('id').where('name', '=', 'Sea Salt Caramel Tin').executeTakeFirstOrThrow()).id;
});

describe(`telling the buyer on ${testDbKind()}`, () => {
  it('marks shipped with a UPS tracking number: stored, the buyer mailed once with the linked number, a confirmation answered', async () => {
    const buyer = 'ship-ups@example.com';
    const id = await buy(buyer, false);
    const res = await put(id, { status: 'shipped', trackingNumber: ' 1Z999AA10123456784 ', carrier: 'ups' });
    expect(res.status).toBe(200);
    const body = await res.json();
    const url = 'https://www.ups.com/track?tracknum=1Z999AA10123456784';
    expect(body).toMatchObject({
      _id: id,
      status: 'shipped',
      trackingNumber: '1Z999AA10123456784',
      // A known carrier is stored under its own spelling.
      carrier: 'UPS',
      trackingUrl: url,
      message: 'Marked shipped. Ana was mailed the tracking number.',
      buyerMailed: true,
    });
    expect(await orderRow(id)).toMatchObject({ status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'UPS' });

    const mails = await deliveryMails(buyer);
    expect(mails).toHaveLength(1);
    const mail = itemAt(mails, 0);
    expect(mail.subject).toMatch(/^Your chocolate order [0-9A-F]{8} is on its way$/);
    expect(mail.text).toContain('Tracking number: 1Z999AA10123456784');
    expect(mail.text).toContain(`Track it: ${url}`);
    expect(mail.text).toContain('shipped by UPS');
    // The number is a link in the html part (to the carrier's page), and the mailbox sees it.
    expect(mail.html).toContain(`<a href="${url.replace('&', '&amp;')}"`);
    expect(mail.links).toContain(url);
    // A shop mail: signed with the chocolate brand of the published site content.
    expect(mail.text).toContain('Linden Cacao Co. · ');

    // The same PUT again: the buyer was told this already; no second mail.
    const again = await put(id, { status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'UPS' });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ buyerMailed: false, message: 'Marked shipped. Ana was mailed about it already, so no new mail went out.' });
    // And without the tracking fields (they stay stored): still nothing new to tell.
    const bare = await put(id, { status: 'shipped' });
    expect(await bare.json()).toMatchObject({ buyerMailed: false, trackingNumber: '1Z999AA10123456784' });
    expect(await deliveryMails(buyer)).toHaveLength(1);
  });

  it('links each known carrier’s tracking page and shows an unknown carrier’s number unlinked', async () => {
    const cases: [string, string | null][] = [
      ['USPS', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223856928499'],
      ['FedEx', 'https://www.fedex.com/fedextrack/?trknbr=9400111899223856928499'],
      ['DHL', 'https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=9400111899223856928499'],
      ['Bike courier', null],
    ];
    for (const [carrier, url] of cases) {
      const buyer = `ship-${carrier.replace(/\W/g, '').toLowerCase()}@example.com`;
      const id = await buy(buyer, false);
      const body = await (await put(id, { status: 'shipped', trackingNumber: '9400111899223856928499', carrier })).json();
      expect(body, carrier).toMatchObject({ carrier, trackingUrl: url, buyerMailed: true });
      const [mail] = await deliveryMails(buyer);
      expect(must(mail, 'mail').text).toContain('Tracking number: 9400111899223856928499');
      if (url) expect(must(mail, 'mail').links, carrier).toContain(url);
      else expect(must(mail, 'mail').text).not.toContain('Track it:');
    }
  });

  it('mails that the order is on its way without a tracking number, and again when a number comes later', async () => {
    const buyer = 'ship-plain@example.com';
    const id = await buy(buyer, false, 'Bo');
    const first = await (await put(id, { status: 'shipped' })).json();
    expect(first).toMatchObject({ trackingNumber: null, trackingUrl: null, message: 'Marked shipped. Bo was mailed that the order is on its way.' });
    expect(await deliveryMails(buyer)).toHaveLength(1);
    // A tracking number added afterwards is news: the buyer gets it.
    const later = await (await put(id, { status: 'shipped', trackingNumber: '420', carrier: 'USPS' })).json();
    expect(later).toMatchObject({ buyerMailed: true, message: 'Marked shipped. Bo was mailed the tracking number.' });
    const mails = await deliveryMails(buyer);
    expect(mails).toHaveLength(2);
    expect(itemAt(mails, 0).text).toContain('Tracking number: 420');
  });

  it('marks a pickup order picked up: the buyer mailed once, with a confirmation', async () => {
    const buyer = 'pickup@example.com';
    const id = await buy(buyer, true, 'Cy');
    const res = await put(id, { status: 'picked_up' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'picked_up', buyerMailed: true, message: 'Marked picked up. Cy was mailed a thank-you.' });
    const mails = await deliveryMails(buyer);
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).subject).toMatch(/was picked up$/);
    await put(id, { status: 'picked_up' });
    expect(await deliveryMails(buyer)).toHaveLength(1);
  });

  it('marking paid mails nobody; going back to paid and shipped again with the same number mails nothing new', async () => {
    const buyer = 'ship-back@example.com';
    const id = await buy(buyer, false);
    expect(await (await put(id, { status: 'paid' })).json()).toMatchObject({ message: 'Marked paid.', buyerMailed: false });
    await put(id, { status: 'shipped', trackingNumber: 'AB-1', carrier: 'DHL' });
    await put(id, { status: 'paid' });
    const again = await (await put(id, { status: 'shipped', trackingNumber: 'AB-1', carrier: 'DHL' })).json();
    expect(again.buyerMailed).toBe(false);
    expect(await deliveryMails(buyer)).toHaveLength(1);
  });

  it('refuses bad tracking input with a clear 400 and changes nothing', async () => {
    const id = await buy('ship-bad@example.com', false);
    const pickup = await buy('pickup-bad@example.com', true);
    const cases: [string, unknown, RegExp][] = [
      [id, { status: 'shipped', trackingNumber: 'x'.repeat(65) }, /Tracking number must be at most 64 characters/],
      [id, { status: 'shipped', trackingNumber: '<script>' }, /Tracking number may hold only letters, digits, spaces and hyphens/],
      [id, { status: 'shipped', trackingNumber: 42 }, /Tracking number must be text/],
      [id, { status: 'shipped', carrier: 'UPS\nX' }, /Carrier must be on one line/],
      [id, { status: 'paid', trackingNumber: '123' }, /A tracking number or carrier goes with the status shipped/],
      [pickup, { status: 'picked_up', carrier: 'UPS' }, /A tracking number or carrier goes with the status shipped/],
    ];
    for (const [orderId, json, message] of cases) {
      const res = await put(orderId, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect(await orderRow(id)).toMatchObject({ status: 'paid', trackingNumber: null, carrier: null, buyerTold: null });
    expect(await orderRow(pickup)).toMatchObject({ status: 'paid', buyerTold: null });
    expect(await deliveryMails('ship-bad@example.com')).toHaveLength(0);
  });

  it('answers 401 without the admin and mails nobody', async () => {
    const id = await buy('ship-guest@example.com', false);
    const res = await put(id, { status: 'shipped', trackingNumber: '1' }, null);
    expect(res.status).toBe(401);
    expect((await orderRow(id)).status).toBe('paid');
    expect(await deliveryMails('ship-guest@example.com')).toHaveLength(0);
  });

  it('says so when the mail could not be sent, and the outbox mails it once the mail service is back', async () => {
    const buyer = 'ship-maildown@example.com';
    const id = await buy(buyer, false, 'Di');
    await withMailerDown(server, async () => {
      const res = await put(id, { status: 'shipped', trackingNumber: '77', carrier: 'USPS' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: 'shipped',
        buyerMailed: false,
        message: 'Marked shipped. The mail to Di could not be sent yet: it will be tried again, and Mail in the admin shows it if it never leaves.',
      });
    });
    expect((await orderRow(id)).status).toBe('shipped');
    expect(await deliveryMails(buyer)).toHaveLength(0);
    // The outbox's next try, once its backoff has passed: the buyer is mailed, once.
    await sendDueMails(server.services, new Date(Date.now() + 3_600_000));
    await sendDueMails(server.services, new Date(Date.now() + 7_200_000));
    expect(await deliveryMails(buyer)).toHaveLength(1);
    // The same news again is not news: nothing new is queued.
    const again = await (await put(id, { status: 'shipped', trackingNumber: '77', carrier: 'USPS' })).json();
    expect(again.buyerMailed).toBe(false);
    expect(await deliveryMails(buyer)).toHaveLength(1);
  });

  it('lists the orders of one status with ?status= and refuses an unknown status', async () => {
    const all = (await (await server.api('/api/admin/orders', { headers: { cookie: admin } })).json()) as { status: string }[];
    const paid = (await (await server.api('/api/admin/orders?status=paid', { headers: { cookie: admin } })).json()) as { status: string; items: unknown[] }[];
    expect(paid.length).toBe(all.filter((o) => o.status === 'paid').length);
    expect(paid.every((o) => o.status === 'paid' && o.items.length === 1)).toBe(true);
    const bad = await server.api('/api/admin/orders?status=lost', { headers: { cookie: admin } });
    expect(bad.status).toBe(400);
  });
});
