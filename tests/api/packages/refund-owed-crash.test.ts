/**
 * Issue 47 (decision 0055): a package's PayPal refund survives a server killed with SIGKILL
 * after the commit that owed it. The PayPal emulator runs in a process of its own:
 *   - its refunds hang (made never, answered never) when she presses Refund; the server dies
 *     between the commit and PayPal's answer: the sessions are taken back and the refund owed,
 *     nothing refunded; the restarted server's runner makes it, once.
 *   - its refund is made and its answer held back; the server dies before it records it: the
 *     restarted runner asks again with the same PayPal-Request-Id and records the refund made,
 *     without a second one.
 *
 * PostgreSQL only, as the other crash tests: PGlite dies with the killed process.
 */
import { describe, expect, it } from 'vitest';
import { usePaymentCrash } from '../../helpers/payment-processes.ts';
import { sessionStore } from '../../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../../api/middleware/session-cookies.ts';
import { must } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';
const FIVE = 'Five individual yoga sessions';
/** Each process's first wait, and the lease a try cut short holds its row for. */
const FAST = { REFUND_RETRY_BASE_MS: '300' };

describe('a server killed after a package refund was owed', () => {
  const crash = usePaymentCrash({ zone: ZONE, teacher: TEACHER });
  const { db, call, until } = crash;

  async function adminCookieHeader(): Promise<string> {
    const admin = await db().selectFrom('admins').select('id').executeTakeFirst();
    const adminId = admin?.id ?? (await db().insertInto('admins').values({ email: TEACHER, passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow()).id;
    const { token } = await sessionStore(db(), 'admin').create(adminId);
    return `${SESSION_COOKIES.admin}=${token}`;
  }

  /** A client who bought Five sessions through PayPal; `approve` extra: the emulator's refund answer held back. */
  async function boughtFive(email: string, approve: Record<string, unknown> = {}) {
    const { client, packageId, orderID } = await crash.packageOrderOf(email, FIVE, 45_000, approve);
    const bought = await call(`/api/user/${client.id}/packages/${packageId}/buy`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { paypalOrderId: orderID },
    });
    expect(bought.status).toBe(201);
    const { lotId } = (await bought.json()) as { lotId: string };
    return { client, lotId };
  }

  const owed = (lotId: string) => db().selectFrom('refundsOwed').select(['state', 'attempts']).where('subjectId', '=', lotId).executeTakeFirst();

  it('makes a refund owed when killed between the commit and PayPal’s answer: once, after a restart', async () => {
    await crash.start({ interval: 600_000, stale: 600_000 }, FAST);
    const { client, lotId } = await boughtFive('crash.refund.hang@example.com');
    const before = await crash.emulator.refunds();

    await crash.emulator.refundMode('hang');
    const pressing = call(`/api/admin/users/${client.id}/lots/${lotId}/refund`, { method: 'POST', headers: { cookie: await adminCookieHeader() } }).catch(
      () => 'killed',
    );
    await until(
      async () => (await owed(lotId)) !== undefined,
      () => 'the refund was never owed',
    );
    await must(crash.server, 'crash.server').kill('SIGKILL');
    expect(await pressing).toBe('killed');

    // What the crash left: the sessions taken back and the refund owed, nothing refunded at PayPal.
    expect(await owed(lotId)).toEqual({ state: 'owed', attempts: 0 });
    expect(await db().selectFrom('ledgerEntries').select('change').where('lotId', '=', lotId).where('reason', '=', 'refunded').execute()).toEqual([
      { change: -5 },
    ]);
    await crash.emulator.refundMode('ok');
    expect(await crash.emulator.refunds()).toBe(before);

    await crash.start({ interval: 200, stale: 600_000 }, FAST);
    await until(
      async () => (await owed(lotId))?.state === 'done',
      () => 'the restarted server never made the refund owed',
    );
    expect(await crash.emulator.refunds()).toBe(before + 1);
    // Runs go on: nothing more is refunded.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await crash.emulator.refunds()).toBe(before + 1);
  }, 60_000);

  it('records a refund PayPal made whose answer the crash lost, without refunding twice', async () => {
    await crash.start({ interval: 600_000, stale: 600_000 }, FAST);
    const { client, lotId } = await boughtFive('crash.refund.made@example.com', { refundDelayMs: 60_000 });
    const before = await crash.emulator.refunds();

    const pressing = call(`/api/admin/users/${client.id}/lots/${lotId}/refund`, { method: 'POST', headers: { cookie: await adminCookieHeader() } }).catch(
      () => 'killed',
    );
    await until(
      async () => (await crash.emulator.refunds()) > before,
      () => 'PayPal never made the refund',
    );
    await must(crash.server, 'crash.server').kill('SIGKILL');
    expect(await pressing).toBe('killed');
    expect(await owed(lotId)).toEqual({ state: 'owed', attempts: 0 });

    await crash.start({ interval: 200, stale: 600_000 }, FAST);
    await until(
      async () => (await owed(lotId))?.state === 'done',
      () => 'the restarted server never recorded the refund',
    );
    expect(await crash.emulator.refunds()).toBe(before + 1);
  }, 60_000);
});
