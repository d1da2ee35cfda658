/**
 * A package sold outside the site (issue 32, decision 0035), as the handler recipe writes a change
 * (docs/handler-recipe.md): the teacher names the client, the package and how it was paid (cash,
 * Venmo, free…); the lot and, when she asks, its receipt are written in one transaction and the
 * receipt is sent after the commit (commitWithMails, decision 0024).
 */
import type { Services } from '../services/index.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { addMonths } from '../lib/time.ts';
import type { z } from 'zod';
import type { offlineSale } from '../../contract/packages.ts';
import { findPackage } from './packages.repo.ts';
import { clientContact } from '../money/ledger.repo.ts';
import { grantPackage } from '../money/ledger.ts';
import { receiptMail } from './mails.ts';

export type OfflineSaleRefusal = 'unknown-account' | 'package-not-found';

export type OfflineSaleResult = { ok: true; lotId: string } | { ok: false; kind: OfflineSaleRefusal };

/** Grants the lot she sold by hand; mails its receipt when she asks. */
export async function sellOffline(
  services: Pick<Services, 'db' | 'env' | 'mailer'>,
  input: { userId: string; sale: z.output<typeof offlineSale> },
): Promise<OfflineSaleResult> {
  const { db, env } = services;
  const { userId, sale } = input;
  const [client, pkg] = await Promise.all([clientContact(db, userId), findPackage(db, sale.packageId)]);
  if (!client) return { ok: false, kind: 'unknown-account' };
  if (!pkg) return { ok: false, kind: 'package-not-found' };
  const priceCents = sale.method === 'free' ? 0 : sale.amountCents;
  const { result: lotId } = await commitWithMails(services, async (trx) => {
    const lot = await grantPackage(trx, { userId, package: pkg, priceCents, method: sale.method, paidOn: sale.paidOn, createdBy: 'admin' });
    if (!sale.sendReceipt) return { result: lot, mails: [] };
    const receipt = receiptMail(env, (await brandNames(trx)).yoga, {
      userId,
      email: client.email,
      firstName: client.firstName,
      packageName: pkg.name,
      sessions: pkg.sessions,
      amountCents: priceCents,
      method: sale.method,
      paidOn: sale.paidOn,
      expiresOn: addMonths(sale.paidOn, pkg.monthsValid),
    });
    return { result: lot, mails: await queueMails(trx, 'package-receipt', [receipt]) };
  });
  return { ok: true, lotId };
}
