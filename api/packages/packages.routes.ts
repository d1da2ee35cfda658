/**
 * Packages and what clients hold (issue 32, decision 0035): the routes validate, call the
 * use-cases (sell-offline.ts, credit-adjustment.ts, refund-lot.ts, buy-package.ts) and the repos,
 * and map refusals by their tables (docs/handler-recipe.md).
 *
 *   GET    /api/packages                       the active packages
 *   GET    /api/admin/packages                 every package; POST, PUT /{id}, DELETE /{id}
 *   POST   /api/admin/users/{id}/packages      a package sold outside the site, and how it was paid (a receipt if she asks)
 *   POST   /api/admin/users/{id}/credits       her adjustment, with a reason; never below zero
 *   POST   /api/admin/users/{id}/lots/{lotId}/refund   unused sessions taken back; a PayPal sale refunded
 *   GET    /api/user/{id}/balance              the client (their own) or the admin
 *   POST   /api/user/{id}/packages/{packageId}/paypal-order  {amountCents} -> {orderID}: the server makes the order
 *   POST   /api/user/{id}/packages/{packageId}/buy           {paypalOrderId}: capture, then the credits (201)
 */
import { purchaseRefusals } from '../money/settle.ts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { answer, answersOf, refuse, type Answers, type Refused } from '../middleware/answers.ts';
import { validateJson, validateParams } from '../validation.ts';
import { assertSelf, requireAdmin, requireSelfOrAdmin, requireUser } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { regenerateAfter } from '../middleware/regenerate-after.ts';
import { LIMITS } from '../services/limits.ts';
import { id } from '../../contract/common.ts';
import {
  CLIENT_NOT_FOUND,
  CREDIT_BELOW_ZERO,
  LOT_ALREADY_REFUNDED,
  LOT_NOT_FOUND,
  PACKAGE_NOT_OFFERED,
  PACKAGE_PAYMENT_FOR_ANOTHER,
  lotRefunded,
  packageAmountOutOfRange,
  packageOrderRequest,
  packagePurchaseRequest,
  type LotRefundedView,
  type PackageBoughtView,
  PACKAGE_DELETED,
  PACKAGE_NOT_FOUND,
  creditAdjustment,
  offlineSale,
  packageFields,
} from '../../contract/packages.ts';
import { deletePackage, insertPackage, listPackages, packageView, updatePackage } from './packages.repo.ts';
import { balanceOf } from '../money/ledger.ts';
import { clientContact } from '../money/ledger.repo.ts';
import { zonedNow } from '../lib/time.ts';
import { sellOffline, type OfflineSaleRefusal } from './sell-offline.ts';
import { adjustClientCredits, type CreditAdjustmentRefusal } from './credit-adjustment.ts';
import { GIFT_CARD_CHANGED_BOOKING, type BookingOrderView } from '../../contract/booking.ts';
import { NOT_LOGGED_IN } from '../../contract/user.ts';
import { buyPackage, startPackagePayment, type BuyRefusal, type BuyResult } from './buy-package.ts';
import { refundLot, type RefundLotRefusal } from './refund-lot.ts';

const params = z.object({ id });
const lotParams = z.object({ id, lotId: id });
const packageParams = z.object({ id, packageId: id });

/** The status and message of each refusal of a purchase (the booking's words where they are the same). */
export const buyRefusals: Record<BuyRefusal, Refused> = {
  'package-not-found': { status: 404, message: PACKAGE_NOT_OFFERED },
  'unknown-account': { status: 401, message: NOT_LOGGED_IN },
  ...purchaseRefusals(PACKAGE_PAYMENT_FOR_ANOTHER),
  'gift-card-changed': { status: 409, message: GIFT_CARD_CHANGED_BOOKING },
};

/** A purchase's refusal, the amount off the package's scale with the package's words. */
const buyAnswers: Answers<Extract<BuyResult, { ok: false }>> = {
  ...answersOf(buyRefusals),
  'amount-out-of-range': (c, r) => c.json({ message: packageAmountOutOfRange(r.package) }, 400),
};
const answerBuy = (c: Context<AppEnv>, r: Extract<BuyResult, { ok: false }>) => answer(c, buyAnswers, r);

const offlineSaleRefusals: Record<OfflineSaleRefusal, Refused> = {
  'unknown-account': { status: 404, message: CLIENT_NOT_FOUND },
  'package-not-found': { status: 404, message: PACKAGE_NOT_FOUND },
};

const creditAnswers: Answers<CreditAdjustmentRefusal> = {
  'unknown-account': (c) => c.json({ message: CLIENT_NOT_FOUND }, 404),
  'below-zero': (c, r) => c.json({ message: CREDIT_BELOW_ZERO(r.held) }, 409),
};

const refundRefusals: Record<RefundLotRefusal, Refused> = {
  'lot-not-found': { status: 404, message: LOT_NOT_FOUND },
  'already-refunded': { status: 409, message: LOT_ALREADY_REFUNDED },
};

