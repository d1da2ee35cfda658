/**
 * What a tasting owes and where its client pays (issue 34): one rule for the pay page, the PayPal
 * order, the completing transaction and her list. The deposit first; then the rest of the price
 * as the balance, paid once, through the same link or by her hand.
 */
import type { Env } from '../env.ts';
import type { TastingPart, TastingQuoteView } from '../../contract/tastings.ts';
import { linkToken, linkTokenIs } from '../lib/link-token.ts';
import type { QuoteWithRequest } from './tastings.repo.ts';

/** The pay link's label (api/lib/link-token.ts): a token for it opens nothing else. */
const PAY_LINK = 'tasting-pay';

/** The client's pay page for a quote, with its token: an absolute address, for a mail. */
export const payLinkOf = (env: Pick<Env, 'SITE_URL' | 'APP_SECRET'>, quoteId: string) =>
  `${env.SITE_URL}/tastings/pay?quote=${encodeURIComponent(quoteId)}&token=${linkToken(env.APP_SECRET, PAY_LINK, quoteId)}`;

export const payTokenMatches = (env: Pick<Env, 'APP_SECRET'>, quoteId: string, token: string) => linkTokenIs(env.APP_SECRET, PAY_LINK, quoteId, token);

type Paid = { part: TastingPart; amountCents: number };

export const paidCentsOf = (payments: readonly Paid[]) => payments.reduce((sum, p) => sum + p.amountCents, 0);

/** What is due now: the deposit until it is paid, then the rest once; null when nothing is (or the tasting was called off). */
export function dueOf(quote: { priceCents: number; depositCents: number; cancelledAt?: Date | null }, payments: readonly Paid[]): Paid | null {
  if (quote.cancelledAt) return null;
  if (!payments.some((p) => p.part === 'deposit')) return { part: 'deposit', amountCents: quote.depositCents };
  if (payments.some((p) => p.part === 'balance')) return null;
  const rest = quote.priceCents - paidCentsOf(payments);
  return rest > 0 ? { part: 'balance', amountCents: rest } : null;
}

/** The pay page's view of a quote. */
export function quoteView(q: QuoteWithRequest, payments: readonly Paid[]): TastingQuoteView {
  return {
    _id: q.id,
    name: q.name,
    occasion: q.occasion,
    guests: q.guests,
    date: q.date,
    time: q.time,
    place: q.place,
    priceCents: q.priceCents,
    depositCents: q.depositCents,
    paidCents: paidCentsOf(payments),
    due: dueOf(q, payments),
  };
}

/** The title of the event a paid tasting holds in her agenda. */
export const eventTitleOf = (occasion: string) => `Private tasting: ${occasion}`;
