import { beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { sendDueReminders } from '../../../api/booking/reminders.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer();
const HOUR = 3_600_000;

beforeEach(async () => {
  await server.services.db.deleteFrom('slots').execute();
  await server.services.db.deleteFrom('mails').execute();
});

/** A session booked by a client, starting `inHours` from now, booked `bookedHoursAgo` ago. */
async function bookedSession(inHours: number, bookedHoursAgo: number, email: string) {
  const user = await createUser(server, { email, firstName: 'Rae' });
  const startsAt = new Date(Date.now() + inHours * HOUR);
  const iso = startsAt.toISOString();
  return server.services.db
    .insertInto('slots')
    .values({
      date: iso.slice(0, 10),
      time: iso.slice(11, 16),
      startsAt,
      bookedBy: user.id,
      bookedAt: new Date(Date.now() - bookedHoursAgo * HOUR),
      firstName: 'Rae',
      lastName: 'Lee',
      email,
      sessionType: 'Yoga Therapy Session (60 min)',
      message: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const mailsTo = async (to: string) => (await (await server.api(`/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as { subject: string; text: string }[];

/** Five processes check for due reminders at the same moment: how many of each kind they sent between them. */
async function fiveCheckAtOnce(): Promise<{ day: number; soon: number }> {
  const runs = await Promise.all(Array.from({ length: 5 }, () => sendDueReminders(server.services)));
  return { day: runs.reduce((n, r) => n + r.day, 0), soon: runs.reduce((n, r) => n + r.soon, 0) };
}

describe(`session reminders on ${testDbKind()}`, () => {
  it('sends the day-before reminder once, even when several processes check at the same moment', async () => {
    await bookedSession(20, 72, 'day@example.com');
    expect(await fiveCheckAtOnce()).toEqual({ day: 1, soon: 0 });
    const mails = await mailsTo('day@example.com');
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).subject).toMatch(/^Reminder: Yoga Therapy Session \(60 min\) tomorrow at/);
    // A later check sends nothing more.
    expect(await sendDueReminders(server.services)).toEqual({ day: 0, soon: 0 });
  });

  it('sends the two-hours reminder once, and the day one is not sent that late', async () => {
    await bookedSession(1.5, 72, 'soon@example.com');
    expect(await fiveCheckAtOnce()).toEqual({ day: 0, soon: 1 });
    const mails = await mailsTo('soon@example.com');
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Reminder: .* today at/)]);
  });

  it('sends no day reminder for a session booked less than a day ahead, nor any for past or distant sessions', async () => {
    await bookedSession(10, 2, 'late@example.com');
    await bookedSession(-1, 72, 'past@example.com');
    await bookedSession(30, 72, 'far@example.com');
    expect(await sendDueReminders(server.services)).toEqual({ day: 0, soon: 0 });
    // 8.5 hours later: the late booking gets its two-hour reminder, the distant one its day reminder.
    expect(await sendDueReminders(server.services, new Date(Date.now() + 8.5 * HOUR))).toEqual({ day: 1, soon: 1 });
    expect((await mailsTo('late@example.com')).map((m) => m.subject)).toEqual([expect.stringMatching(/today at/)]);
    expect((await mailsTo('far@example.com')).map((m) => m.subject)).toEqual([expect.stringMatching(/tomorrow at/)]);
    expect(await mailsTo('past@example.com')).toEqual([]);
  });

  it('sends no reminder for a session whose payment is still being taken, and sends it once the payment completes', async () => {
    const slot = await bookedSession(20, 72, 'paying@example.com');
    await server.services.db.updateTable('slots').set({ paypalOrderId: 'ORDER-PAYING', amountCents: 8000 }).where('id', '=', slot.id).execute();
    await server.services.db
      .insertInto('paymentAttempts')
      .values({
        kind: 'booking',
        paypalOrderId: 'ORDER-PAYING',
        paypalRequestId: 'req-paying',
        amountCents: 8000,
        currency: 'USD',
        slotId: slot.id,
        details: JSON.stringify({}),
        state: 'capturing',
        claimedBy: 'elsewhere',
      })
      .execute();
    expect(await sendDueReminders(server.services)).toEqual({ day: 0, soon: 0 });
    expect(await mailsTo('paying@example.com')).toEqual([]);
    await server.services.db.updateTable('paymentAttempts').set({ state: 'completed' }).where('paypalOrderId', '=', 'ORDER-PAYING').execute();
    expect(await sendDueReminders(server.services)).toEqual({ day: 1, soon: 0 });
    await server.services.db.deleteFrom('paymentAttempts').where('paypalOrderId', '=', 'ORDER-PAYING').execute();
  });

  it('ignores free slots', async () => {
    const startsAt = new Date(Date.now() + 20 * HOUR);
    const iso = startsAt.toISOString();
    await server.services.db
      .insertInto('slots')
      .values({ date: iso.slice(0, 10), time: iso.slice(11, 16), startsAt })
      .execute();
    expect(await sendDueReminders(server.services)).toEqual({ day: 0, soon: 0 });
  });
});
