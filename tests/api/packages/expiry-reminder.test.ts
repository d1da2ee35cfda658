/**
 * Issue 32: a week before a client's credits lapse, one reminder through the outbox; two replicas
 * running the periodic job at once send it once; a lot spent to nothing, or lapsing later than a
 * week, gets none.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { sendExpiryReminders } from '../../../api/packages/expiry-reminders.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;

/** A client holding `sessions` credits (her adjustment) whose last day is `daysAhead` from today. */
async function clientLapsingIn(daysAhead: number, sessions = 3) {
  const client = await createUser(server, { firstName: 'Maya' });
  expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions, reason: 'Paid by Zelle' })).status).toBe(201);
  await server.services.db
    .updateTable('creditLots')
    .set({ expiresOn: addDays(today(), daysAhead) })
    .where('userId', '=', client.id)
    .execute();
  return client;
}

describe(`the week-before expiry reminder on ${testDbKind()}`, () => {
  it('two replicas at once send one reminder; a second run sends nothing more', async () => {
    const client = await clientLapsingIn(6);
    const sent = await Promise.all([sendExpiryReminders(server.services, today()), sendExpiryReminders(server.services, today())]);
    expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const mails = await readMailbox(server, client.email);
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).subject).toMatch(/^Your 3 sessions with .+ lapse soon$/);
    expect(itemAt(mails, 0).text).toContain('Sessions given: 3 sessions, usable until');
    await sendExpiryReminders(server.services, today());
    expect(await readMailbox(server, client.email)).toHaveLength(1);
  });

  it('no reminder for a lot spent to nothing, nor for one lapsing later than a week', async () => {
    const spent = await clientLapsingIn(3, 2);
    expect((await asAdmin(`/api/admin/users/${spent.id}/credits`, 'POST', { sessions: -2, reason: 'Refunded by hand' })).status).toBe(201);
    const later = await clientLapsingIn(10);
    await sendExpiryReminders(server.services, today());
    expect(await readMailbox(server, spent.email)).toEqual([]);
    expect(await readMailbox(server, later.email)).toEqual([]);
    // Three days on, the later lot is within its week: reminded then.
    await sendExpiryReminders(server.services, addDays(today(), 3));
    expect(await readMailbox(server, later.email)).toHaveLength(1);
  });
});
