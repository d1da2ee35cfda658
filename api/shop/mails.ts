/**
 * The chocolate shop's mails (issue 6): the buyer's order confirmation and the teacher's
 * notification, and what PayPal's webhooks report later (a pending payment completed or denied,
 * a refund or reversal), and the buyer's news that the order shipped (with its tracking number,
 * linked on the carrier's site) or was picked up (issue 20). Everything is handed to renderMail
 * as text, which escapes it, so a payer name PayPal reports (or a buyer typed) never becomes
 * markup. Shipping words are SPEC.md section 9's. The buyer's mails are signed with her chocolate
 * brand (`brand`, api/site/brand.ts).
 */
import { taxLabel } from '../../contract/tax.ts';
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import type { Totals } from '../../contract/pricing.ts';
import { orderReference, trackingUrl } from '../../contract/orders.ts';
import { greeting, mail, money, oneLine, siteFooter, trustedName, type MailContent } from '../mail/layout.ts';

/** An order as its mails tell it; the totals are the priced cart's (contract/pricing.ts). */
export interface OrderMail extends Totals {
  /** Our order id. */
  id: string;
  /** Null for an order a gift card paid in full (issue 33): PayPal never saw it. */
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  /** What a gift card paid of the total (issue 33); absent or 0: none. */
  giftCardCents?: number;
  payerName: string;
  /** Empty when neither PayPal nor the buyer gave one: then only the teacher is told. */
  payerEmail: string;
  /**
   * `label`: the product's allergen line and net weight (issue 48: "Contains: almond, milk",
   * "Net wt 3.3 oz (93 g)"), where she has said them; absent or empty: none to show.
   */
  items: { name: string; unitPriceCents: number; quantity: number; label?: readonly string[] }[];
  couponCode: string | null;
  isLocalPickup: boolean;
  /** Where PayPal says to ship; null for pickup or when PayPal gave no address. */
  shipTo: { name: string; address: string } | null;
  /** PayPal holds the capture (an eCheck, a review): nothing ships until it completes. */
  paymentPending?: boolean;
  /** The sales tax (issue 24); absent or 0: none. */
  taxCents?: number;
  taxRatePpm?: number;
  taxState?: string | null;
  taxOnShipping?: boolean;
}

/** A short reference people can quote: the first block of our order id. */
// The order's number lives with the order's other shared pieces, so the admin's list shows the same one.
export { orderReference };

const itemLine = (i: OrderMail['items'][number]) => `${i.quantity} × ${i.name} at ${money(i.unitPriceCents)} = ${money(i.unitPriceCents * i.quantity)}`;
const itemLines = (o: OrderMail) => o.items.map(itemLine).join('\n');

/** The buyer's lines, each with the product's allergen line and net weight under it (issue 48). */
const buyerItemLines = (o: OrderMail) => o.items.map((i) => (i.label?.length ? `${itemLine(i)}\n${i.label.join(' · ')}` : itemLine(i))).join('\n');

/** The total and how it was paid: by the gift card, through PayPal, or both (issue 33). */
function paidLines(o: OrderMail): string[] {
  const card = o.giftCardCents ?? 0;
  if (card === 0) return [o.paymentPending ? `Total: ${money(o.totalCents)} USD, payment pending at PayPal` : `Total paid: ${money(o.totalCents)} USD`];
  const rest = o.totalCents - card;
  return [
    `Total: ${money(o.totalCents)} USD`,
    `Paid with a gift card: ${money(card)}`,
    ...(rest > 0 ? [o.paymentPending ? `Through PayPal: ${money(rest)}, payment pending` : `Paid through PayPal: ${money(rest)}`] : []),
  ];
}

const totalLines = (o: OrderMail) =>
  [
    `Items: ${money(o.itemsTotalCents)}`,
    ...(o.discountCents > 0 ? [`Discount${o.couponCode ? ` (${o.couponCode})` : ''}: −${money(o.discountCents)}`] : []),
    o.isLocalPickup ? 'Shipping: $0.00 (local pickup)' : `Shipping: ${money(o.shippingCents)}`,
    ...(o.taxState && o.taxCents ? [`${taxLabel(o.taxState, o.taxRatePpm ?? 0)}: ${money(o.taxCents)}`] : []),
    ...paidLines(o),
  ].join('\n');