/** Her day now. */
const todayOf = (services: AppEnv['Variables']['services']) => zonedNow(services.env.SITE_TIMEZONE, services.clock.now()).date;

export const packages = new Hono<AppEnv>().get('/', async (c) => c.json((await listPackages(c.var.services.db, 'active')).map(packageView)));

export const adminPackages = new Hono<AppEnv>()
  .use('*', requireAdmin())
  // /yoga offers the active packages: made again after she changes one.
  .use('*', regenerateAfter('packages'))
  .get('/', async (c) => c.json((await listPackages(c.var.services.db, 'all')).map(packageView)))
  .post('/', validateJson(packageFields), async (c) => c.json(packageView(await insertPackage(c.var.services.db, c.req.valid('json'))), 201))
  .put('/:id', validateParams(params), validateJson(packageFields), async (c) => {
    const row = await updatePackage(c.var.services.db, c.req.valid('param').id, c.req.valid('json'));
    return row ? c.json(packageView(row)) : c.json({ message: PACKAGE_NOT_FOUND }, 404);
  })
  .delete('/:id', validateParams(params), async (c) =>
    (await deletePackage(c.var.services.db, c.req.valid('param').id)) ? c.json({ message: PACKAGE_DELETED }) : c.json({ message: PACKAGE_NOT_FOUND }, 404),
  );

// Mounted on /api/admin beside other routers: each route guards itself (a `use('*')` here would
// guard /admin/login too). Adding the client by hand is the accounts' (POST /api/admin/users).
export const adminClients = new Hono<AppEnv>()
  .post('/users/:id/packages', requireAdmin(), validateParams(params), validateJson(offlineSale), async (c) => {
    const userId = c.req.valid('param').id;
    const result = await sellOffline(c.var.services, { userId, sale: c.req.valid('json') });
    if (!result.ok) return refuse(c, offlineSaleRefusals[result.kind]);
    return c.json({ _id: result.lotId, balance: await balanceOf(c.var.services.db, userId, todayOf(c.var.services)) }, 201);
  })
  .post('/users/:id/credits', requireAdmin(), validateParams(params), validateJson(creditAdjustment), async (c) => {
    const userId = c.req.valid('param').id;
    const body = c.req.valid('json');
    const today = todayOf(c.var.services);
    const result = await adjustClientCredits(c.var.services, { userId, sessions: body.sessions, reason: body.reason, today });
    if (!result.ok) return answer(c, creditAnswers, result);
    return c.json(await balanceOf(c.var.services.db, userId, today), 201);
  })
  .post('/users/:id/lots/:lotId/refund', requireAdmin(), validateParams(lotParams), async (c) => {
    const { db } = c.var.services;
    const { id: userId, lotId } = c.req.valid('param');
    const result = await refundLot(c.var.services, { userId, lotId });
    if (!result.ok) return refuse(c, refundRefusals[result.kind]);
    return c.json({
      message: lotRefunded(result.sessionsTakenBack, result.paypalRefund),
      sessionsTakenBack: result.sessionsTakenBack,
      paypalRefund: result.paypalRefund,
      balance: await balanceOf(db, userId, todayOf(c.var.services)),
    } satisfies LotRefundedView);
  });

export const userBalance = new Hono<AppEnv>()
  .get('/:id/balance', requireSelfOrAdmin(), validateParams(params), async (c) => {
    const { db } = c.var.services;
    const userId = c.req.valid('param').id;
    if (!(await clientContact(db, userId))) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    return c.json(await balanceOf(db, userId, todayOf(c.var.services)));
  })
  // The client buys a package (decision 0038), as she pays for a session: the server makes the
  // order, for an amount on the package's scale, tied to this package and to her.
  .post(
    '/:id/packages/:packageId/paypal-order',
    requireUser(),
    rateLimit({ ...LIMITS.bookingOrder, per: 'account' }),
    validateParams(packageParams),
    validateJson(packageOrderRequest),
    async (c) => {
      const { id: userId, packageId } = c.req.valid('param');
      assertSelf(c, userId);
      const result = await startPackagePayment(c.var.services, { userId, packageId, amountCents: c.req.valid('json').amountCents });
      if (!result.ok) return answerBuy(c, result);
      return c.json({ orderID: result.orderId } satisfies BookingOrderView);
    },
  )
  .post(
    '/:id/packages/:packageId/buy',
    requireUser(),
    rateLimit({ ...LIMITS.booking, per: 'account' }),
    validateParams(packageParams),
    validateJson(packagePurchaseRequest),
    async (c) => {
      const { id: userId, packageId } = c.req.valid('param');
      assertSelf(c, userId);
      const result = await buyPackage(c.var.services, { userId, packageId, paypalOrderId: c.req.valid('json').paypalOrderId });
      if (!result.ok) return answerBuy(c, result);
      const balance = await balanceOf(c.var.services.db, userId, todayOf(c.var.services));
      return c.json({ lotId: result.lotId, payerFirstName: result.payerFirstName, balance } satisfies PackageBoughtView, 201);
    },
  );
