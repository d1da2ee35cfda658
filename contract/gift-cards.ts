/**
 * Gift cards (issue 33, decision 0041): one card for both brands, held in the one ledger in cents.
 * Shared with the islands: zod only. Each field has a doc line.
 */
import { z } from 'zod';
import { email, isoDate, nameText, optionalText } from './common.ts';
import { PAYMENT_UNSUCCESSFUL } from './booking.ts';
import { GIFT_CARD_NOT_FOUND } from './gift-card-code.ts';

export { GIFT_CARD_NOT_FOUND, payingGiftCardCode } from './gift-card-code.ts';

export const GIFT_CARD_TOO_MANY = 'Too many gift card codes were tried. Please wait a few minutes and try again.';
export const GIFT_CARD_SEND_ON_PAST = 'The delivery day must be today or later.';
export const GIFT_CARD_SEND_ON_TOO_LATE = 'The delivery day must be within a year.';

/** What a card may be worth when she issues one herself: any amount up to $500. */
export const ISSUED_MIN_CENTS = 1_00;
export const GIFT_CARD_MAX_CENTS = 500_00;
/** What a buyer may pay for one: a whole number of dollars from $10 to $500. */
export const BOUGHT_MIN_CENTS = 10_00;

export const GIFT_CARD_DESIGNS = ['yoga', 'chocolates'] as const;
export type GiftCardDesignKey = (typeof GIFT_CARD_DESIGNS)[number];

/** The code as a person types it: checked for its form by the server, which answers every wrong one alike. */
export const giftCardCode = z.string({ error: 'Enter the gift card code' }).trim().min(1, 'Enter the gift card code').max(40, GIFT_CARD_NOT_FOUND);

/** A card that holds nothing (spent, or voided); in contract/pricing.ts, which the cart imports without zod. */
export { GIFT_CARD_EMPTY } from './pricing.ts';
/** The card's balance fell between the quote and the order (another cart spent it). */
export const GIFT_CARD_CHANGED =
  'Your gift card’s balance changed while you were paying. Nothing was taken from it and you have not been charged. Please review your cart and pay again.';

/** A card she issues herself (a raffle prize, a make-good): `POST /api/admin/gift-cards`. */
export const issueGiftCardRequest = z.object({
  /** Its value in cents, $1 to $500. */
  amountCents: z
    .number({ error: 'Amount must be a whole number of cents' })
    .int('Amount must be a whole number of cents')
    .min(ISSUED_MIN_CENTS, 'Amount must be at least $1')
    .max(GIFT_CARD_MAX_CENTS, 'Amount must be at most $500'),
  /** Who receives it: the mail is addressed to them. */
  recipientName: nameText('Recipient name'),
  recipientEmail: email,
  /** Her words on the card. */
  message: optionalText('Message', 500).optional(),
  /** Her day the recipient's mail leaves; today when left out. */
  sendOn: isoDate.optional(),
  /** Which brand's card it looks like; yoga when left out. */
  design: z.enum(GIFT_CARD_DESIGNS, { error: 'Design must be yoga or chocolates' }).optional(),
});
export type IssueGiftCardRequest = z.infer<typeof issueGiftCardRequest>;

/** `POST /api/admin/gift-cards` → 201: the only answer that carries the whole code after its mail. */
export interface GiftCardIssuedView {
  _id: string;
  code: string;
}

/** `GET /api/gift-cards/balance?code=…`. */
export interface GiftCardBalanceView {
  balanceCents: number;
}

/** A card on her Gift cards page: what she sees of it (never the whole code). */
export interface AdminGiftCardView {
  _id: string;
  /** The code's last four characters. */
  last4: string;
  /** What was put on it when made. */
  amountCents: number;
  balanceCents: number;
  /** What its buyer paid: 0 for a card she gave. */
  paidCents: number;
  /** Her adjustments, summed with their signs. */
  adjustedCents: number;
  /** What it paid for, less what came back to it. */
  spentCents: number;
  /** What was taken back from it (a void). */
  refundedCents: number;
  design: GiftCardDesignKey;
  buyerName: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** Her day the mail leaves (YYYY-MM-DD). */
  sendOn: string;
  deliveredAt: string | null;
  voidedAt: string | null;
  createdBy: 'buyer' | 'admin';
  createdAt: string;
}