export const SHIPPING_NOTE = 'Your chocolates ship within 2-5 days, Monday to Wednesday, by priority mail (1-3 days).';
export const PICKUP_NOTE = 'You chose local pickup, so there is no shipping fee. I will write to you when your chocolates are ready to collect.';

const shipToLines = (o: OrderMail) => (o.shipTo ? [o.shipTo.name, o.shipTo.address].filter(Boolean).join('\n') : '');

/** The teacher's first line while PayPal holds the payment. */
export const PAYMENT_PENDING_TEACHER_NOTE = 'Payment pending at PayPal: do not ship until it completes.';

/** What the buyer of a pending payment is told: received, and nothing goes out before PayPal confirms. */
export const paymentPendingNote = (isLocalPickup: boolean) =>
  'Your order of handmade chocolates is received. PayPal has not confirmed your payment yet (this can take a few days, ' +
  `for example for an eCheck). Your chocolates will ${isLocalPickup ? 'be ready for pickup' : 'ship'} once PayPal ` +
  'confirms the payment, and I will write to you when it does.';

const firstNameOf = (o: OrderMail) => o.payerName.split(/\s+/)[0] ?? '';
const buyerLines = (o: OrderMail) => `Buyer: ${o.payerName || '(no name given)'}\nEmail: ${o.payerEmail || '(no e-mail given)'}`;
const paypalLine = (o: OrderMail) =>
  o.paypalOrderId ? `PayPal order ${o.paypalOrderId}, capture ${o.paypalCaptureId}.` : 'Paid in full with a gift card: nothing went through PayPal.';

/** The buyer's mail, signed with the order's references; none when no address is known. */
const toBuyer = (env: Env, brand: string, o: OrderMail, subject: string, content: Omit<MailContent, 'footer'>): OutgoingMail[] =>
  o.payerEmail
    ? [
        mail(o.payerEmail, subject, {
          ...content,
          footer: [
            o.paypalCaptureId ? `Order ${orderReference(o.id)} · PayPal transaction ${o.paypalCaptureId}` : `Order ${orderReference(o.id)}`,
            ...siteFooter(env, brand),
          ],
        }),
      ]
    : [];

/** The teacher's mail: a button to the orders page, and replies go to the buyer. */
const toTeacher = (env: Env, o: OrderMail, subject: string, content: Omit<MailContent, 'action'>): OutgoingMail =>
  mail(
    env.TEACHER_EMAIL,
    subject,
    { ...content, action: { label: 'Open the orders page', url: `${env.SITE_URL}/admin/orders` } },
    o.payerEmail ? { about: o.payerEmail, headers: { 'Reply-To': o.payerEmail } } : {},
  );

/** What the buyer's confirmations list: items, totals, how it comes, and where to. */
const buyerSummary = (o: OrderMail) => [
  buyerItemLines(o),
  totalLines(o),
  o.isLocalPickup ? PICKUP_NOTE : SHIPPING_NOTE,
  ...(o.shipTo ? [`Shipping to:\n${shipToLines(o)}`] : []),
];

/** Where the teacher sends the order; `when` says whether it may go now. */
function deliveryLine(o: OrderMail, when: 'now' | 'once paid'): string {
  if (o.isLocalPickup) {
    return when === 'now'
      ? 'Delivery: local pickup. Write to the buyer when the order is ready.'
      : 'Delivery: local pickup. Once the payment completes, write to the buyer when the order is ready.';
  }
  const ship = when === 'now' ? 'Ship within 2-5 days' : 'Once the payment completes, ship within 2-5 days';
  return o.shipTo
    ? `Delivery: shipping. ${ship}, Monday to Wednesday, to:\n${shipToLines(o)}`
    : `Delivery: shipping. PayPal sent no address: find it in the PayPal transaction. ${when === 'now' ? 'Ships' : 'Once the payment completes, it ships'} within 2-5 days, Monday to Wednesday.`;
}

