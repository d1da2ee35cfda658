/**
 * The admin marks an order paid, ready for pickup (issue 30), shipped or picked up (issue 20): the status (and, for shipped,
 * the tracking number and carrier) through order-status.ts, then, after that commit, the buyer
 * is mailed that the order is on its way or was picked up. Once per news: a repeated PUT of the
 * same status and tracking finds the news told already (orders.buyer_told, one conditional
 * UPDATE) and mails nothing; a new tracking number is news. The claim and the mail are written
 * in one transaction (the outbox, issue 21): a mail that could not leave at once is retried by
 * the outbox, and listed under Mail in the admin if it never leaves.
 */
import type { Services } from '../services/index.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails, type Change } from '../mail/commit.ts';
import { trustedName } from '../mail/layout.ts';
import { brandNames } from '../site/brand.ts';
import { statusConfirmation, type OrderStatusRequest } from '../../contract/orders.ts';
import type { z } from 'zod';
import type { orderStatusRequest } from '../../contract/orders.ts';
import { setStatusByAdmin, type SetStatusRefusal } from './order-status.ts';
import { claimBuyerNews, itemsOfOrders, type OrderRow } from './orders.repo.ts';
import { deliveryMail, type PickupPlace } from './mails.ts';
import { readTaxSettings } from './tax-settings.repo.ts';
import { readSettings } from '../settings/settings.repo.ts';
import type { DB } from '../../db/client.ts';
import { shopAddressLine } from '../../contract/tax.ts';

/** Her shop's address on one line and her pickup hours, as the ready-for-pickup mail tells them. */
export async function pickupPlace(db: DB): Promise<PickupPlace> {
  const [{ shopAddress: a }, { pickupHours }] = await Promise.all([readTaxSettings(db), readSettings(db)]);
  return { address: shopAddressLine(a), hours: pickupHours };
}
import { orderMailView } from './order-views.ts';

export type OrderStatusChange = z.output<typeof orderStatusRequest>;
export type { OrderStatusRequest };

/** The answer: the order as changed, the screen's confirmation and whether the buyer was mailed; or the refusal. */
export type ChangeStatusResult = { ok: true; order: OrderRow; message: string; buyerMailed: boolean } | { ok: false; kind: SetStatusRefusal };

/** What the delivery mail tells: the status and how it travels. A change of any of it is news. */
const newsOf = (o: Pick<OrderRow, 'status' | 'carrier' | 'trackingNumber'>) => [o.status, o.carrier ?? '', o.trackingNumber ?? ''].join('|');

export async function changeOrderStatus(
  deps: Pick<Services, 'db' | 'env' | 'mailer'>,
  orderId: string,
  change: OrderStatusChange,
): Promise<ChangeStatusResult> {
  const { db, env } = deps;
  const result = await setStatusByAdmin(db, orderId, change.status, { trackingNumber: change.trackingNumber, carrier: change.carrier });
  if (!result.ok) return result;
  const { order } = result;
  const to = change.status;
  const who = trustedName(order.payerName.split(/\s+/)[0] ?? '') ?? 'The buyer';
  const withTracking = order.trackingNumber !== null;
  if (to === 'paid') return { ok: true, order, message: statusConfirmation(to, who, 'none', false), buyerMailed: false };

  const news = newsOf(order);
  const { result: mailed, sent } = await commitWithMails(deps, async (trx): Promise<Change<'already' | 'no-address' | 'queued'>> => {
    if (!(await claimBuyerNews(trx, orderId, news)).claimed) return { result: 'already', mails: [] };
    if (!order.payerEmail) return { result: 'no-address', mails: [] };
    const brand = (await brandNames(trx)).chocolates;
    // Where and when to collect: her shop's address (where a pickup is taxed too) and her hours.
    const pickup = to === 'ready_for_pickup' ? await pickupPlace(trx) : undefined;
    const mails = deliveryMail(env, brand, orderMailView(order, await itemsOfOrders(trx, [orderId])), to, order, pickup);
    return { result: 'queued', mails: await queueMails(trx, `order-${to.replaceAll('_', '-')}`, mails) };
  });
  if (mailed !== 'queued') return { ok: true, order, message: statusConfirmation(to, who, mailed, withTracking), buyerMailed: false };
  if (sent === 0) return { ok: true, order, message: statusConfirmation(to, who, 'failed', withTracking), buyerMailed: false };
  return { ok: true, order, message: statusConfirmation(to, who, 'sent', withTracking), buyerMailed: true };
}