export const GIFT_CARD_ID_UNKNOWN = 'No gift card with this id.';
export const GIFT_CARD_ALREADY_DELIVERED = 'This card was delivered already, so it can’t be voided: adjust its balance instead.';
export const GIFT_CARD_VOIDED = 'This card was voided.';
export const GIFT_CARD_NOT_YET_DELIVERED = 'This card has not been delivered yet: it goes on its day.';
export const giftCardBelowZero = (balanceCents: number) => `That would take more than the card holds ($${(balanceCents / 100).toFixed(2)}).`;

/** Her adjustment of a card: `POST /api/admin/gift-cards/{id}/adjust`. */
export const giftCardAdjustment = z.object({
  /** Cents to add (more than 0) or take (less than 0). */
  cents: z
    .number({ error: 'Cents must be a whole number' })
    .int('Cents must be a whole number')
    .refine((n) => n !== 0, 'Cents must not be 0')
    .refine((n) => Math.abs(n) <= GIFT_CARD_MAX_CENTS, 'Cents must be at most $500 either way'),
  /** Why, for the card's history. */
  reason: nameText('Reason', 200),
});

/** A line of a card's history: her page. */
export interface GiftCardEntryView {
  at: string;
  change: number;
  reason: string;
  note: string;
  orderId: string | null;
  slotId: string | null;
}

/** `GET /api/admin/gift-cards/{id}`: the card and its history. */
export interface AdminGiftCardDetailView extends AdminGiftCardView {
  history: GiftCardEntryView[];
}

/** `POST /api/admin/gift-cards/{id}/void`: what was taken back, and the buyer's refund through PayPal if it was bought there. */
export interface GiftCardVoidedView {
  message: string;
  takenCents: number;
  /** 'owed': PayPal refused for now; the refund is owed and tried again until PayPal makes it (issue 47). */
  paypalRefund: 'refunded' | 'owed' | 'none';
}

/** A bought card's amount: whole dollars from $10 to $500 (one message for every amount off). */
export const GIFT_CARD_AMOUNT_INVALID = 'A gift card can be bought for a whole number of dollars from $10 to $500.';
/** The PayPal order was made for another card (another amount). */
export const GIFT_CARD_PAYMENT_FOR_ANOTHER = 'This payment was made for another gift card. Please pay for this card.';

const boughtAmount = z
  .number({ error: GIFT_CARD_AMOUNT_INVALID })
  .int(GIFT_CARD_AMOUNT_INVALID)
  .min(BOUGHT_MIN_CENTS, GIFT_CARD_AMOUNT_INVALID)
  .max(GIFT_CARD_MAX_CENTS, GIFT_CARD_AMOUNT_INVALID)
  .refine((cents) => cents % 100 === 0, GIFT_CARD_AMOUNT_INVALID);

/** `POST /api/gift-cards/paypal-order`: the server makes the PayPal order for this amount. */
export const giftCardOrderRequest = z.object({
  /** What the card is worth and what the buyer pays (no sales tax on a card), in cents: whole dollars, $10 to $500. */
  amountCents: boughtAmount,
});
export type GiftCardOrderRequest = z.input<typeof giftCardOrderRequest>;

/** `POST /api/gift-cards`: the card bought with the PayPal order the buyer approved. */
export const giftCardPurchaseRequest = z.object({
  /** The approved PayPal order, made by `POST /api/gift-cards/paypal-order`. */
  paypalOrderId: z
    .string({ error: PAYMENT_UNSUCCESSFUL })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, PAYMENT_UNSUCCESSFUL),
  /** The amount the order was made for, in cents. */
  amountCents: boughtAmount,
  /** Which brand's card it looks like, and whose name its mails are signed with. */
  design: z.enum(GIFT_CARD_DESIGNS, { error: 'Design must be yoga or chocolates' }),
  /** Who buys it: named in the recipient's mail. */
  buyerName: nameText('Your name'),
  /** Where the receipt and the note that the card was delivered go. */
  buyerEmail: email,
  /** Who receives it: the mail is addressed to them. */
  recipientName: nameText('Recipient name'),
  /** Where the card (its code) is mailed on its day. */
  recipientEmail: email,
  /** The buyer's words on the card. */
  message: optionalText('Message', 500).optional(),
  /** Her day the recipient's mail leaves (today to a year ahead); today when left out. */
  sendOn: isoDate.optional(),
});
export type GiftCardPurchaseRequest = z.input<typeof giftCardPurchaseRequest>;

