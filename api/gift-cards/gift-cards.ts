/**
 * Gift cards' use-cases (issue 33, decision 0041): a card issued (by her, or bought through
 * PayPal: buy-gift-card.ts) and delivered on its day; its balance read by its code and its spending are
 * the money floor's (api/money/cards.ts). A card's
 * money is a lot in the one ledger counted in cents (money/ledger.ts grantCardValue); its code
 * is derived from its id and APP_SECRET (codes.ts) and stored only as a hash. Refusals are
 * returned kinds.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Services } from '../services/index.ts';
import type { Database, GiftCardDesign, LotMethod } from '../../db/schema.ts';
import type { QueuedMails } from '../mail/outbox.repo.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { grantCardValue } from '../money/ledger.ts';
import { codeOf, linkTokenMatches, groupCode, lastFour } from './codes.ts';
import { hashCode } from '../money/card-code.ts';
import { cardById, changeDeliveryOf, claimDueCards, insertGiftCard, withholdCardsTo, type NewGiftCard } from './gift-cards.repo.ts';
import { deliveryMails, withheldCardMail } from './mails.ts';
import type { GiftCardPrintView } from '../../contract/gift-cards.ts';

type Deps = Pick<Services, 'db' | 'env' | 'mailer'>;

/** A card to make: what the card's row keeps (the recipient's mail: today or later, her day), and its sale. */
export interface NewCard extends Omit<NewGiftCard, 'id' | 'lotId' | 'codeHash' | 'codeLast4'> {
  amountCents: number;
  /** What the buyer paid (0 for a card she gives), and how. */
  priceCents: number;
  method: LotMethod;
  /** Her day the money came in, and today. */
  paidOn: string;
  paypalOrderId?: string | null;
}

/**
 * Makes the card in the caller's transaction: its lot and 'bought' row, its row with the code's
 * hash, and, when its day is today, its delivery (the mails queued in the same transaction).
 * Answers the card's id and its code (grouped), which only the caller sees now.
 */
export async function createCard(trx: Transaction<Database>, env: Deps['env'], card: NewCard): Promise<{ id: string; code: string; mails: QueuedMails }> {
  const id = randomUUID();
  const code = codeOf(env.APP_SECRET, id);
  const { amountCents, priceCents, method, paidOn, paypalOrderId = null, ...row } = card;
  const createdBy = card.createdBy === 'admin' ? 'admin' : 'client';
  const lotId = await grantCardValue(trx, { amountCents, priceCents, method, paidOn, createdBy, paypalOrderId });
  await insertGiftCard(trx, { ...row, id, lotId, codeHash: hashCode(code), codeLast4: lastFour(code) });
  const mails = card.sendOn <= card.paidOn ? await deliver(trx, env, card.paidOn, [id]) : [];
  return { id, code: groupCode(code), mails };
}

/** Claims the cards due (or only `ids`) and queues their mails, in the claim's transaction. */
async function deliver(trx: Transaction<Database>, env: Deps['env'], today: string, ids?: readonly string[]): Promise<QueuedMails> {
  const due = await claimDueCards(trx, today, ids);
  if (due.length === 0) return [];
  const brands = await brandNames(trx);
  const mails = due.flatMap((card) => deliveryMails(env, brands[card.design], card, codeOf(env.APP_SECRET, card.id)));
  return queueMails(trx, 'gift-card', mails);
}

/** She issues a card herself (a raffle prize, a make-good): free, from her, mailed on its day. */
export async function issueGiftCard(
  services: Deps,
  input: { amountCents: number; recipientName: string; recipientEmail: string; message: string; sendOn: string; design: GiftCardDesign; today: string },
): Promise<{ id: string; code: string }> {
  const brand = await brandNames(services.db);
  const done = await commitWithMails(services, async (trx) => {
    const card = await createCard(trx, services.env, {
      amountCents: input.amountCents,
      priceCents: 0,
      method: 'free',
      paidOn: input.today,
      design: input.design,
      buyerName: brand[input.design],
      buyerEmail: null,
      recipientName: input.recipientName,
      recipientEmail: input.recipientEmail,
      message: input.message,
      sendOn: input.sendOn,
      createdBy: 'admin',
    });
    return { result: { id: card.id, code: card.code }, mails: card.mails };
  });
  return done.result;
}

