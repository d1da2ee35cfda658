import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';

test('the home page is served from the static build with the split banner', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const split = page.getByRole('region', { name: 'Choose yoga or chocolates' });
  await expect(split.getByRole('link', { name: /^Yoga/ })).toHaveAttribute('href', '/yoga');
  await expect(split.getByRole('link', { name: /^Chocolates/ })).toHaveAttribute('href', '/chocolates');
});

test('the API reports the database up on the same origin', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'ok', database: { status: 'up' } });
});

test('hashed assets are cached for a year, pages revalidate, text is precompressed', async ({ request }) => {
  const home = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(home.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  const asset = readdirSync('dist/client/_astro').find((f) => f.endsWith('.js'));
  expect(asset).toBeTruthy();
  const res = await request.get(`/_astro/${asset}`, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const svg = await request.get('/images/chocolates/sea-salt-caramel.svg', { headers: { 'accept-encoding': 'br' } });
  expect(svg.headers()['content-encoding']).toBe('br');
});

test('an on-demand route is rendered by Astro behind the same server', async ({ page }) => {
  const response = await page.goto('/user/some-id/book');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control']).toBe('no-store');
  await expect(page.getByText('Signing you in...')).toBeVisible();
});

test('an unknown page gets the site 404 page, an unknown API path JSON', async ({ page, request }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We couldn’t find that page');
  const api = await request.get('/api/no-such-endpoint');
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ message: 'Not found' });
});

test('the mailbox stand-in page is served while no mail service is configured', async ({ page }) => {
  await page.goto('/dev/mailbox');
  await expect(page.getByRole('heading', { name: 'Mailbox' })).toBeVisible();
});

test('the PayPal emulator SDK renders its buttons and drives createOrder/onApprove/onError', async ({ page }) => {
  await page.goto('/');
  const events = await page.evaluate(async () => {
    const log: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = '/dev/paypal/sdk/js?client-id=emulator-client-id&currency=USD';
      s.onload = () => resolve();
      s.onerror = () => reject(new Error('sdk failed'));
      document.head.append(s);
    });
    const container = document.createElement('div');
    document.body.append(container);
    const paypal = (window as any).paypal;
    let done: () => void;
    const finished = new Promise<void>((r) => (done = r));
    await paypal
      .Buttons({
        // Production creates the order on the server; here the page asks the emulator directly.
        createOrder: async () => {
          const token = await fetch('/dev/paypal/v1/oauth2/token', {
            method: 'POST',
            headers: { authorization: 'Basic ' + btoa('emulator-client-id:emulator-client-secret') },
          }).then((r) => r.json());
          const order = await fetch('/dev/paypal/v2/checkout/orders', {
            method: 'POST',
            headers: { authorization: 'Bearer ' + token.access_token, 'content-type': 'application/json' },
            body: JSON.stringify({ intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '20.00' } }] }),
          }).then((r) => r.json());
          log.push('created');
          return order.id;
        },
        onApprove: async (data: { orderID: string }) => {
          log.push(`approved:${data.orderID.length > 0}`);
          done();
        },
        onError: (err: Error) => {
          log.push(`error:${err.message}`);
          done();
        },
      })
      .render(container);
    (window as any).__log = log;
    (window as any).__finished = () => finished;
    return log;
  });
  expect(events).toEqual([]);
  await page.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
  await page.evaluate(() => (window as any).__finished());
  expect(await page.evaluate(() => (window as any).__log)).toEqual(['created', 'approved:true']);
  await page.getByRole('button', { name: 'Decline (emulator)' }).click();
  await expect.poll(() => page.evaluate(() => (window as any).__log.at(-1))).toBe('error:The payment was declined (emulator).');
});
