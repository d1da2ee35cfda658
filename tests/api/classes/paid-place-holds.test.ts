/**
 * Issue 47 (decision 0054): a paid place is held by a person, not a script, on PGlite and
 * PostgreSQL. The hold asks the sign-up form's human check; one address holds at most two unpaid
 * places of a class at a time (the third ask is 429); asking again for the same mailbox never
 * moves a hold's expiry; a buyer is told "This class is full." only when paid places fill it,
 * else how many are held and when the first frees. And the sign-up's paypalOrderId is checked
 * before PayPal is asked, and an approved order pays only for the event it was made for.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { classForm } from '../../helpers/classes.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { emulatorCaptureCount } from '../../../api/services/payments/emulator.ts';
import { CLASS_FULL } from '../../../contract/signups.ts';
import { EVENT_PAYMENT_FOR_ANOTHER, TOO_MANY_HOLDS } from '../../../contract/event-prices.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
const db = () => server.services.db;
const zone = () => server.env.SITE_TIMEZONE;
let counter = 0;
const address = (who: string) => `${who}-${Date.now().toString(36)}-${++counter}@example.com`;
/** A request from the client at `ip` (the proxy in front says so: TRUST_PROXY=1). */
const from = (ip: string, path: string, json: unknown) => server.api(path, { method: 'POST', json, headers: { 'x-forwarded-for': ip } });
let ips = 0;
const anotherIp = () => `10.47.${Math.floor(++ips / 250)}.${ips % 250}`;
const HUMAN = 'dev:signup_form_submit';

async function addWorkshop(capacity: number, priceCents = 4_500, days = 9) {
  const title = `Backbend Workshop ${++counter}`;
  const date = addDays(zonedNow(zone()).date, days);
  const row = await db()
    .insertInto('events')
    .values({ title, date, time: '10:00', startsAt: zonedInstant(date, '10:00', zone()), location: 'Studio Two', capacity, priceCents })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title, date, priceCents };
}
type Workshop = Awaited<ReturnType<typeof addWorkshop>>;

const buyer = (email: string, more: Record<string, unknown> = {}) => ({ name: 'Wai Ting', email, phone: '123-456-7890', recaptchaToken: HUMAN, ...more });
const askHold = (w: Workshop, ip: string, email: string, more: Record<string, unknown> = {}) =>
  from(ip, `/api/events/${w.id}/paypal-order`, { amountCents: w.priceCents, ...buyer(email, more) });
const placesOf = (w: Workshop) =>
  db().selectFrom('classSignups').select(['id', 'email', 'payment', 'heldUntil', 'holdOrderId']).where('eventId', '=', w.id).orderBy('createdAt').execute();
const paymentsOf = (eventId: string) => db().selectFrom('eventPayments').select(['email', 'amountCents']).where('eventId', '=', eventId).execute();

/** Holds, approves and pays a place from `ip`: the sign-up's answer. */
async function buyPlace(w: Workshop, ip: string, email: string) {
  const held = await askHold(w, ip, email);
  expect(held.status, await held.clone().text()).toBe(200);
  const { orderID } = (await held.json()) as { orderID: string };
  await approveInEmulator(server.services, orderID);
  return from(ip, '/api/signup', classForm(w, { ...buyer(email), paypalOrderId: orderID }));
}

