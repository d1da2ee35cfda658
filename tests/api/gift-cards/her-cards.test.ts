/**
 * Issue 33 (decision 0041): her hand on the gift cards (the history, an adjustment with a reason,
 * voiding a card never delivered, resending a delivered one), and the card's spend under its
 * lot's lock: twenty spends of one $50 card at once never take more than $50.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { deliverDueCards } from '../../../api/gift-cards/gift-cards.ts';
import { spendCard } from '../../../api/money/ledger.ts';

const server = useTestServer({ resetRateLimits: true });

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
let n = 0;
const recipient = () => `hers-${Date.now().toString(36)}-${++n}@example.com`;

async function issue(amountCents: number, sendOn?: string) {
  const to = recipient();
  const res = await asAdmin('/api/admin/gift-cards', 'POST', { amountCents, recipientName: 'Rae Card', recipientEmail: to, ...(sendOn ? { sendOn } : {}) });
  expect(res.status).toBe(201);
  return { ...((await res.json()) as { _id: string; code: string }), to };
}
const detail = async (id: string) =>
  (await (await asAdmin(`/api/admin/gift-cards/${id}`)).json()) as {
    balanceCents: number;
    voidedAt: string | null;
    history: { change: number; reason: string; note: string }[];
  };
const balanceOf = async (code: string) => (await server.api(`/api/gift-cards/balance?code=${code}`)).json();

describe(`her gift cards on ${testDbKind()}`, () => {
  it('an adjustment with its reason is in the history; one below zero is refused and changes nothing', async () => {
    const card = await issue(5_000);
    const up = await asAdmin(`/api/admin/gift-cards/${card._id}/adjust`, 'POST', { cents: 1_000, reason: 'Make-good for a broken tin' });
    expect(up.status).toBe(201);
    expect(await up.json()).toEqual({ balanceCents: 6_000 });
    const down = await asAdmin(`/api/admin/gift-cards/${card._id}/adjust`, 'POST', { cents: -7_000, reason: 'Too much' });
    expect(down.status).toBe(409);
    expect((await down.json()).message).toBe('That would take more than the card holds ($60.00).');
    const seen = await detail(card._id);
    expect(seen.balanceCents).toBe(6_000);
    expect(seen.history.map((h) => [h.change, h.reason, h.note])).toEqual([
      [5_000, 'bought', ''],
      [1_000, 'adjusted', 'Make-good for a broken tin'],
    ]);
    expect(await balanceOf(card.code)).toEqual({ balanceCents: 6_000 });
  });

  it('a card not yet delivered is voided: emptied, never mailed; a delivered one can only be adjusted', async () => {
    const later = await issue(4_000, addDays(today(), 3));
    const voided = await asAdmin(`/api/admin/gift-cards/${later._id}/void`, 'POST');
    expect(voided.status).toBe(200);
    expect(await voided.json()).toEqual({ message: 'Gift card voided.', takenCents: 4_000, paypalRefund: 'none' });
    expect(await balanceOf(later.code)).toEqual({ balanceCents: 0 });
    await deliverDueCards(server.services, addDays(today(), 3));
    expect(await readMailbox(server, later.to)).toEqual([]);
    const again = await asAdmin(`/api/admin/gift-cards/${later._id}/void`, 'POST');
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('This card was voided.');
    expect((await asAdmin(`/api/admin/gift-cards/${later._id}/adjust`, 'POST', { cents: 500, reason: 'Oops' })).status).toBe(409);

    const given = await issue(2_000);
    const refused = await asAdmin(`/api/admin/gift-cards/${given._id}/void`, 'POST');
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('This card was delivered already, so it can’t be voided: adjust its balance instead.');
    expect(await balanceOf(given.code)).toEqual({ balanceCents: 2_000 });
  });

  it('a delivered card is mailed again with the same code; one not yet delivered waits for its day', async () => {
    const card = await issue(3_000);
    const res = await asAdmin(`/api/admin/gift-cards/${card._id}/resend`, 'POST');
    expect(res.status).toBe(200);
    const mails = await readMailbox(server, card.to);
    expect(mails).toHaveLength(2);
    for (const m of mails) expect(m.text).toContain(`Your code: ${card.code}`);
    const later = await issue(3_000, addDays(today(), 2));
    const early = await asAdmin(`/api/admin/gift-cards/${later._id}/resend`, 'POST');
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe('This card has not been delivered yet: it goes on its day.');
    expect((await asAdmin('/api/admin/gift-cards/no-such-card')).status).toBe(404);
  });

  it('twenty spends of $7 from one $50 card at once: seven are taken, never more than the card holds', async () => {
    const card = await issue(5_000);
    const { lotId } = await server.services.db.selectFrom('giftCards').select('lotId').where('id', '=', card._id).executeTakeFirstOrThrow();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => server.services.db.transaction().execute((trx) => spendCard(trx, { lotId, cents: 700, by: 'client' }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.kind === 'not-enough')).toBe(true);
    expect(await balanceOf(card.code)).toEqual({ balanceCents: 100 });
    const seen = await detail(card._id);
    expect(seen.history.filter((h) => h.reason === 'used').reduce((sum, h) => sum + h.change, 0)).toBe(-4_900);
  });
});
