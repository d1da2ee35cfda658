/**
 * A tasting asked for on /chocolates (issue 34): stored with her notice in one transaction, the
 * notice sent after the commit (decision 0024). The route checks the human and the days first.
 */
import type { Services } from '../services/index.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { insertRequest, type TastingRequestRow } from './tastings.repo.ts';
import { requestNotice } from './mails.ts';

export async function requestTasting(services: Pick<Services, 'db' | 'env' | 'mailer'>, r: Omit<TastingRequestRow, 'id' | 'createdAt'>): Promise<string> {
  const brand = (await brandNames(services.db)).chocolates;
  const { result } = await commitWithMails(services, async (trx) => ({
    result: await insertRequest(trx, r),
    mails: await queueMails(trx, 'tasting-request', [requestNotice(services.env, brand, r)]),
  }));
  return result;
}