describe(`holds a person makes, not a script, on ${testDbKind()}`, () => {
  it('a hold asks the sign-up form’s human check: without it, or with another form’s, nothing is held', async () => {
    const w = await addWorkshop(3);
    const ip = anotherIp();
    for (const recaptchaToken of [undefined, '', 'dev:waitlist_form_submit', 'forged']) {
      const res = await askHold(w, ip, address('bot'), { recaptchaToken });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/verify that you're human/);
    }
    expect(await placesOf(w)).toEqual([]);
    expect((await askHold(w, ip, address('human'))).status).toBe(200);
    expect(await placesOf(w)).toHaveLength(1);
  });

  it('twelve holds from one address fill nothing: the third is 429, and a real buyer from elsewhere pays and has her place', async () => {
    const w = await addWorkshop(3);
    const script = anotherIp();
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await askHold(w, script, address(`script${i}`)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, ...Array(10).fill(429)]);
    const refused = answers[2]!;
    expect((await refused.json()).message).toBe(TOO_MANY_HOLDS);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await placesOf(w)).filter((p) => p.payment === 'held')).toHaveLength(2);

    const real = address('real');
    const paid = await buyPlace(w, anotherIp(), real);
    expect(paid.status, await paid.clone().text()).toBe(201);
    expect(await paymentsOf(w.id)).toEqual([{ email: real, amountCents: 4_500 }]);
    expect((await placesOf(w)).find((p) => p.email === real)?.payment).toBe('paid');
  });

  it('a class whose free places are only held says how many and when they free, in words; paid places fill it as "full"', async () => {
    const w = await addWorkshop(3);
    const script = anotherIp();
    expect((await askHold(w, script, address('h1'))).status).toBe(200);
    expect((await askHold(w, script, address('h2'))).status).toBe(200);
    expect((await buyPlace(w, anotherIp(), address('paid1'))).status).toBe(201);

    const late = await askHold(w, anotherIp(), address('late'));
    expect(late.status).toBe(409);
    const { message } = (await late.json()) as { message: string };
    expect(message).not.toBe(CLASS_FULL);
    expect(message).toMatch(
      /^The last 2 places are held for people paying for them right now\. If they don't pay, the first is free again at \d{1,2}:\d{2} [AP]M [A-Z]{3,4} on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}: please try again then\.$/,
    );
    expect(message).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:/);
    // With her credit or card the same answer, not "full" (the ledger's place counts the same way).

    // The holds lapse unpaid: the places are free again, for anyone.
    await db()
      .updateTable('classSignups')
      .set({ heldUntil: new Date(Date.now() - 1_000) })
      .where('eventId', '=', w.id)
      .where('payment', '=', 'held')
      .execute();
    expect((await buyPlace(w, anotherIp(), address('paid2'))).status).toBe(201);
    expect((await buyPlace(w, anotherIp(), address('paid3'))).status).toBe(201);
    // Now paid places fill it: the spec's words.
    const full = await askHold(w, anotherIp(), address('after'));
    expect(full.status).toBe(409);
    expect((await full.json()).message).toBe(CLASS_FULL);
  });

  it('asking again for the same e-mail never moves the hold’s expiry: the same order, a new one only for a new amount, one hold per mailbox', async () => {
    const w = await addWorkshop(5);
    const ip = anotherIp();
    const email = `Ana.Lima+${Date.now().toString(36)}@gmail.com`.toLowerCase();
    const first = await askHold(w, ip, email);
    expect(first.status).toBe(200);
    const { orderID } = (await first.json()) as { orderID: string };
    // Five minutes left on her hold.
    const fiveMinutes = new Date(Math.floor(Date.now() / 1000) * 1000 + 5 * 60_000);
    await db().updateTable('classSignups').set({ heldUntil: fiveMinutes }).where('eventId', '=', w.id).execute();
    const expiry = async () => new Date(itemAt(await placesOf(w), 0).heldUntil!).getTime();

    const again = await askHold(w, anotherIp(), email);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { orderID: string }).orderID).toBe(orderID);
    expect(await expiry()).toBe(fiveMinutes.getTime());

    // Another spelling of the same Gmail mailbox: refused, saying until when hers is held.
    const twin = await askHold(w, anotherIp(), email.replace('ana.lima', 'analima').replace(/\+[^@]+/, ''));
    expect(twin.status).toBe(409);
    expect((await twin.json()).message).toMatch(/already held for this e-mail address .+ until \d{1,2}:\d{2} [AP]M/);
    expect(await placesOf(w)).toHaveLength(1);
    expect(await expiry()).toBe(fiveMinutes.getTime());

    // On a sliding scale a new amount is a new order, for the same hold and the same expiry.
    await db()
      .updateTable('events')
      .set({ priceCents: null, minPriceCents: 2_000, suggestedPriceCents: 3_500, maxPriceCents: 6_000 })
      .where('id', '=', w.id)
      .execute();
    const other = await from(ip, `/api/events/${w.id}/paypal-order`, { amountCents: 3_000, ...buyer(email) });
    expect(other.status).toBe(200);
    const newOrder = ((await other.json()) as { orderID: string }).orderID;
    expect(newOrder).not.toBe(orderID);
    expect(await expiry()).toBe(fiveMinutes.getTime());
    expect(itemAt(await placesOf(w), 0).holdOrderId).toBe(newOrder);
  });

  it('POST /api/signup refuses a paypalOrderId that is not ^[A-Za-z0-9-]{1,64}$ with 400, PayPal never asked', async () => {
    const w = await addWorkshop(3);
    const email = address('odd');
    const post = (body: string) =>
      server.api('/api/signup', { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-forwarded-for': anotherIp() } });
    const form = JSON.stringify(classForm(w, buyer(email)));
    const withId = (raw: string) => `${form.slice(0, -1)},"paypalOrderId":${raw}}`;
    for (const raw of [
      JSON.stringify('ABC\u0000DEF'),
      '"\\ud800"',
      '"ab\\ud800cd"',
      JSON.stringify('A'.repeat(65)),
      JSON.stringify('ABC DEF'),
      JSON.stringify(' ABC'),
      '""',
    ]) {
      const res = await post(withId(raw));
      expect(res.status, raw).toBe(400);
      expect(typeof ((await res.json()) as { message: unknown }).message).toBe('string');
    }
    // 64 letters and digits pass the schema (then PayPal knows no such order: 400 all the same, not 5xx).
    expect((await post(withId(JSON.stringify('A'.repeat(64))))).status).toBe(400);
    expect(await placesOf(w)).toEqual([]);
  });

  it('a $10 order approved for one event does not pay for a $100 event: 400, nothing captured, nothing recorded', async () => {
    const cheap = await addWorkshop(5, 1_000);
    const dear = await addWorkshop(5, 10_000);
    const email = address('cheap');
    const ip = anotherIp();
    const held = await askHold(cheap, ip, email);
    expect(held.status).toBe(200);
    const { orderID } = (await held.json()) as { orderID: string };
    await approveInEmulator(server.services, orderID);
    const captures = emulatorCaptureCount();

    const res = await from(ip, '/api/signup', classForm(dear, { ...buyer(email), paypalOrderId: orderID }));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(EVENT_PAYMENT_FOR_ANOTHER);
    expect(emulatorCaptureCount()).toBe(captures);
    expect(await paymentsOf(dear.id)).toEqual([]);
    expect(await paymentsOf(cheap.id)).toEqual([]);
    expect(await placesOf(dear)).toEqual([]);
    expect((await placesOf(cheap)).map((p) => p.payment)).toEqual(['held']);
    expect(await db().selectFrom('paymentAttempts').select('id').where('paypalOrderId', '=', orderID).execute()).toEqual([]);

    // The order still pays for the event it was made for.
    const right = await from(ip, '/api/signup', classForm(cheap, { ...buyer(email), paypalOrderId: orderID }));
    expect(right.status, await right.clone().text()).toBe(201);
    expect(await paymentsOf(cheap.id)).toEqual([{ email, amountCents: 1_000 }]);
  });
});
