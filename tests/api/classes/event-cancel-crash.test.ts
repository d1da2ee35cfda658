/**
 * Issue 34: her cancelling a workshop refunds every paid place once, even when the server is
 * killed with SIGKILL midway through the refunds. The PayPal emulator runs in a process of its
 * own and holds back the answer to the second refund (made, not yet told); the server dies then.
 * The refunds owed were committed with the cancel, so the restarted server's refund runner makes
 * the rest: the first is not made again, the second (made before the crash) is taken as done,
 * the third is made; three refunds in all, and each person mailed once.
 *
 * PostgreSQL only, as the other crash tests: PGlite dies with the killed process.
 */
import { describe, expect, it } from 'vitest';
import { usePaymentCrash } from '../../helpers/payment-processes.ts';
import { classForm } from '../../helpers/classes.ts';
import { sessionStore } from '../../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../../api/middleware/session-cookies.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { must } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';

describe('a server killed while it refunds a cancelled workshop', () => {
  const crash = usePaymentCrash({ zone: ZONE, teacher: TEACHER });
  const { db, until } = crash;
  const post = (path: string, json?: unknown, headers: Record<string, string> = {}) =>
    crash.call(path, { method: 'POST', ...(json === undefined ? {} : { json }), headers });

  it('refunds each paid place once after a restart, and mails each person once', async () => {
    await crash.start({ interval: 600_000, stale: 600_000 });
    const date = addDays(zonedNow(ZONE).date, 9);
    const w = await db()
      .insertInto('events')
      .values({ title: 'Backbends Workshop', date, time: '10:00', startsAt: zonedInstant(date, '10:00', ZONE), capacity: 5, priceCents: 4_000 })
      .returning(['id', 'title', 'date'])
      .executeTakeFirstOrThrow();
    const people = ['one', 'two', 'three'].map((n) => ({
      name: `Pat ${n}`,
      email: `crash-${n}@example.com`,
      phone: '123-456-7890',
      recaptchaToken: 'dev:signup_form_submit',
    }));
    for (const [i, p] of people.entries()) {
      const made = await post(`/api/events/${w.id}/paypal-order`, { amountCents: 4_000, ...p });
      expect(made.status).toBe(200);
      const { orderID } = (await made.json()) as { orderID: string };
      // The second person's refund will be made and its answer held back for a minute.
      await crash.emulator.approve(orderID, { givenName: p.name, ...(i === 1 ? { refundDelayMs: 60_000 } : {}) });
      const signed = await post('/api/signup', classForm(w, { ...p, paypalOrderId: orderID }));
      expect(signed.status, await signed.clone().text()).toBe(201);
      // Payments are recorded in order: the runner refunds the oldest first.
      await new Promise((r) => setTimeout(r, 20));
    }

    const admin = await db().selectFrom('admins').select('id').executeTakeFirst();
    const adminId = admin?.id ?? (await db().insertInto('admins').values({ email: TEACHER, passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow()).id;
    const { token } = await sessionStore(db(), 'admin').create(adminId);
    const cancelling = post(`/api/admin/events/${w.id}/cancel`, undefined, { cookie: `${SESSION_COOKIES.admin}=${token}` }).catch(() => 'killed');
    await until(
      async () => (await crash.emulator.refunds()) >= 2,
      () => 'the second refund was never made',
    );
    await must(crash.server, 'crash.server').kill('SIGKILL');
    expect(await cancelling).toBe('killed');

    // What the crash left: the event cancelled, one refund marked done, two still owed (one of them made at PayPal).
    const states = async () =>
      (await db().selectFrom('eventPayments').select(['email', 'refund']).where('eventId', '=', w.id).orderBy('createdAt').execute()).map((p) => p.refund);
    expect(await states()).toEqual(['done', 'due', 'due']);
    expect((await db().selectFrom('events').select('cancelledAt').where('id', '=', w.id).executeTakeFirstOrThrow()).cancelledAt).not.toBeNull();

    await crash.start({ interval: 200, stale: 600_000 });
    await until(
      async () => (await states()).every((s) => s === 'done'),
      () => 'the restarted server never made the refunds owed',
    );
    expect(await crash.emulator.refunds()).toBe(3);
    const mails = await db().selectFrom('mailOutbox').select(['to', 'subject']).where('subject', 'like', 'Cancelled:%').execute();
    expect(mails.map((m) => m.to).sort()).toEqual(people.map((p) => p.email).sort());
  });
});
