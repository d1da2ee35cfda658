/**
 * Issue 47 (decision 0053): a gift card on its way to a client who is erased before its day. The
 * card waits, unsent, without her name, address or the words to her (the admin's view of it names
 * her no more); its buyer is asked for a new recipient with the receipt's change link, and the
 * teacher, for a card she gave; on its day nothing goes to the erased address; the buyer's new
 * recipient gets it. On PGlite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { uniqueAddress } from '../../helpers/gift-cards.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { deliverDueCards } from '../../../api/gift-cards/gift-cards.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const asAdmin = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie: await adminCookie(server) } });

/** A card bought through the PayPal emulator by Bea for `recipient`, to go on `sendOn`: its id. */
async function boughtFor(recipient: { name: string; email: string }, buyerEmail: string, sendOn: string): Promise<string> {
  const made = await server.api('/api/gift-cards/paypal-order', { method: 'POST', json: { amountCents: 7_500 } });
  expect(made.status).toBe(200);
  const { orderID } = (await made.json()) as { orderID: string };
  expect((await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Bea', surname: 'Buyer' } })).status).toBe(
    200,
  );
  const bought = await server.api('/api/gift-cards', {
    method: 'POST',
    json: {
      paypalOrderId: orderID,
      amountCents: 7_500,
      design: 'yoga',
      buyerName: 'Bea Buyer',
      buyerEmail,
      recipientName: recipient.name,
      recipientEmail: recipient.email,
      message: `For you, ${recipient.name}!`,
      sendOn,
    },
  });
  expect(bought.status, await bought.clone().text()).toBe(201);
  return ((await bought.json()) as { _id: string })._id;
}

describe(`a gift card on its way to a client erased before its day, ${testDbKind()}`, () => {
  it('waits unsent and unnamed; its buyer is asked for a new recipient, the teacher for her own card; the new recipient gets it', async () => {
    const client = await createUser(server, { email: uniqueAddress('odalys'), firstName: 'Odalys', lastName: 'Quennell' });
    const her = { name: 'Odalys Quennell', email: client.email };
    const buyerEmail = uniqueAddress('bea');
    const day = addDays(today(), 5);
    const bought = await boughtFor(her, buyerEmail, day);
    const given = await asAdmin('/api/admin/gift-cards', {
      method: 'POST',
      json: { amountCents: 4_000, recipientName: her.name, recipientEmail: her.email, sendOn: day },
    });
    expect(given.status).toBe(201);
    const givenId = ((await given.json()) as { _id: string })._id;
    for (const id of [bought, givenId]) expect(await (await asAdmin(`/api/admin/gift-cards/${id}`)).text()).toContain('Quennell');

    expect((await asAdmin(`/api/admin/users/${client.id}`, { method: 'DELETE' })).status).toBeLessThan(300);

    // The admin's view of both cards names her no more; their value is kept.
    for (const id of [bought, givenId]) {
      const view = await (await asAdmin(`/api/admin/gift-cards/${id}`)).text();
      expect(view, id).not.toMatch(/Odalys|Quennell|odalys/i);
    }
    // Her day comes: nothing leaves for the erased address.
    expect(await deliverDueCards(server.services, day)).toBe(0);
    expect(await readMailbox(server, her.email)).toEqual([]);

    // The buyer is asked for a new recipient, without her name; the teacher told of her own card.
    const asked = (await readMailbox(server, buyerEmail)).find((m) => /needs a new recipient/.test(m.subject));
    expect(asked, 'the buyer is asked').toBeDefined();
    expect(`${must(asked, 'asked').subject} ${must(asked, 'asked').text}`).not.toMatch(/Odalys|Quennell|odalys/i);
    const told = (await readMailbox(server, server.env.TEACHER_EMAIL)).find((m) => /A gift card you gave .* was not sent/.test(m.subject));
    expect(told, 'the teacher is told').toBeDefined();
    expect(`${must(told, 'told').subject} ${must(told, 'told').text}`).not.toMatch(/Odalys|Quennell|odalys/i);

    // The buyer's link names the new recipient: the card goes to her, today.
    const link = /\/gift-cards\/change\?card=([^&\s]+)&token=(\S+)/.exec(must(asked, 'asked').text);
    expect(link, must(asked, 'asked').text).not.toBeNull();
    const [, card, token] = link! as unknown as [string, string, string];
    expect(decodeURIComponent(card)).toBe(bought);
    const newOne = uniqueAddress('nell');
    const changed = await server.api(`/api/gift-cards/${bought}/delivery`, {
      method: 'PUT',
      json: { token: decodeURIComponent(token), recipientName: 'Nell Newton', recipientEmail: newOne, sendOn: today() },
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const delivered = itemAt(await readMailbox(server, newOne), 0);
    expect(delivered.text).toMatch(/Your code: [2-9A-HJ-NP-Z]{4}-/);
  });
});
