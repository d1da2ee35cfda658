/**
 * Issue 20: one set of brand names. Mails are signed with her brand names from the published site
 * content (the 'site' page: teacherTitle for yoga mails, chocolateBrand for the shop's), not a
 * name in the code: what she publishes is what the next mail says.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });

/** Publishes the site's words with other brand names, as the Pages editor's publish leaves them. */
async function publishBrands(teacherTitle: string, chocolateBrand: string) {
  const { db } = server.services;
  const row = await db.selectFrom('pages').select('published').where('slug', '=', 'site').executeTakeFirstOrThrow();
  const site = { ...JSON.parse(row.published!), teacherTitle, chocolateBrand };
  await db
    .updateTable('pages')
    .set({ published: JSON.stringify(site) })
    .where('slug', '=', 'site')
    .execute();
}

async function buy(email: string) {
  const product = await server.services.db.selectFrom('products').select('id').where('inventory', '>', 0).executeTakeFirstOrThrow();
  const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup: true };
  const { orderID } = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Ana', surname: 'Lima', email } });
  expect((await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: orderID, ...cart } })).status).toBe(201);
}

describe(`her brand names in the mails on ${testDbKind()}`, () => {
  it('signs yoga mails with the yoga brand and shop mails with the chocolate brand, as published', async () => {
    // The YAML's names, published on a fresh database.
    expect((await server.api('/api/subscribers/subscribe', { method: 'POST', json: { email: 'first@example.com' } })).status).toBe(201);
    const welcome = itemAt(await readMailbox(server, 'first@example.com'), 0);
    expect(welcome.subject).toBe('Welcome to the Maya Linden Yoga newsletter');
    await buy('buyer1@example.com');
    const order = itemAt(await readMailbox(server, 'buyer1@example.com'), 0);
    expect(order.text).toContain(`Linden Cacao Co. · ${server.env.SITE_URL}`);
    expect(order.text).not.toContain('Yoga & Chocolates');

    // She renames both brands and publishes: the next mails say the new names.
    await publishBrands('Maya Yoga Therapy', 'Cacao Corner');
    expect((await server.api('/api/subscribers/subscribe', { method: 'POST', json: { email: 'second@example.com' } })).status).toBe(201);
    const welcome2 = itemAt(await readMailbox(server, 'second@example.com'), 0);
    expect(welcome2.subject).toBe('Welcome to the Maya Yoga Therapy newsletter');
    await buy('buyer2@example.com');
    const order2 = itemAt(await readMailbox(server, 'buyer2@example.com'), 0);
    expect(order2.text).toContain(`Cacao Corner · ${server.env.SITE_URL}`);
    expect(order2.text).not.toContain('Maya Yoga Therapy');
  });
});