/** `POST /api/gift-cards` → 201: the card made (its code goes to the recipient only). */
export interface GiftCardBoughtView {
  _id: string;
  /** The code's last four characters. */
  last4: string;
}

/** The receipt's link is not this card's (or no card's): one message for every wrong link. */
export const GIFT_CARD_LINK_INVALID = 'This link is not valid. Please use the link from your gift card e-mail.';
/** The buyer's change came after the card's mail left. */
export const GIFT_CARD_ALREADY_SENT = 'This gift card was delivered already, so its recipient and day can no longer change.';

/** `?token=` of the buyer's link (in the receipt): whoever holds the receipt may change where and when the card goes. */
export const giftCardChangeToken = z.string({ error: GIFT_CARD_LINK_INVALID }).trim().min(1, GIFT_CARD_LINK_INVALID).max(100, GIFT_CARD_LINK_INVALID);

/** The buyer's change of a card not yet sent: `PUT /api/gift-cards/{id}/delivery`. */
export const giftCardDeliveryChange = z.object({
  /** The receipt link's token. */
  token: giftCardChangeToken,
  /** Who receives it. */
  recipientName: nameText('Recipient name'),
  /** Where the card (its code) is mailed on its day. */
  recipientEmail: email,
  /** Her day the mail leaves: today (it leaves now) to a year ahead. */
  sendOn: isoDate,
});
export type GiftCardDeliveryChange = z.input<typeof giftCardDeliveryChange>;

/** `GET /api/gift-cards/{id}/printable?token=…` (the link in the recipient's mail): the card to print and give by hand. */
export interface GiftCardPrintView {
  /** The whole code, grouped: the link came with it in the recipient's mail. */
  code: string;
  amountCents: number;
  design: GiftCardDesignKey;
  /** The brand the card is signed with. */
  brand: string;
  /** Who gives it: the buyer, or her brand for a card she issued. */
  from: string;
  recipientName: string;
  message: string;
}

/** `GET /api/gift-cards/{id}/delivery?token=…`: what the buyer may still change, and whether it went. */
export interface GiftCardDeliveryView {
  last4: string;
  amountCents: number;
  recipientName: string;
  recipientEmail: string;
  /** Her day the mail leaves (YYYY-MM-DD). */
  sendOn: string;
  /** Sent already (or voided): nothing can change any more. */
  delivered: boolean;
}

/** `POST /api/user/{id}/packages/{packageId}/gift-card/paypal-order`: the PayPal order for what the card does not hold of the price. */
export const packageByCardOrderRequest = z.object({
  /** The card's code as typed. */
  giftCardCode: giftCardCode,
  /** The whole price the client pays for the package, on its scale, in cents. */
  amountCents: z
    .number({ error: 'The amount must be a whole number of cents' })
    .int('The amount must be a whole number of cents')
    .positive('The amount must be more than $0'),
});

/** `POST /api/user/{id}/packages/{packageId}/gift-card`: a package bought with a gift card, alone or with the approved PayPal order for the rest. */
export const packageByCardRequest = packageByCardOrderRequest.extend({
  /** The approved order for the rest, made by `…/gift-card/paypal-order`; absent when the card pays it all. */
  paypalOrderId: z
    .string({ error: PAYMENT_UNSUCCESSFUL })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, PAYMENT_UNSUCCESSFUL)
    .optional(),
});

/** The card holds the whole price of a package: bought with the card alone, nothing to pay through PayPal. */
export const GIFT_CARD_PAYS_PACKAGE = 'Your gift card pays the whole package, so there is nothing to pay through PayPal: buy it with the card.';
export type PackageByCardRequest = z.input<typeof packageByCardRequest>;
