import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';

const server = useTestServer();

describe(`API skeleton on ${testDbKind()}`, () => {
  it('GET /api/health reports the database up', async () => {
    const res = await server.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: { status: 'up', kind: testDbKind() } });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.api('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  it('refuses a body above the limit with 413 and a message, before any handler reads it', async () => {
    const res = await server.api('/api/health', { method: 'POST', body: 'x'.repeat(600 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/too large/);
  });

  it("gives the PayPal client id (the emulator's here) and the SDK URL", async () => {
    const res = await server.api('/api/config/paypal');
    expect(await res.json()).toEqual({ clientId: 'emulator-client-id', currency: 'USD', sdkBaseUrl: '/dev/paypal/sdk/js', emulator: true });
  });
});

describe('mailbox stand-in', () => {
  it('shows a mail sent through the mail interface, newest first, with its links', async () => {
    await server.services.mailer.send({ to: 'First@Example.com', subject: 'First', text: 'Hello https://example.com/a?x=1&y=2' });
    await new Promise((r) => setTimeout(r, 5));
    await server.services.mailer.send({
      to: 'second@example.com',
      subject: 'Second',
      text: 'Open the link',
      html: '<p><a href="http://localhost/verify-login?token=abc&amp;x=1">Log in</a></p>',
    });
    const res = await server.api('/api/dev/mailbox');
    expect(res.status).toBe(200);
    const mails = await res.json();
    expect(mails.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(mails[0]).toMatchObject({
      to: 'second@example.com',
      text: 'Open the link',
      links: ['http://localhost/verify-login?token=abc&x=1'],
    });
    expect(new Date(mails[0].sentAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(mails[1].links).toEqual(['https://example.com/a?x=1&y=2']);

    const filtered = await (await server.api('/api/dev/mailbox?to=first@example.com')).json();
    expect(filtered).toHaveLength(1);
  });

  it('renders /dev/mailbox with clickable links and escaped content', async () => {
    await server.services.mailer.send({ to: 'x@example.com', subject: '<script>alert(1)</script>', text: 'see https://example.com/z' });
    const res = await server.api('/dev/mailbox');
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('<a href="https://example.com/z">');
  });
});

describe("PayPal emulator through the server's PayPal client", () => {
  it('creates, approves (as the buyer) and captures an order', async () => {
    const { payments } = server.services;
    expect(payments.kind).toBe('emulator');
    const order = await payments.createOrder({ amountCents: 8500, description: 'Yoga session' });
    expect(order.status).toBe('CREATED');
    // The buyer approves in the browser: the emulator's SDK buttons call this on the site's origin.
    const approve = await server.api(`/dev/paypal/v2/checkout/orders/${order.id}/approve`, { method: 'POST', json: { givenName: 'Ana' } });
    expect(approve.status).toBe(200);
    const captured = await payments.captureOrder(order.id);
    expect(captured).toMatchObject({ orderId: order.id, status: 'COMPLETED', amountCents: 8500, currency: 'USD' });
    expect(captured.payer.firstName).toBe('Ana');
    // Repeated with its PayPal-Request-Id it is answered with the same capture; any other request is refused.
    expect(await payments.captureOrder(order.id)).toEqual(captured);
    await expect(payments.captureOrder(order.id, 'another-request-id')).rejects.toMatchObject({ issue: 'ORDER_ALREADY_CAPTURED' });
  });

  it('refuses to capture an order the buyer never approved', async () => {
    const order = await server.services.payments.createOrder({ amountCents: 1000 });
    await expect(server.services.payments.captureOrder(order.id)).rejects.toMatchObject({ issue: 'ORDER_NOT_APPROVED' });
  });
});

describe('dev human check', () => {
  it('accepts exactly dev:<action> for its action', async () => {
    const { humanCheck } = server.services;
    expect(await humanCheck.verify('dev:contact_form_submit', 'contact_form_submit')).toBe(true);
    expect(await humanCheck.verify('dev:admin_login', 'contact_form_submit')).toBe(false);
    expect(await humanCheck.verify('anything', 'contact_form_submit')).toBe(false);
  });
});

describe('admin seeded from the environment', () => {
  it('stores the admin with a slow hash, never the password', async () => {
    const admin = await server.services.db.selectFrom('admins').selectAll().executeTakeFirstOrThrow();
    expect(admin.email).toBe('admin@example.com');
    expect(admin.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    expect(admin.passwordHash).not.toContain(server.env.ADMIN_PASSWORD);
  });
});

describe('same-origin writes', () => {
  it('refuses a cross-site write and a form-encoded body before any handler runs', async () => {
    const cross = await server.api('/api/health', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toEqual({ message: 'Cross-site requests are not allowed' });
    const fetchSite = await server.api('/api/health', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, json: {} });
    expect(fetchSite.status).toBe(403);
    const form = await server.api('/api/health', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
    expect(form.status).toBe(415);
    // Same-origin, it passes the check and reaches the routes: /api/health takes GET only (405, issue 47).
    const same = await server.api('/api/health', { method: 'POST', headers: { origin: server.url, 'sec-fetch-site': 'same-origin' }, json: {} });
    expect(same.status).toBe(405);
  });
});
