/**
 * Her quote for a request (issue 34): stored (or her earlier quote changed, while no deposit is
 * paid) with the client's mail carrying the pay link, in one transaction; sent after the commit.
 */
import type { Services } from '../services/index.ts';
import type { TastingQuoteInput } from '../../contract/tastings.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { findQuote, findRequest, upsertQuote } from './tastings.repo.ts';
import { quoteMail } from './mails.ts';

type Quoted = { ok: true; quoteId: string } | { ok: false; kind: 'not-found' | 'deposit-paid' };
export type QuoteResult = (Quoted & { ok: false }) | { ok: true; quoteId: string; mailed: boolean };

export async function quoteTasting(services: Pick<Services, 'db' | 'env' | 'mailer'>, requestId: string, q: TastingQuoteInput): Promise<QuoteResult> {
  const brand = (await brandNames(services.db)).chocolates;
  const done = await commitWithMails<Quoted>(services, async (trx) => {
    if (!(await findRequest(trx, requestId))) return { result: { ok: false, kind: 'not-found' }, mails: [] };
    const quote = await upsertQuote(trx, requestId, q);
    if (!quote) return { result: { ok: false, kind: 'deposit-paid' }, mails: [] };
    const full = (await findQuote(trx, quote.id))!;
    return { result: { ok: true, quoteId: quote.id }, mails: await queueMails(trx, 'tasting-quote', [quoteMail(services.env, brand, full)]) };
  });
  return done.result.ok ? { ...done.result, mailed: done.allSent } : done.result;
}
