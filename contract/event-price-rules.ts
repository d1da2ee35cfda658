/**
 * The rules of a paid event's price (issue 34, decision 0043), without zod: the calendar's and
 * the sign-up page's islands read them without loading the schemas (the calendar's script budget,
 * tests/unit/system/budgets.test.ts). contract/event-prices.ts holds the schemas and re-exports these.
 */

export const PRICE_SHAPE = 'Give a fixed price, or the lowest, suggested and highest amounts of a sliding scale, not both.';
export const PRICE_ORDER = 'The lowest amount must not be above the suggested one, nor the suggested above the highest.';

export interface EventPrice {
  priceCents: number | null;
  minPriceCents: number | null;
  suggestedPriceCents: number | null;
  maxPriceCents: number | null;
}

/** Why a set of price fields is not one shape (free, fixed, or a whole scale in order); null when it is. */
export function priceShapeProblem(p: Partial<EventPrice>): string | null {
  const scale = [p.minPriceCents, p.suggestedPriceCents, p.maxPriceCents];
  const scaleGiven = scale.filter((v) => v != null).length;
  if (scaleGiven !== 0 && scaleGiven !== 3) return PRICE_SHAPE;
  if (scaleGiven === 3 && p.priceCents != null) return PRICE_SHAPE;
  if (scaleGiven === 3 && !(p.minPriceCents! <= p.suggestedPriceCents! && p.suggestedPriceCents! <= p.maxPriceCents!)) return PRICE_ORDER;
  return null;
}

/** Whether a place in this event is paid for. */
export const isPaidEvent = (p: EventPrice) => p.priceCents != null || p.minPriceCents != null;

/** The amounts a buyer may pay: exactly the price, or anything on the scale; null for a free event. */
export function priceRange(p: EventPrice): { min: number; suggested: number; max: number } | null {
  if (p.priceCents != null) return { min: p.priceCents, suggested: p.priceCents, max: p.priceCents };
  if (p.minPriceCents != null) return { min: p.minPriceCents, suggested: p.suggestedPriceCents!, max: p.maxPriceCents! };
  return null;
}

/** Whether `amountCents` is what this paid event accepts (whole cents, within its range). */
export function acceptsAmount(p: EventPrice, amountCents: number): boolean {
  const range = priceRange(p);
  return range !== null && Number.isInteger(amountCents) && amountCents >= range.min && amountCents <= range.max;
}

/** "$25.00", "$1,000.00". */
export const usd = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The line the sign-up page shows for a paid event before paying: its refund policy. */
export const refundPolicyLine = (refundUntil: string, noticeHoursText: string) =>
  `Cancel at least ${noticeHoursText} before it starts (by ${refundUntil}) for a full refund; a later cancellation or a missed class is not refunded.`;