/**
 * The periodic delivery (every process, each minute): the cards whose day has come, each
 * delivered once however many replicas run (the claim marks them), its mails committed with the
 * mark and sent after it; a crash after the commit leaves them to the outbox's sender.
 */
export async function deliverDueCards(services: Deps, today: string): Promise<number> {
  const done = await commitWithMails(services, async (trx) => {
    const mails = await deliver(trx, services.env, today);
    return { result: mails.length, mails };
  });
  return done.result;
}

/** A card as the buyer's link shows it, or no card for a link that is not one's. */
export async function deliveryByLink(services: Pick<Deps, 'db' | 'env'>, id: string, token: string) {
  const card = await cardById(services.db, id);
  if (!card || !card.buyerEmail || !linkTokenMatches(services.env.APP_SECRET, 'change', id, token)) return undefined;
  return card;
}

export type DeliveryChange = { ok: true; delivered: boolean } | { ok: false; kind: 'not-found' | 'already-sent' };

/**
 * The buyer changes the recipient or the day of a card not sent yet (the link in the receipt). A
 * day of today delivers it now, in the same transaction; a card already sent (or voided) is
 * refused, decided by the row's conditional UPDATE so a change never races the delivery's claim.
 */
export async function changeDelivery(
  services: Deps,
  input: { id: string; token: string; recipientName: string; recipientEmail: string; sendOn: string; today: string },
): Promise<DeliveryChange> {
  if (!(await deliveryByLink(services, input.id, input.token))) return { ok: false, kind: 'not-found' };
  const { id, today, recipientName, recipientEmail, sendOn } = input;
  const done = await commitWithMails(services, async (trx) => {
    if (!(await changeDeliveryOf(trx, id, { recipientName, recipientEmail, sendOn }))) return { result: false, mails: [] };
    const mails = sendOn <= today ? await deliver(trx, services.env, today, [id]) : [];
    return { result: true, mails };
  });
  return done.result ? { ok: true, delivered: sendOn <= today } : { ok: false, kind: 'already-sent' };
}

/**
 * The recipient's printable card (the link in their mail, made on delivery): the card and its
 * code, for a card delivered and not voided; nothing for a link that is not the card's.
 */
export async function printableByLink(services: Pick<Deps, 'db' | 'env'>, id: string, token: string): Promise<GiftCardPrintView | undefined> {
  if (!linkTokenMatches(services.env.APP_SECRET, 'print', id, token)) return undefined;
  const card = await cardById(services.db, id);
  if (!card || !card.deliveredAt || card.voidedAt) return undefined;
  const brand = (await brandNames(services.db))[card.design];
  return {
    code: groupCode(codeOf(services.env.APP_SECRET, id)),
    amountCents: card.amountCents,
    design: card.design,
    brand,
    from: card.createdBy === 'admin' ? brand : card.buyerName,
    recipientName: card.recipientName,
    message: card.message,
  };
}

/**
 * In an erasure's transaction: the cards still on their way to `email` wait, unsent, without her
 * name, address or message, and their buyers (the teacher, for cards she gave) are asked for a new
 * recipient (decision 0053). The mails, queued in the same transaction.
 */
export async function withholdCardsOfErased(trx: Transaction<Database>, env: Services['env'], email: string): Promise<QueuedMails> {
  const withheld = await withholdCardsTo(trx, email);
  if (withheld.length === 0) return [];
  const brands = await brandNames(trx);
  return queueMails(
    trx,
    'gift-card-withheld',
    withheld.map((card) => withheldCardMail(env, brands[card.design], card)),
  );
}
