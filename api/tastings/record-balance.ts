/**
 * The balance she was paid by hand on the day (issue 34): cash or check, for what is left after
 * the deposit, recorded with the client's receipt and her note in one transaction. Under the
 * quote's lock, so a PayPal balance completing at the same moment and her record make one.
 */
import type { Services } from '../services/index.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { zonedNow } from '../lib/time.ts';
import { findRequest, insertPayment, lockQuote, paymentsOf, quoteOfRequest } from './tastings.repo.ts';
import { dueOf } from './tastings.ts';
import { paymentMails } from './mails.ts';

export type BalanceResult = { ok: true; amountCents: number } | { ok: false; kind: 'not-found' | 'not-quoted' | 'deposit-first' | 'nothing-due' };

export async function recordBalance(
  services: Pick<Services, 'db' | 'env' | 'mailer' | 'clock'>,
  requestId: string,
  method: 'cash' | 'check',
): Promise<BalanceResult> {
  const { env } = services;
  const brand = (await brandNames(services.db)).chocolates;
  if (!(await findRequest(services.db, requestId))) return { ok: false, kind: 'not-found' };
  const found = await quoteOfRequest(services.db, requestId);
  if (!found) return { ok: false, kind: 'not-quoted' };
  const done = await commitWithMails<BalanceResult>(services, async (trx) => {
    const quote = (await lockQuote(trx, found.id))!;
    const due = dueOf(quote, await paymentsOf(trx, quote.id));
    if (!due) return { result: { ok: false, kind: 'nothing-due' }, mails: [] };
    if (due.part !== 'balance') return { result: { ok: false, kind: 'deposit-first' }, mails: [] };
    const paidOn = zonedNow(env.SITE_TIMEZONE, services.clock.now()).date;
    await insertPayment(trx, { quoteId: quote.id, part: 'balance', amountCents: due.amountCents, method, paypalOrderId: null, paypalCaptureId: null, paidOn });
    const mails = paymentMails(env, brand, quote, { part: 'balance', amountCents: due.amountCents, leftCents: 0, method, paypalOrderId: null });
    return { result: { ok: true, amountCents: due.amountCents }, mails: await queueMails(trx, 'tasting-payment', mails) };
  });
  return done.result;
}
