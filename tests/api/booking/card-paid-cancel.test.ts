/**
 * Issue 47, a smaller point: a one-to-one session paid wholly with a gift card (issue 33: sold as
 * a lot of one, method 'gift_card', the card debited) and cancelled in time gives its value back
 * on the card, on the one ledger (decision 0042), not a session credit to the client; once, and
 * also after the session was moved. On PGlite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { bookingForm } from '../../helpers/slots.ts';
import { cardBalance, issueCard } from '../../helpers/gift-cards.ts';
import { createUser } from '../../helpers/auth.ts';
import { packageFixtures } from '../../helpers/packages.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import type { BalanceView } from '../../../contract/packages.ts';

const server = useTestServer({ resetRateLimits: true });
beforeAll(() => {
  server.services.realtime = { kind: 'partykit-dev', host: 'test', notifySlotBooked: async () => true, notifySlotFreed: async () => true };
});
const db = () => server.services.db;
const YOGA = 'Individual Yoga Session (60 min)';
const { addSlot } = packageFixtures(server);

const issue = (amountCents: number) => issueCard(server, amountCents);
const cardBalanceOf = (code: string) => cardBalance(server, code);
const book = (client: { id: string; email: string; cookie: string }, slotId: string, code: string) =>
  server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: bookingForm(client, YOGA, { giftCardCode: code, amount: 90 }),
  });
const sessionsOf = async (client: { id: string; cookie: string }) =>
  ((await (await server.api(`/api/user/${client.id}/balance`, { headers: { cookie: client.cookie } })).json()) as BalanceView).sessionsRemaining;

describe(`a session paid wholly by a gift card, cancelled in time, on ${testDbKind()}`, () => {
  it('comes back as card value, not as a session credit, once', async () => {
    const card = await issue(10_000);
    const client = await createUser(server);
    const slot = await addSlot();
    const booked = await book(client, slot.id, card.code);
    expect(booked.status, await booked.clone().text()).toBe(200);
    expect(await cardBalanceOf(card.code)).toBe(1_000);

    const cancelled = await server.api(`/api/bookings/${slot.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const answer = (await cancelled.json()) as { refund: string; credit?: string };
    expect(answer.refund).toBe('none');
    expect(answer.credit).toBeUndefined();

    // The card holds its $90 again; the client holds no session credit from it.
    expect(await cardBalanceOf(card.code)).toBe(10_000);
    expect(await sessionsOf(client)).toBe(0);
    const lot = await db().selectFrom('creditLots').select('id').where('userId', '=', client.id).where('method', '=', 'gift_card').executeTakeFirstOrThrow();
    expect(
      (await db().selectFrom('ledgerEntries').select(['change', 'reason']).where('lotId', '=', lot.id).orderBy('createdAt').execute()).map((e) => [
        e.reason,
        e.change,
      ]),
    ).toEqual([
      ['bought', 1],
      ['used', -1],
      ['refunded', 0],
    ]);
    // The client's mail says the card has it back.
    const notice = (await readMailbox(server, client.email)).find((m) => /cancel/i.test(m.subject));
    expect(notice?.text).toContain('$90.00');
    expect(notice?.text).not.toMatch(/session credit it used is back/);
  });

  it('gives the card its value back after the session was moved', async () => {
    const card = await issue(20_000);
    const client = await createUser(server);
    const first = await addSlot();
    const later = await addSlot();
    expect((await book(client, first.id, card.code)).status).toBe(200);
    const moved = await server.api(`/api/bookings/${first.id}/reschedule`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { toSlotId: later.id },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await cardBalanceOf(card.code)).toBe(11_000);
    const cancelled = await server.api(`/api/bookings/${later.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(await cardBalanceOf(card.code)).toBe(20_000);
    expect(await sessionsOf(client)).toBe(0);
  });
});
