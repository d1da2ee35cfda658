/**
 * Issue 32, the teacher's hand: the welcome mail she may send a client she adds, the receipt of a
 * package she sells outside the site, the sessions she books for a client (with one of their
 * credits, or a payment she records), and her books: the sale by method on the Tax year and the
 * sessions she still owes on Finances.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { packageFixtures } from '../../helpers/packages.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { zonedNow } from '../../../api/lib/time.ts';
import type { BalanceView } from '../../../contract/packages.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import type { TaxYearView } from '../../../contract/books.ts';
import type { ClientRecordView } from '../../../contract/practice.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
// No realtime room in tests: a booking's notice to open pages is stubbed (one test spies on it).
beforeAll(() => {
  server.services.realtime = { ...server.services.realtime, notifySlotBooked: async () => true, notifySlotFreed: async () => true };
});
const YOGA = 'Individual Yoga Session (60 min)';
const THERAPY = 'Yoga Therapy Session (60 min)';

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const balanceOf = async (id: string): Promise<BalanceView> => (await asAdmin(`/api/user/${id}/balance`)).json();
const owed = async () => ((await (await asAdmin('/api/admin/finances')).json()) as FinancesView).sessionsOwed;
const byMethod = async (year: string) => ((await (await asAdmin(`/api/admin/tax-year/${year}`)).json()) as TaxYearView).sessionsByMethod;
const methodCents = (rows: TaxYearView['sessionsByMethod'], method: string) => mustFind(rows, (r) => r.method === method).cents;

const { addSlot, packageNamed } = packageFixtures(server);

const bookFor = (clientId: string, json: Record<string, unknown>) => asAdmin(`/api/admin/users/${clientId}/sessions`, 'POST', json);
const slotRow = (id: string) =>
  server.services.db.selectFrom('slots').select(['bookedBy', 'creditLotId', 'sessionType']).where('id', '=', id).executeTakeFirstOrThrow();

describe(`clients she adds and sales she records on ${testDbKind()}`, () => {
  it('mails a welcome with a login link only when she ticks it', async () => {
    const email = `welcome-${Date.now()}@example.com`;
    const res = await asAdmin('/api/admin/users', 'POST', { firstName: 'Wren', lastName: 'Phone', email, sendWelcome: true });
    expect(res.status).toBe(201);
    const [welcome, ...more] = await readMailbox(server, email);
    expect(more).toEqual([]);
    expect(must(welcome, 'welcome').subject).toMatch(/^Welcome to /);
    expect(must(welcome, 'welcome').text).toContain('Hi Wren');
    expect(must(welcome, 'welcome').links.some((l) => l.startsWith(`${server.env.SITE_URL}/verify-login?token=`))).toBe(true);
    // The link signs the client in, as the login page's does.
    const token = new URL(must(welcome, 'welcome').links.find((l) => l.includes('/verify-login?token='))!).searchParams.get('token');
    const login = await server.api('/api/user/verify-login', { method: 'POST', json: { token } });
    expect(login.status).toBe(200);

    const quiet = `quiet-${Date.now()}@example.com`;
    expect((await asAdmin('/api/admin/users', 'POST', { firstName: 'Quiet', lastName: 'One', email: quiet, sendWelcome: false })).status).toBe(201);
    expect(await readMailbox(server, quiet)).toEqual([]);
    expect(
      (await asAdmin('/api/admin/users', 'POST', { firstName: 'Bad', lastName: 'Flag', email: `flag-${Date.now()}@example.com`, sendWelcome: 'yes' })).status,
    ).toBe(400);
  });

  it('an offline Venmo sale is session income under venmo on the Tax year and Finances, with a receipt when she asks; it is owed until used', async () => {
    const year = today().slice(0, 4);
    const [methodsBefore, owedBefore] = await Promise.all([byMethod(year), owed()]);
    const financesBefore = (await (await asAdmin('/api/admin/finances')).json()) as FinancesView;
    const client = await createUser(server, { firstName: 'Vera' });
    const five = await packageNamed('Five individual yoga sessions');
    const res = await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', {
      packageId: five._id,
      amountCents: 45_000,
      method: 'venmo',
      paidOn: today(),
      sendReceipt: true,
    });
    expect(res.status).toBe(201);

    const methodsAfter = await byMethod(year);
    expect(methodsAfter.map((m) => m.method)).toEqual(['paypal', 'cash', 'check', 'venmo', 'zelle', 'card', 'free']);
    expect(methodCents(methodsAfter, 'venmo') - methodCents(methodsBefore, 'venmo')).toBe(45_000);
    expect(methodCents(methodsAfter, 'cash')).toBe(methodCents(methodsBefore, 'cash'));
    const financesAfter = (await (await asAdmin('/api/admin/finances')).json()) as FinancesView;
    expect(financesAfter.totals.sessionsCents - financesBefore.totals.sessionsCents).toBe(45_000);
    // One definition: the methods add up to the year's session payments.
    const year0 = (await (await asAdmin(`/api/admin/tax-year/${year}`)).json()) as TaxYearView;
    expect(year0.sessionsByMethod.reduce((s, m) => s + m.cents, 0)).toBe(year0.totals.sessionsCents);

    // Five sessions at $90 each, not used yet: she owes them.
    const owedAfter = await owed();
    expect(owedAfter.sessions - owedBefore.sessions).toBe(5);
    expect(owedAfter.cents - owedBefore.cents).toBe(45_000);
    expect(owedAfter.asOf).toBe(today());

    const receipt = itemAt(await readMailbox(server, client.email), 0);
    expect(receipt.subject).toBe('Your receipt: Five individual yoga sessions');
    expect(receipt.text).toContain('$450.00 paid by Venmo on');
    // The client's page says the same as the tax year (issue 50): the package, its amount, how it was paid.
    const record = (await (await asAdmin(`/api/admin/users/${client.id}/record`)).json()) as ClientRecordView;
    expect(record.payments).toEqual([expect.objectContaining({ kind: 'package', amountCents: 45_000, what: five.name, method: 'Venmo' })]);

    // Her adjustments give sessions, not sales: nothing on the books, nothing owed in money.
    await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: 1, reason: 'A thank-you' });
    expect((await owed()).cents).toBe(owedAfter.cents);
    expect(await byMethod(year)).toEqual(methodsAfter);
  });

  it('a sale without the receipt box mails nothing', async () => {
    const client = await createUser(server);
    const five = await packageNamed('Five individual yoga sessions');
    const res = await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: today() });
    expect(res.status).toBe(201);
    expect(await readMailbox(server, client.email)).toEqual([]);
  });
});

describe(`sessions she books for a client on ${testDbKind()}`, () => {
  it('with a credit: the balance is one fewer, the slot is theirs and gone for everyone, the value owed one session less', async () => {
    const told = vi.fn(async () => true);
    const realtime = server.services.realtime;
    server.services.realtime = { ...realtime, notifySlotBooked: told };
    try {
      const client = await createUser(server, { firstName: 'Cleo' });
      const five = await packageNamed('Five individual yoga sessions');
      await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 45_000, method: 'venmo', paidOn: today() });
      const owedBefore = await owed();
      const slot = await addSlot();

      const res = await bookFor(client.id, { slotId: slot.id, sessionType: YOGA, pay: { credit: true } });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ success: true, slotId: slot.id });
      const balance = await balanceOf(client.id);
      expect(balance.sessionsRemaining).toBe(4);
      expect(balance.history[0]).toMatchObject({ change: -1, reason: 'used' });
      expect(await slotRow(slot.id)).toMatchObject({ bookedBy: client.id, sessionType: YOGA });
      expect(told).toHaveBeenCalledWith(slot.id);
      const free = (await (await asAdmin('/api/bookings')).json()) as { availableSlots: { _id: string }[] };
      expect(free.availableSlots.map((s) => s._id)).not.toContain(slot.id);
      // $450 for five: one used is $90 less owed.
      const owedAfter = await owed();
      expect(owedBefore.sessions - owedAfter.sessions).toBe(1);
      expect(owedBefore.cents - owedAfter.cents).toBe(9_000);
      // No confirmation unless she asks, and no note to herself about her own booking.
      expect(await readMailbox(server, client.email)).toEqual([]);

      // The slot is taken now: a second booking of it books nothing and spends nothing.
      const again = await bookFor(client.id, { slotId: slot.id, sessionType: YOGA, pay: { credit: true } });
      expect(again.status).toBe(409);
      expect((await balanceOf(client.id)).sessionsRemaining).toBe(4);
    } finally {
      server.services.realtime = realtime;
    }
  });

  it('with a credit the client lacks: 409 naming the type, nothing booked', async () => {
    const client = await createUser(server);
    const five = await packageNamed('Five individual yoga sessions');
    await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: today() });
    const slot = await addSlot();
    const res = await bookFor(client.id, { slotId: slot.id, sessionType: THERAPY, pay: { credit: true } });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(`The client has no session credit left for a ${THERAPY}. Record how the session is paid instead.`);
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: null });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(5);
  });

  it('with a payment she records: booked, counted under its method on the day paid, confirmed to the client when she asks', async () => {
    const year = today().slice(0, 4);
    const methodsBefore = await byMethod(year);
    const owedBefore = await owed();
    const client = await createUser(server, { firstName: 'Cash' });
    const slot = await addSlot();
    const res = await bookFor(client.id, {
      slotId: slot.id,
      sessionType: THERAPY,
      pay: { method: 'cash', amountCents: 6_000, paidOn: today() },
      sendConfirmation: true,
    });
    expect(res.status).toBe(201);
    const row = await slotRow(slot.id);
    expect(row).toMatchObject({ bookedBy: client.id, sessionType: THERAPY });
    expect(row.creditLotId).not.toBeNull();
    const methodsAfter = await byMethod(year);
    expect(methodCents(methodsAfter, 'cash') - methodCents(methodsBefore, 'cash')).toBe(6_000);
    // Paid and used at once: nothing left to book with, nothing owed.
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(0);
    expect(await owed()).toEqual(owedBefore);
    const mails = await readMailbox(server, client.email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Booking Confirmed! /)]);
    expect((await readMailbox(server, server.env.TEACHER_EMAIL)).some((m) => m.subject.startsWith('New booking: ') && m.text.includes(client.email))).toBe(
      false,
    );

    // Given free: no money, counted under free.
    const gift = await bookFor(client.id, { slotId: (await addSlot()).id, sessionType: YOGA, pay: { method: 'free', amountCents: 0, paidOn: today() } });
    expect(gift.status).toBe(201);
    const withGift = await byMethod(year);
    expect(mustFind(withGift, (m) => m.method === 'free').count - mustFind(methodsAfter, (m) => m.method === 'free').count).toBe(1);
    expect(methodCents(withGift, 'free')).toBe(0);
  });

  it('refuses what is not hers to do: no admin session is 401, an unknown client 404, a bad payment 400', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    const body = { slotId: slot.id, sessionType: YOGA, pay: { method: 'cash', amountCents: 9_000, paidOn: today() } };
    expect((await server.api(`/api/admin/users/${client.id}/sessions`, { method: 'POST', json: body })).status).toBe(401);
    expect((await server.api(`/api/admin/users/${client.id}/sessions`, { method: 'POST', json: body, headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api(`/api/admin/users/${client.id}/packages`, { method: 'POST', json: {}, headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await bookFor('00000000-0000-4000-8000-000000000000', body)).status).toBe(404);
    for (const pay of [{ credit: false }, { method: 'bitcoin', amountCents: 1, paidOn: today() }, { credit: true, method: 'cash' }]) {
      expect((await bookFor(client.id, { ...body, pay })).status, JSON.stringify(pay)).toBe(400);
    }
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: null });
  });
});
