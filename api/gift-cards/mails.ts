/**
 * The gift cards' mails (issue 33, decision 0041), written to the outbox in the transaction that
 * delivers the card: the recipient's card (the code, the amount, the message)
 * and, when someone bought it, the buyer's note that it went; and the buyer's receipt, in the
 * transaction that makes a card bought through PayPal. Signed with the brand of the card's
 * design. Every value goes to renderMail as text, which escapes it. The code is in the recipient's
 * mail only; the buyer's mails name its last four characters.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, money, oneLine, siteFooter } from '../mail/layout.ts';
import { groupCode, linkTokenOf } from './codes.ts';
import type { CardToDeliver } from './gift-cards.repo.ts';

/** The recipient's card and, for a bought card, the buyer's note that it was delivered. */
export function deliveryMails(env: Env, brand: string, card: CardToDeliver, code: string): OutgoingMail[] {
  const amount = money(card.amountCents);
  // A buyer erased before the card left is no longer named (decision 0053).
  const from = card.createdBy === 'admin' ? brand : card.buyerName || 'Someone';
  const mails: OutgoingMail[] = [
    mail(
      card.recipientEmail,
      `A ${amount} gift card from ${oneLine(from)}`,
      {
        heading: `A gift card for you: ${amount}`,
        paragraphs: [
          greeting(card.recipientName),
          `${from} sent you a ${brand} gift card worth ${amount}.`,
          ...(card.message ? [`“${card.message}”`] : []),
          `Your code: ${groupCode(code)}`,
          'Use it for chocolates in the cart, or for a yoga session or package when you book: it pays what it can, and what is left stays on the card for next time. It never expires.',
          `To give it by hand, print the card: ${env.SITE_URL}/gift-cards/print?card=${encodeURIComponent(card.id)}&token=${linkTokenOf(env.APP_SECRET, 'print', card.id)}`,
        ],
        footer: siteFooter(env, brand),
      },
      // It names its buyer: erasing her empties it (decision 0053).
      card.buyerEmail ? { names: [card.buyerEmail] } : {},
    ),
  ];
  if (card.buyerEmail) {
    mails.push(
      mail(
        card.buyerEmail,
        `Your gift card to ${oneLine(card.recipientName)} was delivered`,
        {
          heading: 'Your gift card was delivered',
          paragraphs: [
            greeting(card.buyerName),
            `Your ${amount} gift card (ending ${card.codeLast4}) was sent to ${card.recipientName} at ${card.recipientEmail} today.`,
          ],
          footer: siteFooter(env, brand),
        },
        { about: card.buyerEmail, names: [card.recipientEmail] },
      ),
    );
  }
  return mails;
}

export interface CardReceipt {
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  recipientEmail: string;
  amountCents: number;
  /** Her days, YYYY-MM-DD: the money came in, and the recipient's mail leaves. */
  paidOn: string;
  sendOn: string;
  /** The code's last four characters: the buyer never sees the whole code. */
  last4: string;
  paypalOrderId: string;
  /** The card's id: its link to change the recipient or the day while it waits. */
  cardId: string;
}

/** The buyer's page to change where and when a card goes (site/pages/gift-cards/change.astro). */
export const changeLinkOf = (env: Pick<Env, 'SITE_URL' | 'APP_SECRET'>, cardId: string) =>
  `${env.SITE_URL}/gift-cards/change?card=${encodeURIComponent(cardId)}&token=${linkTokenOf(env.APP_SECRET, 'change', cardId)}`;

/** The buyer's receipt, queued with the card: what was paid, for whom, when it goes; never the code. */
export function receiptMail(env: Env, brand: string, r: CardReceipt): OutgoingMail {
  const amount = money(r.amountCents);
  const when = r.sendOn <= r.paidOn ? 'today' : `on ${r.sendOn}`;
  return mail(
    r.buyerEmail,
    `Your receipt: a ${amount} gift card for ${oneLine(r.recipientName)}`,
    {
      heading: 'Thank you for your gift card!',
      paragraphs: [
        greeting(r.buyerName),
        `Your ${amount} ${brand} gift card (ending ${r.last4}) goes to ${r.recipientName} at ${r.recipientEmail} ${when}. We will let you know when it has been delivered.`,
        `Payment: ${amount} paid through PayPal (order ${r.paypalOrderId}) on ${r.paidOn}. No sales tax is charged on a gift card.`,
        'The card never expires: it can be spent on chocolates, a yoga session or a package.',
        ...(r.sendOn > r.paidOn ? [`Until it is sent you can change the recipient’s e-mail or the day: ${changeLinkOf(env, r.cardId)}`] : []),
      ],
      footer: siteFooter(env, brand),
    },
    { about: r.buyerEmail, names: [r.recipientEmail] },
  );
}

/**
 * A card withheld because its recipient asked to be erased before its day (decision 0053): to its
 * buyer, with the link to name another recipient; for a card she gave, to the teacher. Never the
 * erased person's name or address.
 */
export function withheldCardMail(
  env: Env,
  brand: string,
  card: { id: string; buyerName: string; buyerEmail: string | null; codeLast4: string; amountCents: number },
): OutgoingMail {
  const amount = money(card.amountCents);
  const why = `Your ${amount} gift card (ending ${card.codeLast4}) was not sent: its recipient asked us to erase their details, so we no longer have the address it was going to.`;
  if (card.buyerEmail)
    return mail(
      card.buyerEmail,
      `Your gift card (ending ${card.codeLast4}) needs a new recipient`,
      {
        heading: 'Your gift card was not sent',
        paragraphs: [greeting(card.buyerName), why, `It keeps its value. Choose who it goes to, and when: ${changeLinkOf(env, card.id)}`],
        footer: siteFooter(env, brand),
      },
      { about: card.buyerEmail },
    );
  return mail(env.TEACHER_EMAIL, `A gift card you gave (ending ${card.codeLast4}) was not sent`, {
    heading: 'A gift card was not sent',
    paragraphs: [
      `The ${amount} gift card ending ${card.codeLast4} was not sent: its recipient deleted their account before its day, and their address is erased.`,
      'It waits, unsent, on your Gift cards page: void it, or give a new card to whoever should have it.',
    ],
    action: { label: 'Gift cards', url: `${env.SITE_URL}/admin/gift-cards` },
    footer: siteFooter(env, brand),
  });
}
