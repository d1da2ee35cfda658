import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { check } from '../../contract/check.ts';
import { EXPORTS, FINANCE_COUNT_ROWS, FINANCES_CSV_COLUMNS, financesQuery, type FinanceFigures, type ExportName } from '../../contract/backoffice.ts';
import { INCOME_ROWS } from '../../contract/books.ts';
import { financesOf } from './finances.ts';
import type { Env } from '../env.ts';
import type { Clock } from '../lib/clock.ts';
import type { DB } from '../../db/client.ts';
import { decimal, toCsv } from '../lib/csv.ts';
import { clients, ordersWithItems, signups, subscribers } from './exports.repo.ts';
import { taxYearExport } from '../books/tax-year-export.ts';
import { formatRate } from '../../contract/tax.ts';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

/** Each export: its header row and its rows (csv.ts quotes and neutralises every cell). */
const builders: Record<ExportName, (db: DB) => Promise<string>> = {
  orders: async (db) =>
    toCsv(
      [
        'Order ID',
        'Created at (UTC)',
        'Status',
        'Payer name',
        'Payer email',
        'Items',
        'Items total',
        'Discount',
        'Shipping',
        'Total',
        'Coupon',
        'Local pickup',
        'Ship to name',
        'Ship to address',
        'PayPal order',
        'PayPal capture',
        // Issue 24: the sales tax in the total, its state and rate (none for pickup).
        'Sales tax',
        'Tax state',
        'Tax rate',
        // Issue 29: the place the rate is of, as her excise return asks, and where the rate came from.
        'Tax ZIP',
        'Tax location code',
        'Tax jurisdiction',
        'Tax rate source',
      ],
      (await ordersWithItems(db)).map((o) => [
        o.id,
        iso(o.createdAt),
        o.status,
        o.payerName,
        o.payerEmail,
        // One line per tin: "2 x Dark Tin @ 9.00"; the cell is quoted, its newlines kept.
        o.items.map((i) => `${i.quantity} x ${i.name} @ ${decimal(i.unitPriceCents)}`).join('\n'),
        decimal(o.itemsTotalCents),
        decimal(o.discountCents),
        decimal(o.shippingCents),
        decimal(o.totalCents),
        o.couponCode ?? '',
        o.isLocalPickup ? 'yes' : 'no',
        o.shipToName ?? '',
        o.shipToAddress ?? '',
        o.paypalOrderId,
        o.paypalCaptureId ?? '',
        decimal(o.taxCents),
        o.taxState ?? '',
        o.taxState ? formatRate(o.taxRatePpm) : '',
        o.taxZip ?? '',
        o.taxLocationCode ?? '',
        o.taxJurisdiction ?? '',
        o.taxRateSource ?? '',
      ]),
    ),
  clients: async (db) =>
    toCsv(
      [
        'Client ID',
        'Email',
        'First name',
        'Last name',
        'Preferred name',
        'Pronoun',
        'Phone',
        'City',
        'Zip code',
        'Email verified at (UTC)',
        'Registered at (UTC)',
      ],
      (await clients(db)).map((u) => [
        u.id,
        u.email,
        u.firstName,
        u.lastName,
        u.preferredName,
        u.pronoun,
        u.phone,
        u.city,
        u.zipcode,
        iso(u.emailVerifiedAt),
        iso(u.createdAt),
      ]),
    ),
  subscribers: async (db) =>
    toCsv(
      ['Email', 'Subscribed at (UTC)'],
      (await subscribers(db)).map((s) => [s.email, iso(s.subscribedAt)]),
    ),
  signups: async (db) =>
    toCsv(
      ['Class', 'Date', 'Name', 'Email', 'Phone', 'Waiver accepted', 'Signed up at (UTC)'],
      (await signups(db)).map((s) => [s.classTitle, s.date, s.name, s.email, s.phone, s.waiverAccepted ? 'yes' : 'no', iso(s.createdAt)]),
    ),
};

/** Today in the teacher's zone on the server's clock, for the file name. */
const today = (services: { env: Env; clock: Clock }) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: services.env.SITE_TIMEZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(services.clock.now());

/** The month `back` months before YYYY-MM. */
const monthsBefore = (month: string, back: number) => {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5)) - 1 - back;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
};

/** One row of the finances file: the income figures (INCOME_ROWS, as the Tax year's CSV has them), then the counts; money as decimals (FINANCES_CSV_COLUMNS' order, the page's rows). */
const financeRow = (label: string, f: FinanceFigures) => [
  label,
  ...INCOME_ROWS.map(([key]) => decimal(f[key])),
  ...FINANCE_COUNT_ROWS.map(([key, , kind]) => (kind === 'cents' ? decimal(f[key]) : f[key])),
];

/**
 * GET /api/admin/exports/{orders|clients|subscribers|signups}.csv: a dated attachment.
 * GET /api/admin/exports/finances.csv?from=YYYY-MM&to=YYYY-MM (issue 20): the figures per month
 * as the finances page shows them (the same function computes both), then the range's total;
 * without from and to, the last 12 months.
 */
export const adminExports = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/finances.csv', async (c) => {
    const { db, env } = c.var.services;
    const asked = { from: c.req.query('from'), to: c.req.query('to') };
    const now = today(c.var.services).slice(0, 7);
    const range = check(financesQuery, asked.from === undefined && asked.to === undefined ? { from: monthsBefore(now, 11), to: now } : asked);
    if (!range.ok) return c.json({ message: range.message, issues: range.issues }, 400);
    const { from, to } = range.data;
    const view = await financesOf(db, env.SITE_TIMEZONE, from, to, today(c.var.services));
    const body = toCsv(FINANCES_CSV_COLUMNS, [...view.months.map((m) => financeRow(m.month, m)), financeRow('Total', view.totals)]);
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="finances-${from}-to-${to}.csv"`,
    });
  })
  .get('/:file', async (c) => {
    // GET /api/admin/exports/tax-year-{year}.csv (issue 24): the tax year for an accountant (api/books/tax-year.ts).
    const taxYear = /^tax-year-(\d{4})\.csv$/.exec(c.req.param('file'))?.[1];
    if (taxYear) return taxYearExport(c, Number(taxYear));
    const name = /^([a-z]+)\.csv$/.exec(c.req.param('file'))?.[1] as ExportName | undefined;
    if (!name || !EXPORTS.includes(name))
      return c.json({ message: `Unknown export. Choose one of: ${[...EXPORTS, 'finances'].map((e) => `${e}.csv`).join(', ')}.` }, 404);
    const { db } = c.var.services;
    const body = await builders[name](db);
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}-${today(c.var.services)}.csv"`,
    });
  });
