/**
 * A paid event's price in the browser (issue 34): found on the public calendar, and said in a
 * few words. Small and without the payment step, so the calendar and the sign-up choice can use
 * it without loading PayPal's.
 */
import type { EventView } from '../../contract/events.ts';
import { priceRange } from '../../contract/event-price-rules.ts';
import { request } from './http';
import { usdFromCents } from './money';

/** The paid event of this title on this day, from the public calendar; null when it is free or not found. */
export async function paidEventOf(title: string, date: string): Promise<EventView | null> {
  if (!title || !date) return null;
  try {
    const res = await request<EventView[]>('GET', `/api/events?from=${encodeURIComponent(date)}&to=${encodeURIComponent(date)}`);
    const event = res.ok && Array.isArray(res.data) ? res.data.find((e) => e.title === title) : undefined;
    return event && priceRange(event) ? event : null;
  } catch {
    return null;
  }
}

/** "$45.00", "$20.00 to $60.00, pay what you can"; empty for a free event. */
export function priceWords(e: Pick<EventView, 'priceCents' | 'minPriceCents' | 'maxPriceCents'>): string {
  if (e.priceCents !== null) return usdFromCents(e.priceCents);
  if (e.minPriceCents !== null && e.maxPriceCents !== null) return `${usdFromCents(e.minPriceCents)} to ${usdFromCents(e.maxPriceCents)}, pay what you can`;
  return '';
}
