/**
 * The back office's reports (issue 16, decision 0019): the finances match a seeded year of
 * orders and bookings to the cent, month by month in the teacher's zone, as income is defined
 * once (issue 30, decision 0031: tests/api/books/books-income.test.ts holds Finances and the Tax year
 * to each other); the CSV exports parse
 * back with the right columns, a BOM, and visitor text that starts like a formula neutralised;
 * the announcement shows only inside its window; and every new admin route refuses anyone who
 * is not the admin.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import type { AnnouncementView, FinancesView } from '../../../contract/backoffice.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ env: { NEWSLETTER_INTERVAL_MS: '3600000' } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const ZONE = 'America/Los_Angeles';
const monthIn = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);

/** A small deterministic generator, so a failure can be replayed. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe(`finances on ${testDbKind()}`, () => {
  it('match a seeded year of orders and bookings to the cent, month by month in the teacher’s zone', async () => {
    const { db } = server.services;
    const rand = prng(16);
    const statuses = ['paid', 'ready_for_pickup', 'shipped', 'picked_up', 'refunded', 'payment_pending', 'payment_failed'] as const;
    const tins = [
      { name: 'Dark Tin', price: 1850 },
      { name: 'Milk Tin', price: 1600 },
      { name: 'Chili Tin', price: 2100 },
    ];
    const expected = new Map<
      string,
      { paid: number; paidCents: number; ship: number; ref: number; refCents: number; book: number; bookCents: number; coupon: number }
    >();
    const get = (m: string) => {
      if (!expected.has(m)) expected.set(m, { paid: 0, paidCents: 0, ship: 0, ref: 0, refCents: 0, book: 0, bookCents: 0, coupon: 0 });
      return expected.get(m)!;
    };
    const sold = new Map<string, { q: number; c: number }>();
    const start = Date.parse('2025-01-01T08:00:00Z');
    const times: Date[] = [];
    for (let i = 0; i < 240; i++) times.push(new Date(start + Math.floor(rand() * 365 * 86_400_000)));
    // Edges: 11:30 pm on March 31 in California is still March there (April in UTC).
    times.push(new Date('2025-04-01T06:30:00Z'), new Date('2025-12-01T07:59:00Z'), new Date('2025-12-01T08:01:00Z'));

    for (const [i, at] of times.entries()) {
      const status = statuses[Math.floor(rand() * statuses.length)]!;
      const lines = tins.filter(() => rand() < 0.6).map((t) => ({ ...t, quantity: 1 + Math.floor(rand() * 3) }));
      if (lines.length === 0) lines.push({ ...tins[0]!, quantity: 1 });
      const items = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const discount = rand() < 0.2 ? Math.floor(items / 10) : 0;
      const pickup = rand() < 0.3;
      const shipping = pickup ? 0 : 500 + Math.floor(rand() * 700);
      const total = items - discount + shipping;
      const order = await db
        .insertInto('orders')
        .values({
          paypalOrderId: `SEED-${i}`,
          itemsTotalCents: items,
          discountCents: discount,
          shippingCents: shipping,
          totalCents: total,
          isLocalPickup: pickup,
          status,
          createdAt: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('orderItems')
        .values(lines.map((l) => ({ orderId: order.id, name: l.name, unitPriceCents: l.price, quantity: l.quantity })))
        .execute();
      const e = get(monthIn(at));
      if (status === 'paid' || status === 'ready_for_pickup' || status === 'shipped' || status === 'picked_up') {
        e.paid++;
        e.paidCents += total;
        e.ship += shipping;
        for (const l of lines) {
          const s = sold.get(l.name) ?? { q: 0, c: 0 };
          sold.set(l.name, { q: s.q + l.quantity, c: s.c + l.quantity * l.price });
        }
      } else if (status === 'refunded') {
        e.ref++;
        e.refCents += total;
      }
    }

    for (let i = 0; i < 150; i++) {
      const bookedAt = new Date(start + Math.floor(rand() * 365 * 86_400_000));
      const coupon = rand() < 0.25;
      const amount = coupon ? 0 : 6000 + Math.floor(rand() * 4000);
      const startsAt = new Date(bookedAt.getTime() + 3 * 86_400_000);
      await db
        .insertInto('slots')
        .values({
          date: `2027-01-${String(1 + (i % 28)).padStart(2, '0')}`,
          time: `${String(6 + Math.floor(i / 28)).padStart(2, '0')}:00`,
          startsAt,
          bookedAt,
          bookedBy: null,
          email: 'b@example.com',
          amountCents: amount,
          couponUsed: coupon,
        })
        .execute();
      const e = get(monthIn(bookedAt));
      if (coupon) e.coupon++;
      else {
        e.book++;
        e.bookCents += amount;
      }
    }
    // A free slot is no money.
    await db
      .insertInto('slots')
      .values({ date: '2027-02-01', time: '10:00', startsAt: new Date('2025-06-01T17:00:00Z'), amountCents: 9999 })
      .execute();

    const res = await server.api('/api/admin/finances?from=2025-01&to=2025-12', { headers: { cookie } });
    expect(res.status).toBe(200);
    const view: FinancesView = await res.json();
    expect(view.timeZone).toBe(ZONE);
    expect(view.months.map((m) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`));
    const sum = { paid: 0, paidCents: 0, ship: 0, ref: 0, refCents: 0, book: 0, bookCents: 0, coupon: 0 };
    for (const m of view.months) {
      const e = expected.get(m.month) ?? { paid: 0, paidCents: 0, ship: 0, ref: 0, refCents: 0, book: 0, bookCents: 0, coupon: 0 };
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += e[k];
      // No sales tax on these orders: shop sales net of tax are their totals; no gig, no cancelled session.
      expect(m, m.month).toMatchObject({
        ordersPaidCount: e.paid,
        shopNetCents: e.paidCents,
        salesTaxCents: 0,
        shippingCents: e.ship,
        orderRefundsCount: e.ref,
        orderRefundsCents: e.refCents,
        sessionRefundsCents: 0,
        classRefundsCents: 0,
        refundsCents: e.refCents,
        sessionsPaidCount: e.book,
        sessionsCents: e.bookCents,
        couponBookingsCount: e.coupon,
        gigsCents: 0,
        averageOrderCents: e.paid ? Math.floor(e.paidCents / e.paid) : 0,
        incomeCents: e.paidCents + e.bookCents,
      });
    }
    // Every seeded row falls in 2025 in the teacher’s zone: the totals are the sums of the months.
    expect(view.totals).toMatchObject({
      shopNetCents: sum.paidCents,
      refundsCents: sum.refCents,
      sessionsCents: sum.bookCents,
      couponBookingsCount: sum.coupon,
      incomeCents: sum.paidCents + sum.bookCents,
    });
    const march = view.months.find((m) => m.month === '2025-03')!;
    expect(march.ordersPaidCount + march.orderRefundsCount).toBeGreaterThan(0);

    const best = [...sold].sort((a, b) => b[1].q - a[1].q || a[0].localeCompare(b[0]));
    expect(view.bestSellers).toEqual(best.map(([name, s]) => ({ name, quantity: s.q, cents: s.c })));

    // One month alone is that month's figures.
    const june: FinancesView = await (await server.api('/api/admin/finances?from=2025-06&to=2025-06', { headers: { cookie } })).json();
    expect(june.totals.incomeCents).toBe(itemAt(view.months, 5).incomeCents);
  });

  // Without a range it answers the current year (issue 24, tests/api/books/books-tax-year.test.ts); half a range is refused.
  it('refuses a malformed, half or reversed range with 400', async () => {
    for (const q of ['?from=2025-01', '?from=2025-1&to=2025-12', '?from=2025-05&to=2025-04', '?from=2025-13&to=2025-12', '?from=1990-01&to=2025-01']) {
      const res = await server.api(`/api/admin/finances${q}`, { headers: { cookie } });
      expect(res.status, q).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
  });
});

describe(`CSV exports on ${testDbKind()}`, () => {
  it('answer dated attachments with a BOM, CRLF rows, the right columns, and formulas neutralised', async () => {
    const { db } = server.services;
    await db
      .insertInto('subscribers')
      .values([{ email: '=cmd@example.com' }, { email: 'plain@example.com' }])
      .execute();
    await db
      .insertInto('classSignups')
      .values({
        classTitle: 'Gentle Flow',
        date: '2030-01-08',
        name: '=HYPERLINK("http://evil.example","click")',
        email: 'ana@example.com',
        phone: '+1 555 0100',
        waiverAccepted: true,
      })
      .execute();
    await createUser(server, { email: 'client@example.com', firstName: '@Ana', lastName: 'Lima, "Jr"' });
    const order = await db
      .insertInto('orders')
      .values({
        paypalOrderId: 'EXPORT-1',
        payerName: '-Mia',
        payerEmail: 'mia@example.com',
        itemsTotalCents: 3700,
        shippingCents: 650,
        totalCents: 4350,
        status: 'paid',
        shipToName: 'Mia Rossi',
        shipToAddress: '1 Main St\nPortland, OR 97201',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('orderItems')
      .values([
        { orderId: order.id, name: 'Dark Tin', unitPriceCents: 1850, quantity: 1 },
        { orderId: order.id, name: 'Milk, "Sweet"', unitPriceCents: 1850, quantity: 1 },
      ])
      .execute();

    const fetchCsv = async (name: string) => {
      const res = await server.api(`/api/admin/exports/${name}.csv`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
      expect(text.endsWith('\r\n'), 'the file ends with CRLF').toBe(true);
      return parseCsv(text);
    };

    const subs = await fetchCsv('subscribers');
    expect(subs[0]).toEqual(['Email', 'Subscribed at (UTC)']);
    expect(
      subs
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(["'=cmd@example.com", 'plain@example.com']);

    const signups = await fetchCsv('signups');
    expect(signups[0]).toEqual(['Class', 'Date', 'Name', 'Email', 'Phone', 'Waiver accepted', 'Signed up at (UTC)']);
    expect(itemAt(signups, 1).slice(0, 6)).toEqual([
      'Gentle Flow',
      '2030-01-08',
      `'=HYPERLINK("http://evil.example","click")`,
      'ana@example.com',
      "'+1 555 0100",
      'yes',
    ]);

    const clients = await fetchCsv('clients');
    expect(itemAt(clients, 0).slice(0, 4)).toEqual(['Client ID', 'Email', 'First name', 'Last name']);
    const client = clients.find((r) => r[1] === 'client@example.com')!;
    expect(client.slice(2, 4)).toEqual(["'@Ana", 'Lima, "Jr"']);

    const orders = await fetchCsv('orders');
    expect(orders[0]).toEqual([
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
      'Sales tax',
      'Tax state',
      'Tax rate',
      'Tax ZIP',
      'Tax location code',
      'Tax jurisdiction',
      'Tax rate source',
    ]);
    const row = orders.find((r) => r[0] === order.id)!;
    expect(row.length).toBe(23);
    expect(row.slice(2, 14)).toEqual([
      'paid',
      "'-Mia",
      'mia@example.com',
      '1 x Dark Tin @ 18.50\n1 x Milk, "Sweet" @ 18.50',
      '37.00',
      '0.00',
      '6.50',
      '43.50',
      '',
      'no',
      'Mia Rossi',
      '1 Main St\nPortland, OR 97201',
    ]);
  });

  it('answers 404 for an unknown export', async () => {
    const res = await server.api('/api/admin/exports/passwords.csv', { headers: { cookie } });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toMatch(/Unknown export/);
  });
});

describe(`the announcement on ${testDbKind()}`, () => {
  const put = (json: unknown) => server.api('/api/admin/announcement', { method: 'PUT', headers: { cookie }, json });
  const live = async (): Promise<AnnouncementView | null> => {
    const res = await server.api('/api/announcement');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    return (await res.json()).announcement;
  };

  it('is shown only from its start to its end, and gone when removed', async () => {
    expect(await live()).toBeNull();
    const hour = 3_600_000;
    const now = Date.now();

    expect((await put({ message: 'No classes over the holidays', link: 'https://example.com/calendar' })).status).toBe(200);
    const shown = await live();
    expect(shown).toMatchObject({ message: 'No classes over the holidays', link: 'https://example.com/calendar', startsAt: null, endsAt: null });

    // Not yet: the start is in the future.
    await put({ message: 'No classes over the holidays', startsAt: new Date(now + hour).toISOString() });
    expect(await live()).toBeNull();
    // Over: the end is in the past.
    await put({ message: 'No classes over the holidays', startsAt: new Date(now - 2 * hour).toISOString(), endsAt: new Date(now - hour).toISOString() });
    expect(await live()).toBeNull();
    // Live now, and it ends on time.
    await put({ message: 'Flash sale', startsAt: new Date(now - hour).toISOString(), endsAt: new Date(Date.now() + 1500).toISOString() });
    const sale = await live();
    expect(sale?.message).toBe('Flash sale');
    expect(sale?.id).not.toBe(shown?.id);
    await new Promise((r) => setTimeout(r, 1700));
    expect(await live()).toBeNull();

    await put({ message: 'Back soon' });
    expect((await live())?.message).toBe('Back soon');
    const cleared = await put({ message: '' });
    expect(await cleared.json()).toMatchObject({ announcement: null });
    expect(await live()).toBeNull();
  });

  it('refuses a long message, a javascript: link or an end before the start, and changes nothing', async () => {
    await put({ message: 'Kept' });
    for (const body of [
      { message: 'x'.repeat(201) },
      { message: 'Hi', link: 'javascript:alert(1)' },
      { message: 'Hi', link: 'data:text/html,hi' },
      { message: 'Hi', startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
      { message: 'Hi', startsAt: 'tomorrow' },
      { message: 'two\nlines' },
    ]) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
    expect((await live())?.message).toBe('Kept');
  });
});

describe(`every back-office admin route on ${testDbKind()}`, () => {
  it('is refused without an admin session, even with a client’s session', async () => {
    const client = await createUser(server);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/newsletters'],
      ['POST', '/api/admin/newsletters', { subject: 'x', body: 'y' }],
      ['POST', '/api/admin/newsletters/preview', { subject: 'x', body: 'y' }],
      ['GET', '/api/admin/newsletters/abc'],
      ['PUT', '/api/admin/newsletters/abc', { subject: 'x', body: 'y' }],
      ['POST', '/api/admin/newsletters/abc/test'],
      ['POST', '/api/admin/newsletters/abc/send'],
      ['GET', '/api/admin/finances?from=2025-01&to=2025-12'],
      ['GET', '/api/admin/exports/orders.csv'],
      ['GET', '/api/admin/exports/clients.csv'],
      ['GET', '/api/admin/exports/subscribers.csv'],
      ['GET', '/api/admin/exports/signups.csv'],
      ['GET', '/api/admin/announcement'],
      ['PUT', '/api/admin/announcement', { message: 'Hijacked' }],
    ];
    for (const [method, path, json] of routes) {
      for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
        const res = await server.api(path, { method, headers, ...(json !== undefined ? { json } : {}) });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    }
    expect(await server.services.db.selectFrom('newsletters').select('id').where('subject', '=', 'x').execute()).toEqual([]);
    expect((await (await server.api('/api/announcement')).json()).announcement?.message).not.toBe('Hijacked');
  });
});
