/**
 * Issue 32: packages she sells, clients and sales she enters by hand, one ledger of what a client
 * holds (a balance is the sum of its rows), booking with a credit (twenty at once for the last
 * one: exactly one wins), a cancel in time returning it and a late one forfeiting it, expiry
 * written once however many replicas run it.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { packageFixtures } from '../../helpers/packages.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { expireLapsedCredits } from '../../../api/money/ledger.ts';
import type { BalanceView, PackageView } from '../../../contract/packages.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';
const THERAPY = 'Yoga Therapy Session (60 min)';

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
const balanceOf = async (id: string): Promise<BalanceView> => (await asAdmin(`/api/user/${id}/balance`)).json();

const { addSlot, packageNamed } = packageFixtures(server);

/** A client holding the seeded "Five individual yoga sessions", sold by hand for $450 paid in cash today. */
async function clientWithFive() {
  const client = await createUser(server);
  const five = await packageNamed('Five individual yoga sessions');
  const res = await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: today() });
  expect(res.status).toBe(201);
  return client;
}

const book = (client: { id: string; cookie: string }, slotId: string, extra: Record<string, unknown> = { useCredit: true }, sessionType = YOGA) =>
  server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: 'ignored@example.com', sessionType, message: '', ...extra },
  });

describe(`packages on ${testDbKind()}`, () => {
  it('offers the two seeded packages publicly, with the pinned fields, inside her ranges', async () => {
    const list = (await (await server.api('/api/packages')).json()) as PackageView[];
    const eight = list.find((p) => p.name === 'Eight weeks of yoga therapy')!;
    expect(eight).toMatchObject({ sessionTypes: [THERAPY], sessions: 8, monthsValid: 4, active: true });
    expect(Object.keys(eight).sort()).toEqual([
      '_id',
      'active',
      'maxPriceCents',
      'minPriceCents',
      'monthsValid',
      'name',
      'sessionTypes',
      'sessions',
      'suggestedPriceCents',
    ]);
    // Eight therapy sessions at $10–$80 each: from $80 to $640.
    expect(eight.minPriceCents).toBeGreaterThanOrEqual(8 * 1_000);
    expect(eight.maxPriceCents).toBeLessThanOrEqual(8 * 8_000);
    expect(list.find((p) => p.name === 'Five individual yoga sessions')).toMatchObject({ sessionTypes: [YOGA], sessions: 5 });
  });

  it('lets the admin create, change and delete a package; refuses bad ones with the reason; hides inactive ones from the public', async () => {
    const fields = {
      name: 'Ten classes',
      sessionTypes: ['individualYoga', YOGA],
      sessions: 10,
      minPriceCents: 50_000,
      suggestedPriceCents: 60_000,
      maxPriceCents: 70_000,
      monthsValid: 6,
    };
    expect((await server.api('/api/admin/packages', { method: 'POST', json: fields })).status).toBe(401);
    const created = await asAdmin('/api/admin/packages', 'POST', fields);
    expect(created.status).toBe(201);
    const pkg = (await created.json()) as PackageView;
    expect(pkg).toMatchObject({ name: 'Ten classes', sessionTypes: [YOGA], active: true });

    const bad = await asAdmin('/api/admin/packages', 'POST', { ...fields, minPriceCents: 80_000 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('lowest ≤ suggested ≤ highest');
    expect((await asAdmin('/api/admin/packages', 'POST', { ...fields, sessionTypes: ['Chocolate tasting'] })).status).toBe(400);

    const changed = await asAdmin(`/api/admin/packages/${pkg._id}`, 'PUT', { ...fields, name: 'Ten sessions', active: false });
    expect(await changed.json()).toMatchObject({ name: 'Ten sessions', active: false });
    expect(((await (await server.api('/api/packages')).json()) as PackageView[]).some((p) => p._id === pkg._id)).toBe(false);
    expect(((await (await asAdmin('/api/admin/packages')).json()) as PackageView[]).some((p) => p._id === pkg._id)).toBe(true);

    expect((await asAdmin(`/api/admin/packages/${pkg._id}`, 'DELETE')).status).toBe(200);
    expect((await asAdmin(`/api/admin/packages/${pkg._id}`, 'DELETE')).status).toBe(404);
  });
});

describe(`clients and sales she enters by hand on ${testDbKind()}`, () => {
  it('adds a client without mailing them; a known e-mail is 409', async () => {
    const email = `phone-${Date.now()}@example.com`;
    const res = await asAdmin('/api/admin/users', 'POST', { firstName: 'Pat', lastName: 'Phone', email, phone: '555-0100' });
    expect(res.status).toBe(201);
    const { _id } = (await res.json()) as { _id: string };
    const row = await server.services.db.selectFrom('users').select(['phone', 'firstName']).where('id', '=', _id).executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: '555-0100', firstName: 'Pat' });
    expect(await readMailbox(server, email)).toEqual([]);
    expect((await asAdmin('/api/admin/users', 'POST', { firstName: 'Pat', lastName: 'Again', email: email.toUpperCase() })).status).toBe(409);
    expect((await server.api('/api/admin/users', { method: 'POST', json: { firstName: 'No', lastName: 'Admin', email: 'x@example.com' } })).status).toBe(401);
  });

  it('a sale by hand grants the package until its months are over; her adjustments keep the balance the sum of its rows, never below zero', async () => {
    const client = await createUser(server);
    const eight = await packageNamed('Eight weeks of yoga therapy');
    const sold = await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', {
      packageId: eight._id,
      amountCents: 32_000,
      method: 'venmo',
      paidOn: '2026-10-31',
    });
    expect(sold.status).toBe(201);
    let balance = await balanceOf(client.id);
    expect(balance.sessionsRemaining).toBe(8);
    // Four months from the 31st of October: the last day of February.
    expect(balance.credits).toEqual([
      expect.objectContaining({ packageName: 'Eight weeks of yoga therapy', sessionTypes: [THERAPY], remaining: 8, expiresOn: '2027-02-28' }),
    ]);
    expect(balance.history).toEqual([expect.objectContaining({ change: 8, reason: 'bought' })]);

    expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: 2, reason: 'A thank-you' })).status).toBe(201);
    const refused = await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: -11, reason: 'Too many' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('That would take more sessions than the client holds (10).');
    expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: -3, reason: 'Paid back in cash' })).status).toBe(201);
    balance = await balanceOf(client.id);
    expect(balance.sessionsRemaining).toBe(7);
    expect(balance.history.reduce((sum, h) => sum + h.change, 0)).toBe(7);
    expect(balance.history.map((h) => h.reason)).toEqual(['adjusted', 'adjusted', 'bought']);
    expect(balance.history[0]).toMatchObject({ change: -3, note: 'Paid back in cash' });

    for (const bad of [{ sessions: 0, reason: 'x' }, { sessions: 2 }, { sessions: 1.5, reason: 'x' }]) {
      expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect(
      (await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: eight._id, amountCents: 1, method: 'bitcoin', paidOn: today() })).status,
    ).toBe(400);
    expect(await balanceOf(client.id)).toMatchObject({ sessionsRemaining: 7 });
  });

  it('a sale by hand is session income in the month it was paid, on Finances and the Tax year alike; a gift is none', async () => {
    const month = '2025-03';
    const before = await (await asAdmin(`/api/admin/finances?from=${month}&to=${month}`)).json();
    const yearBefore = await (await asAdmin('/api/admin/tax-year/2025')).json();
    const client = await createUser(server);
    const five = await packageNamed('Five individual yoga sessions');
    await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 42_500, method: 'check', paidOn: '2025-03-14' });
    await asAdmin(`/api/admin/users/${client.id}/packages`, 'POST', { packageId: five._id, amountCents: 42_500, method: 'free', paidOn: '2025-03-15' });
    const after = await (await asAdmin(`/api/admin/finances?from=${month}&to=${month}`)).json();
    expect(after.totals.sessionsCents - before.totals.sessionsCents).toBe(42_500);
    expect(after.totals.incomeCents - before.totals.incomeCents).toBe(42_500);
    expect(after.totals.sessionsPaidCount - before.totals.sessionsPaidCount).toBe(1);
    const yearAfter = await (await asAdmin('/api/admin/tax-year/2025')).json();
    expect(yearAfter.totals.sessionsCents - yearBefore.totals.sessionsCents).toBe(42_500);
    expect(yearAfter.quarters[0].incomeCents - yearBefore.quarters[0].incomeCents).toBe(42_500);
  });

  it('the balance is the client’s own or the admin’s to read', async () => {
    const client = await createUser(server);
    const other = await createUser(server);
    expect((await server.api(`/api/user/${client.id}/balance`, { headers: { cookie: client.cookie } })).status).toBe(200);
    expect((await server.api(`/api/user/${client.id}/balance`, { headers: { cookie: other.cookie } })).status).toBe(403);
    expect((await server.api(`/api/user/${client.id}/balance`)).status).toBe(401);
    expect((await asAdmin(`/api/user/${client.id}/balance`)).status).toBe(200);
    expect((await asAdmin('/api/user/00000000-0000-4000-8000-000000000000/balance')).status).toBe(404);
  });
});

