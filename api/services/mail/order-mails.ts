/**
 * The chocolate shop's mails (issue 6): the buyer's order confirmation and the teacher's
 * notification. Everything is handed to renderMail as text, which escapes it, so a payer name
 * PayPal reports (or a buyer typed) never becomes markup. Shipping words are SPEC.md section 9's.
 */
import type { Env } from '../../env.ts';
import type { OutgoingMail } from './index.ts';
import { renderMail } from './layout.ts';

const BRAND = 'Yoga & Chocolates';

export interface OrderMail {
  /** Our order id. */
  id: string;
  paypalOrderId: string;
  paypalCaptureId: string;
  payerName: string;
  /** Empty when neither PayPal nor the buyer gave one: then only the teacher is told. */
  payerEmail: string;
  items: { name: string; unitPriceCents: number; quantity: number }[];
  itemsTotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  couponCode: string | null;
  isLocalPickup: boolean;
  /** Where PayPal says to ship; null for pickup or when PayPal gave no address. */
  shipTo: { name: string; address: string } | null;
}

/** 1850 -> "$18.50" */
export const money = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Subjects carry a payer name: one line, bounded. */
const oneLine = (s: string, max = 80) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** A short reference people can quote: the first block of our order id. */
export const orderReference = (id: string): string => id.replace(/-/g, '').slice(0, 8).toUpperCase();

const itemLines = (o: OrderMail) =>
  o.items.map((i) => `${i.quantity} × ${i.name} at ${money(i.unitPriceCents)} = ${money(i.unitPriceCents * i.quantity)}`).join('\n');

const totalLines = (o: OrderMail) =>
  [
    `Items: ${money(o.itemsTotalCents)}`,
    ...(o.discountCents > 0 ? [`Discount${o.couponCode ? ` (${o.couponCode})` : ''}: −${money(o.discountCents)}`] : []),
    o.isLocalPickup ? 'Shipping: $0.00 (local pickup)' : `Shipping: ${money(o.shippingCents)}`,
    `Total paid: ${money(o.totalCents)} USD`,
  ].join('\n');

export const SHIPPING_NOTE = 'Your chocolates ship within 2-5 days, Monday to Wednesday, by priority mail (1-3 days).';
export const PICKUP_NOTE = 'You chose local pickup, so there is no shipping fee. I will write to you when your chocolates are ready to collect.';

const shipToLines = (o: OrderMail) => (o.shipTo ? [o.shipTo.name, o.shipTo.address].filter(Boolean).join('\n') : '');

export function orderMails(env: Env, o: OrderMail): OutgoingMail[] {
  const ref = orderReference(o.id);
  const mails: OutgoingMail[] = [];
  if (o.payerEmail) {
    const firstName = o.payerName.split(/\s+/)[0] ?? '';
    mails.push({
      to: o.payerEmail,
      subject: `Your chocolate order ${ref} is confirmed`,
      ...renderMail({
        heading: firstName ? `Thank you, ${firstName}!` : 'Thank you for your order!',
        paragraphs: [
          'Your order of handmade chocolates is paid and confirmed.',
          itemLines(o),
          totalLines(o),
          o.isLocalPickup ? PICKUP_NOTE : SHIPPING_NOTE,
          ...(o.shipTo ? [`Shipping to:\n${shipToLines(o)}`] : []),
          'Tag me on social media with your chocolates for 15 percent off your next order.',
        ],
        footer: [`Order ${ref} · PayPal transaction ${o.paypalCaptureId}`, `${BRAND} · ${env.SITE_URL}`],
      }),
    });
  }
  mails.push({
    to: env.TEACHER_EMAIL,
    subject: `New chocolate order ${ref} from ${oneLine(o.payerName || 'a buyer')}: ${money(o.totalCents)}`,
    ...renderMail({
      heading: `New chocolate order ${ref}`,
      paragraphs: [
        `Buyer: ${o.payerName || '(no name given)'}\nEmail: ${o.payerEmail || '(no e-mail given)'}`,
        itemLines(o),
        totalLines(o),
        o.isLocalPickup
          ? 'Delivery: local pickup. Write to the buyer when the order is ready.'
          : o.shipTo
            ? `Delivery: shipping. Ship within 2-5 days, Monday to Wednesday, to:\n${shipToLines(o)}`
            : 'Delivery: shipping. PayPal sent no address: find it in the PayPal transaction. Ships within 2-5 days, Monday to Wednesday.',
        `PayPal order ${o.paypalOrderId}, capture ${o.paypalCaptureId}.`,
      ],
      action: { label: 'Open the orders page', url: `${env.SITE_URL}/admin/orders` },
    }),
    ...(o.payerEmail ? { headers: { 'Reply-To': o.payerEmail } } : {}),
  });
  return mails;
}