/** The buyer's confirmation and the teacher's notification of a new order (paid, or with its payment pending). */
export function orderMails(env: Env, brand: string, o: OrderMail): OutgoingMail[] {
  const ref = orderReference(o.id);
  const pending = o.paymentPending === true;
  const firstName = firstNameOf(o);
  return [
    ...toBuyer(env, brand, o, pending ? `Your chocolate order ${ref} is received` : `Your chocolate order ${ref} is confirmed`, {
      heading: firstName ? `Thank you, ${firstName}!` : 'Thank you for your order!',
      paragraphs: [
        pending ? paymentPendingNote(o.isLocalPickup) : 'Your order of handmade chocolates is paid and confirmed.',
        ...buyerSummary(o),
        'Tag me on social media with your chocolates for 15 percent off your next order.',
      ],
    }),
    toTeacher(env, o, `New chocolate order ${ref} from ${oneLine(o.payerName || 'a buyer')}: ${money(o.totalCents)}${pending ? ', payment pending' : ''}`, {
      heading: `New chocolate order ${ref}`,
      paragraphs: [
        ...(pending ? [PAYMENT_PENDING_TEACHER_NOTE] : []),
        buyerLines(o),
        itemLines(o),
        totalLines(o),
        deliveryLine(o, pending ? 'once paid' : 'now'),
        paypalLine(o),
      ],
    }),
  ];
}

/** PAYMENT.CAPTURE.COMPLETED for a pending order: the buyer hears the payment went through, the teacher may ship. */
export function paymentCompletedMails(env: Env, brand: string, pendingOrder: OrderMail): OutgoingMail[] {
  const o = { ...pendingOrder, paymentPending: false };
  const ref = orderReference(o.id);
  const firstName = firstNameOf(o);
  return [
    ...toBuyer(env, brand, o, `Your payment for chocolate order ${ref} went through`, {
      heading: firstName ? `Thank you, ${firstName}!` : 'Thank you for your order!',
      paragraphs: ['PayPal has confirmed your payment: your order of handmade chocolates is paid and confirmed.', ...buyerSummary(o)],
    }),
    toTeacher(env, o, `Payment completed for chocolate order ${ref}: ${o.isLocalPickup ? 'ready for pickup' : 'ready to ship'}`, {
      heading: `Chocolate order ${ref} is paid`,
      paragraphs: [
        'PayPal completed the pending payment of this order: it is paid now.',
        buyerLines(o),
        itemLines(o),
        totalLines(o),
        deliveryLine(o, 'now'),
        paypalLine(o),
      ],
    }),
  ];
}

/** PAYMENT.CAPTURE.DENIED for a pending order: cancelled for the buyer, not to be shipped for the teacher. */
export function paymentDeniedMails(env: Env, brand: string, o: OrderMail): OutgoingMail[] {
  const ref = orderReference(o.id);
  const firstName = firstNameOf(o);
  return [
    ...toBuyer(env, brand, o, `Your chocolate order ${ref} is cancelled: the payment did not go through`, {
      heading: firstName ? `Sorry, ${firstName}` : 'Your payment did not go through',
      paragraphs: [
        'PayPal could not complete your payment, so your order of handmade chocolates is cancelled and you have not been charged for it.',
        itemLines(o),
        `You are welcome to order again at ${env.SITE_URL}/chocolates.`,
      ],
    }),
    toTeacher(env, o, `Payment denied for chocolate order ${ref}: do not ship`, {
      heading: `Chocolate order ${ref}: payment denied`,
      paragraphs: [
        'PayPal denied the pending payment of this order. Do not ship it or hand it over; its tins are back in stock.',
        buyerLines(o),
        itemLines(o),
        paypalLine(o),
      ],
    }),
  ];
}

/**
 * PAYMENT.CAPTURE.REFUNDED or REVERSED: the teacher learns the order is refunded. PayPal tells
 * the buyer itself; the tins are not restocked (they may have gone out), so she is told to check.
 */
export function paymentReturnedMail(env: Env, o: OrderMail, how: 'refunded' | 'reversed'): OutgoingMail {
  const ref = orderReference(o.id);
  return toTeacher(env, o, `Chocolate order ${ref} was ${how} in PayPal`, {
    heading: `Chocolate order ${ref} is refunded`,
    paragraphs: [
      how === 'refunded'
        ? 'The payment of this order was refunded in PayPal, so the order is now marked refunded.'
        : 'PayPal reversed the payment of this order (a dispute or a chargeback, for example), so the order is now marked refunded.',
      'If it has not gone out yet, do not ship it or hand it over. Its tins were not put back in stock: if they are still here, add them back on the chocolates page.',
      buyerLines(o),
      itemLines(o),
      `Total: ${money(o.totalCents)} USD`,
      // A refund returns the whole total, the sales tax with it: the books count it back (issue 24).
      ...(o.taxState && o.taxCents ? [`Of which sales tax returned (${o.taxState}): ${money(o.taxCents)}`] : []),
      paypalLine(o),
    ],
  });
}