describe(`booking with a credit on ${testDbKind()}`, () => {
  it('books with a credit, no PayPal; a type no credit covers is 409 naming it and books nothing; one way of paying at a time', async () => {
    const client = await clientWithFive();
    const slot = await addSlot();
    const res = await book(client, slot.id);
    expect(res.status).toBe(200);
    const row = await server.services.db
      .selectFrom('slots')
      .select(['bookedBy', 'amountCents', 'couponUsed', 'paypalOrderId', 'creditLotId'])
      .where('id', '=', slot.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ bookedBy: client.id, amountCents: null, couponUsed: false, paypalOrderId: null });
    expect(row.creditLotId).not.toBeNull();
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(4);

    const therapySlot = await addSlot();
    const refused = await book(client, therapySlot.id, { useCredit: true }, THERAPY);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain(THERAPY);
    expect(await server.services.db.selectFrom('slots').select('bookedAt').where('id', '=', therapySlot.id).executeTakeFirstOrThrow()).toEqual({
      bookedAt: null,
    });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(4);

    expect((await book(client, therapySlot.id, { useCredit: true, couponCode: 'x' })).status).toBe(400);
    expect((await book(client, therapySlot.id, { useCredit: false })).status).toBe(400);
  });

  it('twenty bookings at once for the last credit: exactly one books', async () => {
    const client = await clientWithFive();
    expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: -4, reason: 'Leave one' })).status).toBe(201);
    const slots = await Promise.all(Array.from({ length: 20 }, () => addSlot()));
    const answers = await Promise.all(slots.map((s) => book(client, s.id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    const booked = await server.services.db.selectFrom('slots').select('id').where('bookedBy', '=', client.id).execute();
    expect(booked).toHaveLength(1);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(0);
  });

  it('a cancel in time returns the credit; a late one forfeits it, and the answers say which', async () => {
    const client = await clientWithFive();
    const early = await addSlot(24 * 5);
    const late = await addSlot(2);
    expect((await book(client, early.id)).status).toBe(200);
    expect((await book(client, late.id)).status).toBe(200);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(3);
    // My Bookings offers the late one's cancel too (the credit then stays used), the early one's as always.
    const mine = (await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json()) as {
      bookedSlots: { _id: string; canChange: boolean; withCredit?: true }[];
    };
    expect(mine.bookedSlots.find((b) => b._id === late.id)).toMatchObject({ canChange: false, withCredit: true });
    expect(mine.bookedSlots.find((b) => b._id === early.id)).toMatchObject({ canChange: true, withCredit: true });

    const inTime = await server.api(`/api/bookings/${early.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(inTime.status).toBe(200);
    expect(await inTime.json()).toMatchObject({ credit: 'returned', message: 'Your session has been cancelled and its session credit returned to you.' });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(4);
    // The mails say what became of the credit, not "Nothing to refund".
    const clientMail = async () => {
      // Newest first: the notice of the cancel just made.
      const mail = (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Session cancelled'));
      expect(mail, 'the client’s cancel notice').toBeDefined();
      return must(mail, 'mail').text;
    };
    expect(await clientMail()).toContain('The session credit it used is back in your balance');
    const toTeacher = (await readMailbox(server, server.env.TEACHER_EMAIL)).filter(
      (m) => m.subject.startsWith('Cancelled by the client') && m.text.includes(client.email),
    );
    expect(toTeacher[0]?.text).toContain('Payment: A session credit from a package');
    expect(toTeacher[0]?.text).toContain('The session credit went back to the client’s balance.');

    const tooLate = await server.api(`/api/bookings/${late.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(tooLate.status).toBe(200);
    expect(await tooLate.json()).toMatchObject({ credit: 'forfeited' });
    expect(await clientMail()).toContain('the session credit it used stays used');
    const lateToTeacher = (await readMailbox(server, server.env.TEACHER_EMAIL)).find(
      (m) => m.subject.startsWith('Cancelled by the client') && m.text.includes(client.email),
    );
    expect(lateToTeacher?.text).toContain('Cancelled within the notice period: the session credit stays used.');
    const balance = await balanceOf(client.id);
    expect(balance.sessionsRemaining).toBe(4);
    expect(balance.history.map((h) => h.reason)).toEqual(['forfeited', 'returned', 'used', 'used', 'bought']);
    // The client's own data export carries the credits and their history.
    const exported = await (await server.api(`/api/user/${client.id}/export`, { headers: { cookie: client.cookie } })).json();
    expect(exported.sessionCredits).toEqual([expect.objectContaining({ package: 'Five individual yoga sessions', remaining: 4, paid: '450.00' })]);
    expect(exported.creditHistory.map((e: { reason: string }) => e.reason)).toEqual(['forfeited', 'returned', 'used', 'used', 'bought']);
    // Both slots are free again.
    const freed = await server.services.db.selectFrom('slots').select('bookedAt').where('id', 'in', [early.id, late.id]).execute();
    expect(freed).toEqual([{ bookedAt: null }, { bookedAt: null }]);
  });

  it('expiry: lapsed credits give up what is left in one row, however many runners run at once; lapsed credits book nothing', async () => {
    const client = await clientWithFive();
    const lot = await server.services.db.selectFrom('creditLots').select(['id', 'expiresOn']).where('userId', '=', client.id).executeTakeFirstOrThrow();
    const after = addDays(lot.expiresOn!, 1);
    const written = await Promise.all([expireLapsedCredits(server.services.db, after), expireLapsedCredits(server.services.db, after)]);
    expect(written[0] + written[1]).toBeGreaterThanOrEqual(1);
    const rows = await server.services.db
      .selectFrom('ledgerEntries')
      .select(['change', 'reason'])
      .where('lotId', '=', lot.id)
      .where('reason', '=', 'expired')
      .execute();
    expect(rows).toEqual([{ change: -5, reason: 'expired' }]);
    expect(await expireLapsedCredits(server.services.db, after)).toBe(0);
  });
});
