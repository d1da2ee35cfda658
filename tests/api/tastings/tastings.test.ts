/**
 * Issue 34: private tastings, on PGlite and PostgreSQL. A request from /chocolates (human check
 * `tasting_request`, two or three days from her today) lands on Today with her notice mailed; bad
 * input is refused with its reason and stores nothing. Her quote mails the client an absolute pay
 * link whose token alone opens the pay page. The deposit is paid through the emulator as the
 * 'tasting' purchase kind: once, even replayed or raced by a second order; it holds the day as a
 * private event of the guests' size. The balance is paid by hand (or the link); deposits and
 * balances are income in the tax year and the finances. A checkout overtaken by the reconciler
 * (as after a crash) records the deposit once.
 */
import { rowCount } from '../../helpers/row-count.ts';
import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { until } from '../../helpers/until.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { reconcilePayments } from '../../../api/money/reconcile.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { TASTING_DATE_PAST, TASTING_DATES_COUNT, type AdminTastingView, type TastingQuoteView } from '../../../contract/tastings.ts';
import type { TaxYearView } from '../../../contract/books.ts';
import type { FinancesView, TodayView } from '../../../contract/backoffice.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const db = () => server.services.db;
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const day = (n: number) => addDays(today(), n);

let n = 0;
const address = (who: string) => `${who}-${Date.now().toString(36)}-${++n}@example.com`;

const asAdmin = async (path: string, init: { method?: string; json?: unknown } = {}) =>
  server.api(path, { method: init.method ?? 'GET', headers: { cookie: await adminCookie(server) }, ...(init.json !== undefined ? { json: init.json } : {}) });
const post = (path: string, json: unknown) => server.api(path, { method: 'POST', json });

const requestBody = (more: Record<string, unknown> = {}) => ({
  name: 'Tess Taster',
  email: address('tess'),
  phone: '503-555-0100',
  occasion: 'Team retreat',
  guests: 18,
  dates: [day(10), day(12), day(14)],
  place: '12 Cacao Lane, Portland',
  recaptchaToken: 'dev:tasting_request',
  ...more,
});
const countRequests = () => rowCount(db(), 'tastingRequests');