/** The buyer's first name for a greeting, when PayPal's payer name can be echoed (trustedName). */
const buyerFirstName = (o: Pick<OrderMail, 'payerName'>) => trustedName(o.payerName.split(/\s+/)[0] ?? '');

/** How a shipped order travels, as the teacher typed it when she marked it shipped. */
export interface Tracking {
  trackingNumber: string | null;
  carrier: string | null;
}

/**
 * The buyer's news that the order is on its way (with the tracking number, linked on the
 * carrier's public tracking page when the carrier is one the site knows) or was picked up.
 * None when the buyer left no address.
 */
/** Where and when a pickup order is collected: her shop's address and her pickup hours (Settings). */
export interface PickupPlace {
  address: string;
  hours: string;
}

export function deliveryMail(
  env: Env,
  brand: string,
  o: OrderMail,
  kind: 'shipped' | 'picked_up' | 'ready_for_pickup',
  tracking: Tracking,
  pickup?: PickupPlace,
): OutgoingMail[] {
  const ref = orderReference(o.id);
  const url = tracking.trackingNumber ? trackingUrl(tracking.carrier, tracking.trackingNumber) : null;
  const by = tracking.carrier ? ` by ${tracking.carrier}` : '';
  const first = buyerFirstName(o);
  if (kind === 'ready_for_pickup') {
    // Issue 30: the step the order mail promised ("I will write to you when … ready to collect").
    return toBuyer(env, brand, o, `Your chocolate order ${ref} is ready for pickup`, {
      heading: 'Your chocolates are ready',
      paragraphs: [
        greeting(o.payerName.split(/\s+/)[0] ?? ''),
        'Your order of handmade chocolates is packed and ready to collect.',
        itemLines(o),
        `Where: ${pickup?.address || 'reply to this mail and I will tell you where'}`,
        `When: ${pickup?.hours || 'reply to this mail and we will find a time that suits you'}`,
        `Please bring your order number, ${ref}.`,
      ],
    });
  }
  if (kind === 'picked_up') {
    return toBuyer(env, brand, o, `Your chocolate order ${ref} was picked up`, {
      heading: first ? `Thank you, ${first}!` : 'Thank you!',
      paragraphs: [
        'Your order of handmade chocolates has been picked up. Enjoy them!',
        itemLines(o),
        'Tag me on social media with your chocolates for 15 percent off your next order.',
      ],
    });
  }
  return toBuyer(env, brand, o, `Your chocolate order ${ref} is on its way`, {
    heading: 'Your chocolates are on their way',
    paragraphs: [
      greeting(o.payerName.split(/\s+/)[0] ?? ''),
      `Your order of handmade chocolates has shipped${by}.`,
      ...(tracking.trackingNumber ? [`Tracking number: ${tracking.trackingNumber}${url ? `\nTrack it: ${url}` : ''}`] : []),
      itemLines(o),
      ...(o.shipTo ? [`Shipping to:\n${shipToLines(o)}`] : []),
      'Priority mail usually takes 1-3 days.',
    ],
    ...(url ? { links: [url] } : {}),
  });
}

/**
 * She refunded the order from her orders page (issue 33): the buyer learns what went where, the
 * gift card's part back on the card (its code unchanged) and the rest through PayPal.
 */
export function orderRefundedMail(env: Env, brand: string, o: OrderMail, back: { cardCents: number; paypalCents: number }): OutgoingMail[] {
  const ref = orderReference(o.id);
  const firstName = buyerFirstName(o);
  return toBuyer(env, brand, o, `Your chocolate order ${ref} is refunded`, {
    heading: firstName ? `Your refund, ${firstName}` : 'Your refund',
    paragraphs: [
      'Your order of handmade chocolates is cancelled and refunded in full.',
      itemLines(o),
      ...(back.cardCents > 0 ? [`${money(back.cardCents)} is back on your gift card: the same code spends it.`] : []),
      ...(back.paypalCents > 0 ? [`${money(back.paypalCents)} is refunded through PayPal to the account you paid with.`] : []),
    ],
  });
}
