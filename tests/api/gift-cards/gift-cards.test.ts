/**
 * Issue 33 (decision 0041): a gift card she issues, delivered on its day through the outbox once
 * however many replicas run, its balance read by its code; the code is never stored, and a wrong
 * code says nothing about other cards and is soon refused.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { linkTokenOf } from '../../../api/gift-cards/codes.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { listedCard } from '../../helpers/gift-cards.ts';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { deliverDueCards } from '../../../api/gift-cards/gift-cards.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(server.env.SITE_TIMEZONE, server.services.clock.now()).date;
let n = 0;
const recipient = () => `rae-${Date.now().toString(36)}-${++n}@example.com`;
const balance = (code: string) => server.api(`/api/gift-cards/balance?code=${encodeURIComponent(code)}`);
const CODE = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

async function issue(json: Record<string, unknown>) {
  const res = await asAdmin('/api/admin/gift-cards', 'POST', json);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { _id: string; code: string };
}

describe(`gift cards she issues on ${testDbKind()}`, () => {
  it('a card for today: 201 with its code, the recipient mailed the code, the amount and her message; the balance read by the code as typed', async () => {
    const to = recipient();
    const card = await issue({ amountCents: 2_500, recipientName: 'Rae Gift', recipientEmail: to, message: 'Thank you for the raffle!', design: 'chocolates' });
    expect(card.code).toMatch(CODE);
    const [mail, ...more] = await readMailbox(server, to);
    expect(more).toEqual([]);
    expect(must(mail, 'mail').subject).toMatch(/^A \$25\.00 gift card from /);
    expect(must(mail, 'mail').text).toContain(`Your code: ${card.code}`);
    expect(must(mail, 'mail').text).toContain('“Thank you for the raffle!”');

    // The mail's printable card shows the code, the amount and her words; a link that is not its own shows nothing.
    const link = /\/gift-cards\/print\?card=([^&\s]+)&token=(\S+)/.exec(must(mail, 'mail').text);
    expect(link, must(mail, 'mail').text).not.toBeNull();
    const printable = (id: string, token: string) => server.api(`/api/gift-cards/${id}/printable?token=${encodeURIComponent(token)}`);
    const printed = await printable(must(link, 'link')[1]!, must(link, 'link')[2]!);
    expect(printed.status).toBe(200);
    expect(await printed.json()).toMatchObject({
      code: card.code,
      amountCents: 2_500,
      design: 'chocolates',
      recipientName: 'Rae Gift',
      message: 'Thank you for the raffle!',
    });
    const otherLink = await printable(must(link, 'link')[1]!, linkTokenOf(server.env.APP_SECRET, 'change', card._id));
    expect(otherLink.status).toBe(404);
    expect(JSON.stringify(await otherLink.json())).not.toContain(card.code);

    // Read aloud and typed in lower case, without dashes, with spaces: the same card.
    const typed = card.code.toLowerCase().replaceAll('-', ' ');
    const res = await balance(typed);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ balanceCents: 2_500 });

    // Her list shows the last four, never the whole code; the database holds only its hash.
    const list = (await (await asAdmin('/api/admin/gift-cards')).json()) as {
      _id: string;
      last4: string;
      amountCents: number;
      balanceCents: number;
      deliveredAt: string | null;
    }[];
    const mine = list.find((g) => g._id === card._id)!;
    expect(mine).toMatchObject({ last4: card.code.slice(-4), amountCents: 2_500, balanceCents: 2_500 });
    expect(mine.deliveredAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(card.code.replaceAll('-', '').slice(0, 12));
    const row = await server.services.db.selectFrom('giftCards').selectAll().where('id', '=', card._id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(card.code.replaceAll('-', '').slice(0, 12));
  });

  it('a card for tomorrow is not mailed today; on its day two replicas at once deliver it once', async () => {
    const to = recipient();
    const card = await issue({ amountCents: 5_000, recipientName: 'Rae Later', recipientEmail: to, sendOn: addDays(today(), 1) });
    expect(await readMailbox(server, to)).toEqual([]);
    await deliverDueCards(server.services, today());
    expect(await readMailbox(server, to)).toEqual([]);
    // A card not yet delivered can still be looked up by whoever holds the code (her answer above).
    expect(await (await balance(card.code)).json()).toEqual({ balanceCents: 5_000 });

    const tomorrow = addDays(today(), 1);
    await Promise.all([deliverDueCards(server.services, tomorrow), deliverDueCards(server.services, tomorrow)]);
    const mails = await readMailbox(server, to);
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).text).toContain(`Your code: ${card.code}`);
    await deliverDueCards(server.services, tomorrow);
    expect(await readMailbox(server, to)).toHaveLength(1);
  });

  it('every wrong code gets the same 404, then the address is refused: 1,000 guesses go nowhere', async () => {
    const card = await issue({ amountCents: 1_000, recipientName: 'Rae Guess', recipientEmail: recipient() });
    const wrong = [
      card.code.slice(0, -1) + (card.code.endsWith('2') ? '3' : '2'), // one character off a real card's
      'ABCD-EFGH-JKLM-NPQR',
      'O0O0-I1I1-O0O0-I1I1', // characters no code has
      'ABCD',
    ];
    const answers = await Promise.all(wrong.map(async (code) => ({ status: (await balance(code)).status, body: await (await balance(code)).json() })));
    for (const a of answers)
      expect(a).toEqual({ status: 404, body: { message: 'We couldn’t find a gift card with that code. Please check it and try again.' } });

    // 20 tries per address in 15 minutes (8 taken above): the rest of 1,000 guesses are refused.
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1_000; i++) {
      const status = (await balance(`ZZZZ-ZZZZ-${String(2_000 + i).replace(/[01]/g, '9')}-ZZZZ`)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: 12, 429: 988 });
    // The right code too, from this address, until the window passes: no guess learns anything.
    const res = await balance(card.code);
    expect(res.status).toBe(429);
    expect((await res.json()).message).toBe('Too many gift card codes were tried. Please wait a few minutes and try again.');
  });

  it('refuses a day before today, a year away, an amount over $500, and anyone but her; nothing is made', async () => {
    const before = await server.services.db.selectFrom('giftCards').select(server.services.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const base = { amountCents: 2_000, recipientName: 'Rae', recipientEmail: recipient() };
    const past = await asAdmin('/api/admin/gift-cards', 'POST', { ...base, sendOn: addDays(today(), -1) });
    expect(past.status).toBe(400);
    expect((await past.json()).message).toBe('The delivery day must be today or later.');
    const far = await asAdmin('/api/admin/gift-cards', 'POST', { ...base, sendOn: addDays(today(), 400) });
    expect(far.status).toBe(400);
    expect((await far.json()).message).toBe('The delivery day must be within a year.');
    expect((await asAdmin('/api/admin/gift-cards', 'POST', { ...base, amountCents: 50_001 })).status).toBe(400);
    const client = await createUser(server, { firstName: 'Cleo' });
    expect((await server.api('/api/admin/gift-cards', { method: 'POST', json: base, headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api('/api/admin/gift-cards', { headers: { cookie: client.cookie } })).status).toBe(401);
    const after = await server.services.db.selectFrom('giftCards').select(server.services.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('her list keeps each kind of money apart (issue 50): a card she gives was paid nothing, her adjustments are their own figure and spend nothing', async () => {
    const card = await issue({ amountCents: 4_000, recipientName: 'Rae Prize', recipientEmail: recipient() });
    const adjust = async (cents: number, reason: string) =>
      expect((await asAdmin(`/api/admin/gift-cards/${card._id}/adjust`, 'POST', { cents, reason })).status).toBe(201);
    await adjust(1_000, 'A make-good for a melted tin');
    await adjust(-300, 'A truffle handed over at the market');
    expect(await listedCard(server, card._id)).toMatchObject({
      amountCents: 4_000,
      paidCents: 0,
      adjustedCents: 700,
      spentCents: 0,
      refundedCents: 0,
      balanceCents: 4_700,
      createdBy: 'admin',
    });
    // The card's own page says the same.
    expect(await (await asAdmin(`/api/admin/gift-cards/${card._id}`)).json()).toMatchObject({
      paidCents: 0,
      adjustedCents: 700,
      spentCents: 0,
      balanceCents: 4_700,
    });
  });

  it('a card she gives is no income: the finances of this month do not move, and the cards owed grow by its worth', async () => {
    const month = today().slice(0, 7);
    const read = async () =>
      (await (await asAdmin(`/api/admin/finances?from=${month}&to=${month}`)).json()) as { giftCardsOwed: { cards: number; cents: number } };
    const { giftCardsOwed: owedBefore, ...before } = await read();
    await issue({ amountCents: 20_000, recipientName: 'Rae Prize', recipientEmail: recipient() });
    const { giftCardsOwed: owedAfter, ...after } = await read();
    expect(after).toEqual(before);
    expect(owedAfter).toEqual({ cards: owedBefore.cards + 1, cents: owedBefore.cents + 20_000 });
  });
});
