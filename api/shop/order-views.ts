/**
 * Orders as the API answers them (contract/orders.ts's views): money in dollars, like the rest
 * of the API, from the integer cents the database and the pricing keep.
 */
import { centsToDollars } from '../../contract/chocolates.ts';
import { trackingUrl, type AdminOrderView, type OrderLineView, type OrderView, type TaxView } from '../../contract/orders.ts';
import { ratePercent, taxLabel } from '../../contract/tax.ts';
import type { OrderMail } from './mails.ts';
import type { Totals } from '../../contract/pricing.ts';
import type { OrderMoney } from '../../db/schema.ts';
import { shipToOfOrder, type OrderItemRow, type OrderRow } from './orders.repo.ts';

export const moneyView = (t: Totals) => ({
  itemsTotal: centsToDollars(t.itemsTotalCents),
  discount: centsToDollars(t.discountCents),
  shipping: centsToDollars(t.shippingCents),
  total: centsToDollars(t.totalCents),
});

/**
 * The sales tax as the answers show it (issue 24); an order from before it has none. Where she
 * does not collect (no source, issue 29) there is no tax line: the label is empty.
 */
export const taxView = (t: Omit<OrderMoney, keyof Totals | 'couponCode' | 'isLocalPickup'>): TaxView => ({
  tax: centsToDollars(t.taxCents ?? 0),
  taxCents: t.taxCents ?? 0,
  taxState: t.taxState ?? null,
  taxRatePercent: ratePercent(t.taxRatePpm ?? 0),
  taxLabel: t.taxState && (t.taxRateSource || (t.taxCents ?? 0) > 0) ? taxLabel(t.taxState, t.taxRatePpm ?? 0) : '',
  taxOnShipping: t.taxOnShipping ?? false,
  taxZip: t.taxZip ?? null,
  taxLocationCode: t.taxLocationCode ?? null,
  taxJurisdiction: t.taxJurisdiction ?? null,
  taxRateSource: t.taxRateSource ?? null,
});

/** A cart line or an order item as sold; `productId` is null once the product is deleted. */
export const lineView = (l: { productId: string | null; name: string; unitPriceCents: number; quantity: number }): OrderLineView => ({
  _id: l.productId,
  name: l.name,
  price: centsToDollars(l.unitPriceCents),
  quantity: l.quantity,
});

/** The buyer's order, as POST /api/orders answers it. */
export const orderView = (
  o: Pick<OrderRow, 'id' | 'isLocalPickup' | 'couponCode' | 'payerName'> & Totals & Parameters<typeof taxView>[0] & { giftCardCents?: number },
  items: Pick<OrderItemRow, 'productId' | 'name' | 'unitPriceCents' | 'quantity'>[],
): OrderView => ({
  _id: o.id,
  ...moneyView(o),
  giftCardCents: o.giftCardCents ?? 0,
  amountDueCents: o.totalCents - (o.giftCardCents ?? 0),
  ...taxView(o),
  isLocalPickup: o.isLocalPickup,
  couponCode: o.couponCode,
  payerName: o.payerName,
  items: items.map(lineView),
});

/** One order of the admin's list. */
export const adminOrderView = (o: OrderRow, items: OrderItemRow[], paymentNote: string | null = null): AdminOrderView => ({
  _id: o.id,
  createdAt: new Date(o.createdAt).toISOString(),
  payerName: o.payerName,
  payerEmail: o.payerEmail,
  items: items.map((i) => ({ name: i.name, price: centsToDollars(i.unitPriceCents), quantity: i.quantity })),
  ...moneyView(o),
  ...taxView(o),
  giftCardCents: o.giftCardCents,
  couponCode: o.couponCode,
  isLocalPickup: o.isLocalPickup,
  shipTo: shipToOfOrder(o),
  status: o.status,
  paymentNote,
  trackingNumber: o.trackingNumber,
  carrier: o.carrier,
  trackingUrl: trackingUrl(o.carrier, o.trackingNumber),
});

/** A stored order as its mails tell it (shop/mails.ts). */
export const orderMailView = (o: OrderRow, items: (Pick<OrderItemRow, 'name' | 'unitPriceCents' | 'quantity'> & { label?: string[] })[]): OrderMail => ({
  id: o.id,
  paypalOrderId: o.paypalOrderId,
  paypalCaptureId: o.paypalCaptureId,
  giftCardCents: o.giftCardCents,
  payerName: o.payerName,
  payerEmail: o.payerEmail,
  items: items.map((i) => ({ name: i.name, unitPriceCents: i.unitPriceCents, quantity: i.quantity, ...(i.label ? { label: i.label } : {}) })),
  itemsTotalCents: o.itemsTotalCents,
  discountCents: o.discountCents,
  shippingCents: o.shippingCents,
  totalCents: o.totalCents,
  couponCode: o.couponCode,
  isLocalPickup: o.isLocalPickup,
  shipTo: shipToOfOrder(o),
  taxCents: o.taxCents,
  taxRatePpm: o.taxRatePpm,
  taxState: o.taxState,
  taxOnShipping: o.taxOnShipping,
});
