/**
 * Issue 34: the last paid place of a workshop raced by twenty people at once, on PostgreSQL
 * (vitest.config.ts leaves it out of api-pglite: PGlite runs one transaction at a time, so
 * nothing would race). Twenty holds at once: one gets the place and its PayPal order, nineteen
 * are told it is held and when it frees; then twenty sign-ups race with twenty approved orders
 * for two places: the two holders are signed up and paid, once each, and nobody else is charged.
 * Issue 47: twelve holds at once from one address hold two places, never more.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { classForm } from '../../helpers/classes.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { emulatorCaptureCount } from '../../../api/services/payments/emulator.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
let ip = 0;
const post = (path: string, json: unknown) =>
  server.api(path, { method: 'POST', json, headers: { 'x-forwarded-for': `10.35.${Math.floor(++ip / 250)}.${ip % 250}` } });

async function workshop(capacity: number, title: string) {
  const date = addDays(zonedNow(server.env.SITE_TIMEZONE).date, 12);
  const row = await server.services.db
    .insertInto('events')
    .values({ title, date, time: '10:00', startsAt: zonedInstant(date, '10:00', server.env.SITE_TIMEZONE), capacity, priceCents: 5_000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title, date };
}
const people = (tag: string) =>
  Array.from({ length: 20 }, (_, i) => ({
    name: `Racer ${i}`,
    email: `${tag}-${i}-${Date.now().toString(36)}@example.com`,
    phone: '123-456-7890',
    recaptchaToken: 'dev:signup_form_submit',
  }));

describe('the last paid place raced on postgres', () => {
  it('twenty holds at once for the last place: one is held, nineteen are told it is held and when it frees (409)', async () => {
    const w = await workshop(1, `Inversions Workshop ${Date.now()}`);
    const answers = await Promise.all(people('hold').map((p) => post(`/api/events/${w.id}/paypal-order`, { amountCents: 5_000, ...p })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    // Issue 47: only held, not paid: not "This class is full." but when it frees.
    const refused = await Promise.all(answers.filter((r) => r.status === 409).map(async (r) => ((await r.json()) as { message: string }).message));
    expect(refused.every((m) => m.startsWith('The last place is held for someone paying for it right now.'))).toBe(true);
    const places = await server.services.db.selectFrom('classSignups').select(['payment']).where('eventId', '=', w.id).execute();
    expect(places).toEqual([{ payment: 'held' }]);
  });

  it('twelve holds at once from one address (issue 47): two are held, ten are 429, and the place left is a real buyer’s', async () => {
    const w = await workshop(3, `Twists Workshop ${Date.now()}`);
    const script = (json: unknown) => server.api(`/api/events/${w.id}/paypal-order`, { method: 'POST', json, headers: { 'x-forwarded-for': '10.47.99.1' } });
    const answers = await Promise.all(
      people('script')
        .slice(0, 12)
        .map((p) => script({ amountCents: 5_000, ...p })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, ...Array(10).fill(429)]);
    const real = await post(`/api/events/${w.id}/paypal-order`, { amountCents: 5_000, ...people('real')[0] });
    expect(real.status).toBe(200);
    const places = await server.services.db.selectFrom('classSignups').select(['payment']).where('eventId', '=', w.id).execute();
    expect(places).toHaveLength(3);
  });

  it('twenty paying at once for two places: two signed up and paid once each, nobody else charged', async () => {
    const w = await workshop(2, `Arm Balance Workshop ${Date.now()}`);
    const racers = people('pay');
    // Two holds made first; the other eighteen are refused an order, so they cannot pay at all.
    const holds = await Promise.all(racers.map((p) => post(`/api/events/${w.id}/paypal-order`, { amountCents: 5_000, ...p })));
    const holders = racers.filter((_, i) => itemAt(holds, i).status === 200);
    expect(holders).toHaveLength(2);
    const orders = await Promise.all(holds.filter((r) => r.status === 200).map(async (r) => ((await r.json()) as { orderID: string }).orderID));
    for (const id of orders) await approveInEmulator(server.services, id);
    const before = emulatorCaptureCount();
    // Each holder's sign-up sent ten times at once (double taps, retries).
    const signups = await Promise.all(
      holders.flatMap((p, i) => Array.from({ length: 10 }, () => post('/api/signup', classForm(w, { ...p, paypalOrderId: orders[i] })))),
    );
    expect(await Promise.all(signups.map(async (r) => `${r.status} ${r.status === 201 ? '' : await r.text()}`))).toEqual(Array(20).fill('201 '));
    expect(emulatorCaptureCount() - before).toBe(2);
    const paid = await server.services.db.selectFrom('eventPayments').select(['email', 'amountCents']).where('eventId', '=', w.id).execute();
    expect(paid.map((p) => p.email).sort()).toEqual(holders.map((p) => p.email).sort());
    const places = await server.services.db.selectFrom('classSignups').select(['payment']).where('eventId', '=', w.id).execute();
    expect(places).toEqual([{ payment: 'paid' }, { payment: 'paid' }]);
  });
});