async function requested(more: Record<string, unknown> = {}) {
  const body = requestBody(more);
  const res = await post('/api/tastings', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return { id: ((await res.json()) as { _id: string })._id, body };
}

const standard = (date: string) => ({ priceCents: 52_000, depositCents: 26_000, date, time: '18:00', place: '12 Cacao Lane, Portland' });
const LINK = /(https?:\/\/\S+\/tastings\/pay\?quote=([\w-]+)&token=([\w-]+))/;

/** A request quoted at her standard: the quote's id and the link's token, as the client's mail carries them. */
async function quoted(more: Record<string, unknown> = {}) {
  const { id, body } = await requested(more);
  const res = await asAdmin(`/api/admin/tastings/${id}/quote`, { method: 'POST', json: standard(body.dates[0] as string) });
  expect(res.status, await res.clone().text()).toBe(201);
  const [mail] = await readMailbox(server, body.email as string);
  const [, link, quoteId, token] = LINK.exec(must(mail, 'mail').text)!;
  return { requestId: id, body, link: link!, quoteId: quoteId!, token: token!, mail: mail! };
}

/** The order for `part`, approved in the emulator's window (`captureDelayMs`: PayPal slow to answer its capture). */
async function approvedOrder(quoteId: string, token: string, part: 'deposit' | 'balance', captureDelayMs = 0) {
  const made = await post(`/api/tastings/quotes/${quoteId}/paypal-order`, { token, part });
  expect(made.status, await made.clone().text()).toBe(200);
  const { orderID } = (await made.json()) as { orderID: string };
  await approveInEmulator(server.services, orderID, { givenName: 'Tess', surname: 'Taster', captureDelayMs });
  return orderID;
}
const pay = (quoteId: string, token: string, part: string, paypalOrderId: string) =>
  post(`/api/tastings/quotes/${quoteId}/pay`, { token, part, paypalOrderId });
const paymentsOf = (quoteId: string) => db().selectFrom('tastingPayments').selectAll().where('quoteId', '=', quoteId).orderBy('createdAt').execute();
const quoteRow = (quoteId: string) => db().selectFrom('tastingQuotes').selectAll().where('id', '=', quoteId).executeTakeFirstOrThrow();

describe(`private tastings on ${testDbKind()}`, () => {
  it('refuses bad requests with their reason and stores nothing; checks the human for tasting_request', async () => {
    const before = await countRequests();
    const refusals: [Record<string, unknown>, string | RegExp][] = [
      [{ dates: [day(3)] }, TASTING_DATES_COUNT],
      [{ dates: [day(3), day(4), day(5), day(6)] }, TASTING_DATES_COUNT],
      [{ dates: [day(3), day(3)] }, 'Please give different days.'],
      [{ dates: [day(-1), day(3)] }, TASTING_DATE_PAST],
      [{ dates: ['2031-02-30', day(3)] }, 'Date is not a real date'],
      [{ guests: 0 }, 'Number of guests must be at least 1'],
      [{ name: '' }, 'Name is required'],
      [{ email: 'nope' }, 'Please enter a valid email address.'],
      [{ occasion: '' }, 'Occasion is required'],
      [{ place: '' }, 'Place is required'],
      // A token made for another form's action is no human check of this one.
      [{ recaptchaToken: 'dev:contact_form_submit' }, /Verification failed/],
      [{ recaptchaToken: undefined }, /Verification failed/],
    ];
    for (const [change, message] of refusals) {
      const res = await post('/api/tastings', requestBody(change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(((await res.json()) as { message: string }).message, JSON.stringify(change)).toMatch(message);
    }
    expect(await countRequests()).toBe(before);
  });

  it('a request lands on Today with her notice; her quote mails an absolute pay link that only its token opens', async () => {
    const { id, body } = await requested();
    const notice = itemAt(await readMailbox(server, server.env.TEACHER_EMAIL), 0);
    expect(notice.subject).toBe('Tasting request from Tess Taster (18 guests)');
    expect(notice.text).toContain(`Possible days: ${body.dates.join(', ')}`);

    const todayView = (await (await asAdmin('/api/admin/today')).json()) as TodayView;
    expect(todayView.tastingRequests.href).toBe('/admin/tastings');
    expect(todayView.tastingRequests.items.map((i) => i._id)).toContain(id);

    // Her quote: the deposit above the price is refused; an unknown request is 404.
    expect((await asAdmin(`/api/admin/tastings/${id}/quote`, { method: 'POST', json: { ...standard(day(10)), depositCents: 60_000 } })).status).toBe(400);
    expect((await asAdmin(`/api/admin/tastings/${id}/quote`, { method: 'POST', json: standard(day(-1)) })).status).toBe(400);
    expect((await asAdmin('/api/admin/tastings/no-such-request/quote', { method: 'POST', json: standard(day(10)) })).status).toBe(404);
    expect(await db().selectFrom('tastingQuotes').select('id').where('requestId', '=', id).execute()).toEqual([]);

    const res = await asAdmin(`/api/admin/tastings/${id}/quote`, { method: 'POST', json: standard(day(10)) });
    expect(res.status).toBe(201);
    const mail = itemAt(await readMailbox(server, body.email as string), 0);
    expect(mail.subject).toBe(`Your tasting quote: Team retreat on ${day(10)}`);
    expect(mail.text).toContain('Price: $520.00');
    expect(mail.text).toContain('Deposit to hold the day: $260.00');
    const [, link, quoteId, token] = LINK.exec(mail.text)!;
    expect(must(link, 'link').startsWith(`${server.env.SITE_URL}/tastings/pay?`)).toBe(true);
    // Answered: off Today.
    const after = (await (await asAdmin('/api/admin/today')).json()) as TodayView;
    expect(after.tastingRequests.items.map((i) => i._id)).not.toContain(id);

    const view = await server.api(`/api/tastings/quotes/${quoteId}?token=${token}`);
    expect(view.status).toBe(200);
    expect((await view.json()) as TastingQuoteView).toMatchObject({
      occasion: 'Team retreat',
      date: day(10),
      time: '18:00',
      place: '12 Cacao Lane, Portland',
      priceCents: 52_000,
      depositCents: 26_000,
      paidCents: 0,
      due: { part: 'deposit', amountCents: 26_000 },
    });
    // Any other token, or the token of another quote, opens nothing.
    expect((await server.api(`/api/tastings/quotes/${quoteId}?token=AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    const other = await quoted();
    expect((await server.api(`/api/tastings/quotes/${other.quoteId}?token=${token}`)).status).toBe(404);
    expect((await post(`/api/tastings/quotes/${quoteId}/paypal-order`, { token: 'AAAAAAAAAAAAAAAAAAAAAA', part: 'deposit' })).status).toBe(404);
  });

  it('takes the deposit once, replayed or raced, holds the day as a private event, then the balance by hand', async () => {
    const t = await quoted({ guests: 24 });
    // The balance is not due before the deposit.
    expect((await post(`/api/tastings/quotes/${t.quoteId}/paypal-order`, { token: t.token, part: 'balance' })).status).toBe(409);
    // Two tabs: two orders for the deposit, both approved.
    const first = await approvedOrder(t.quoteId, t.token, 'deposit');
    const second = await approvedOrder(t.quoteId, t.token, 'deposit');

    const paid = await pay(t.quoteId, t.token, 'deposit', first);
    expect(paid.status, await paid.clone().text()).toBe(201);
    expect(await paid.json()).toEqual({ part: 'deposit', amountCents: 26_000, payerFirstName: 'Tess' });
    // The same order again answers the same, and nothing more is taken or recorded.
    const again = await pay(t.quoteId, t.token, 'deposit', first);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ part: 'deposit', amountCents: 26_000, payerFirstName: 'Tess' });
    // The other tab's order: the deposit is no longer what is due.
    expect((await pay(t.quoteId, t.token, 'deposit', second)).status).toBe(409);
    expect(await paymentsOf(t.quoteId)).toMatchObject([{ part: 'deposit', amountCents: 26_000, method: 'paypal', paypalOrderId: first, paidOn: today() }]);
    expect(await db().selectFrom('paymentAttempts').select(['kind', 'state']).where('paypalOrderId', 'in', [first, second]).execute()).toEqual([
      { kind: 'tasting', state: 'completed' },
    ]);

    // The day is held in her agenda: a private event for the guests.
    const quote = await quoteRow(t.quoteId);
    expect(quote.depositPaidAt).not.toBeNull();
    const event = await db().selectFrom('events').selectAll().where('id', '=', quote.eventId!).executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      title: 'Private tasting: Team retreat',
      date: t.body.dates[0],
      time: '18:00',
      capacity: 24,
      private: true,
      location: '12 Cacao Lane, Portland',
    });
    // Her quote can't change now.
    expect((await asAdmin(`/api/admin/tastings/${t.requestId}/quote`, { method: 'POST', json: standard(day(11)) })).status).toBe(409);

    // The client's receipt and her notice, once each.
    const toClient = await readMailbox(server, t.body.email as string);
    expect(toClient.map((m) => m.subject)).toEqual([`Your receipt: the deposit for your tasting on ${t.body.dates[0]}`, t.mail.subject]);
    expect(itemAt(toClient, 0).text).toContain('$260.00 is left to pay on the day');
    const notices = (await readMailbox(server, server.env.TEACHER_EMAIL)).filter((m) => m.subject.startsWith('Tasting deposit paid'));
    expect(notices.filter((m) => m.text.includes(first))).toHaveLength(1);

    const view = (await (await server.api(`/api/tastings/quotes/${t.quoteId}?token=${t.token}`)).json()) as TastingQuoteView;
    expect(view).toMatchObject({ paidCents: 26_000, due: { part: 'balance', amountCents: 26_000 } });

    // On the day: she records the balance in cash, once.
    expect((await asAdmin(`/api/admin/tastings/${t.requestId}/balance`, { method: 'POST', json: { method: 'venmo' } })).status).toBe(400);
    const cash = await asAdmin(`/api/admin/tastings/${t.requestId}/balance`, { method: 'POST', json: { method: 'cash' } });
    expect(cash.status).toBe(201);
    expect(await cash.json()).toEqual({ amountCents: 26_000 });
    expect((await asAdmin(`/api/admin/tastings/${t.requestId}/balance`, { method: 'POST', json: { method: 'check' } })).status).toBe(409);
    const done = (await (await server.api(`/api/tastings/quotes/${t.quoteId}?token=${t.token}`)).json()) as TastingQuoteView;
    expect(done).toMatchObject({ paidCents: 52_000, due: null });

    const list = (await (await asAdmin('/api/admin/tastings')).json()) as AdminTastingView[];
    expect(mustFind(list, (r) => r._id === t.requestId).quote).toMatchObject({
      depositPaid: true,
      eventId: quote.eventId,
      paidCents: 52_000,
      payments: [
        { part: 'deposit', amountCents: 26_000, method: 'paypal', paidOn: today() },
        { part: 'balance', amountCents: 26_000, method: 'cash', paidOn: today() },
      ],
    });
  });

  it('a balance paid by the link; a deposit and a balance are income in the tax year and the finances', async () => {
    const year = Number(today().slice(0, 4));
    const month = today().slice(0, 7);
    const taxYear = async () => (await (await asAdmin(`/api/admin/tax-year/${year}`)).json()) as TaxYearView;
    const finances = async () => (await (await asAdmin(`/api/admin/finances?from=${month}&to=${month}`)).json()) as FinancesView;
    const before = await taxYear();
    const financesBefore = await finances();

    const t = await quoted({ occasion: 'Birthday' });
    const changed = await asAdmin(`/api/admin/tastings/${t.requestId}/quote`, {
      method: 'POST',
      json: { ...standard(t.body.dates[1] as string), priceCents: 60_000, depositCents: 15_000 },
    });
    expect(changed.status).toBe(201);
    expect(await pay(t.quoteId, t.token, 'deposit', await approvedOrder(t.quoteId, t.token, 'deposit'))).toHaveProperty('status', 201);
    const balance = await pay(t.quoteId, t.token, 'balance', await approvedOrder(t.quoteId, t.token, 'balance'));
    expect(balance.status, await balance.clone().text()).toBe(201);
    expect(await balance.json()).toMatchObject({ part: 'balance', amountCents: 45_000 });
    expect((await paymentsOf(t.quoteId)).map((p) => [p.part, p.amountCents, p.method])).toEqual([
      ['deposit', 15_000, 'paypal'],
      ['balance', 45_000, 'paypal'],
    ]);
    expect((await post(`/api/tastings/quotes/${t.quoteId}/paypal-order`, { token: t.token, part: 'balance' })).status).toBe(409);

    const after = await taxYear();
    const m = (v: TaxYearView) => v.months.find((x) => x.month === month)!;
    expect(after.totals.tastingsCents - before.totals.tastingsCents).toBe(60_000);
    expect(m(after).tastingsCents - m(before).tastingsCents).toBe(60_000);
    expect(after.totals.incomeCents - before.totals.incomeCents).toBe(60_000);
    // Recomputed from the rows: the year's tastings are the payments of the year.
    const rows = await db().selectFrom('tastingPayments').select(['amountCents', 'paidOn']).execute();
    expect(after.totals.tastingsCents).toBe(rows.filter((r) => r.paidOn.startsWith(String(year))).reduce((s, r) => s + r.amountCents, 0));
    const csv = await (await asAdmin(`/api/admin/exports/tax-year-${year}.csv`)).text();
    expect(csv).toContain('Tastings (deposits and balances)');

    const financesAfter = await finances();
    expect(financesAfter.totals.tastingsCents - financesBefore.totals.tastingsCents).toBe(60_000);
    expect(financesAfter.tastings.requests - financesBefore.tastings.requests).toBe(1);
    expect(financesAfter.tastings.quoted - financesBefore.tastings.quoted).toBe(1);
    expect(financesAfter.tastings.booked - financesBefore.tastings.booked).toBe(1);
  });

  it('records the deposit once when the reconciler overtakes a checkout whose capture answer is late, as after a crash', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = await quoted({ occasion: 'Anniversary' });
    const orderId = await approvedOrder(t.quoteId, t.token, 'deposit', 1_500);
    const paying = pay(t.quoteId, t.token, 'deposit', orderId);
    const attempt = () => db().selectFrom('paymentAttempts').selectAll().where('paypalOrderId', '=', orderId).executeTakeFirst();
    await until(async () => (await attempt())?.state === 'capturing');
    expect(await paymentsOf(t.quoteId)).toEqual([]);

    const report = await reconcilePayments(server.services, PURCHASE_KINDS, { staleMs: 0, holder: 'another-replica' });
    expect(report.completed).toBe(1);
    expect(await attempt()).toMatchObject({ state: 'completed', settledBy: 'reconciler' });
    // The checkout's own answer comes late: the same deposit, recorded once, one event.
    const res = await paying;
    expect(res.status).toBe(201);
    expect(await paymentsOf(t.quoteId)).toHaveLength(1);
    expect(await db().selectFrom('events').select('id').where('title', '=', 'Private tasting: Anniversary').execute()).toHaveLength(1);
  });
});
