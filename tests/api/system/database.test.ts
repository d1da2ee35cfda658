import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { seed, seedAdmin } from '../../../api/seed.ts';
import { verifyPassword } from '../../../api/accounts/password.ts';
import { zonedNow } from '../../../api/lib/time.ts';
import { rowCount, freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { startTestServer } from '../../helpers/server.ts';

let fresh: FreshDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  fresh = await freshDatabase();
  handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: fresh.env.PGLITE_DIR });
});
afterAll(async () => {
  await handle?.close();
  await fresh?.drop();
});

const tables = [
  'admin_sessions',
  'admins',
  'announcements',
  'booking_cancellations',
  'booking_orders',
  'booking_requests',
  'busy_times',
  'calendar_connections',
  'calendar_mirror',
  'class_signups',
  'class_waitlist',
  'contact_messages',
  'coupons',
  'credit_lots',
  'event_payments',
  'events',
  'food_sales',
  'free_meetings',
  'gallery_photos',
  'gift_cards',
  'gigs',
  'image_variants',
  'images',
  'intake_answers',
  'intake_forms',
  'ledger_entries',
  'locations',
  'login_tokens',
  'mail_outbox',
  'mail_suppressions',
  'mails',
  'mileage_rates',
  'newsletter_outbox',
  'newsletters',
  'order_items',
  'orders',
  'packages',
  'page_redirects',
  'page_revisions',
  'pages',
  'payment_attempts',
  'private_access_log',
  'private_record_keys',
  'products',
  'rate_limits',
  'refunds_owed',
  'rendered_pages',
  'session_notes',
  'settings',
  'slots',
  'subscribers',
  'tasting_payments',
  'tasting_quotes',
  'tasting_requests',
  'tax_rate_lookups',
  'tax_rates',
  'tax_zip_rates',
  'trips',
  'user_sessions',
  'users',
];

describe(`migrations on ${testDbKind()}`, () => {
  it('create every table once, and a second run applies nothing', async () => {
    expect(await migrateToLatest(handle.db)).toEqual([
      '0001_initial',
      '0002_reminders',
      '0003_order_ship_to',
      '0004_order_payment_states',
      '0005_payment_attempts',
      '0006_sessions',
      '0007_images',
      '0008_rate_limits',
      '0009_booking_changes',
      '0010_class_places',
      '0011_back_office',
      '0012_pages',
      '0013_told_and_placed',
      '0014_journal',
      '0015_mail_outbox',
      '0016_practice',
      '0017_books',
      '0018_image_crops',
      '0019_tax_registrations',
      '0020_mail_person',
      '0021_ready_for_pickup',
      '0022_cancelled_session_paid_at',
      '0023_packages_and_ledger',
      '0024_package_payments',
      '0026_weekly_series',
      '0027_gift_cards',
      '0028_gift_card_spending',
      '0029_gift_card_links',
      '0030_paid_events',
      '0031_tastings',
      '0032_busy_times',
      '0033_calendar_connections',
      '0034_free_meetings',
      '0035_calendar_mirror',
      '0036_admin_list_indexes',
      '0037_post_list_order',
      '0038_session_income_indexes',
      '0039_outbox_sealed',
      '0040_erasure_reaches_the_money',
      '0041_hold_client',
      '0042_refunds_owed',
      '0043_label_facts',
      '0044_intake_consents',
      '0045_food_sales_records',
    ]);
    expect(await migrateToLatest(handle.db)).toEqual([]);
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(handle.db.withoutPlugins());
    expect(rows.map((r) => r.table_name)).toEqual(tables);
  });

  it('store money in integer cents and times with time zone', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' and (column_name like '%cents' or right(column_name, 3) = '_at')`.execute(handle.db.withoutPlugins());
    for (const r of rows) {
      if (r.column_name.endsWith('cents')) expect(r.data_type, `${r.table_name}.${r.column_name}`).toBe('integer');
      else expect(r.data_type, `${r.table_name}.${r.column_name}`).toBe('timestamp with time zone');
    }
    expect(rows.length).toBeGreaterThan(20);
  });

  const violates = async (fn: () => Promise<unknown>, code: string) => {
    await expect(fn()).rejects.toMatchObject({ code });
  };

  it('allow one subscriber per e-mail and only lower-cased e-mails', async () => {
    const { db } = handle;
    await db.insertInto('subscribers').values({ email: 'ana@example.com' }).execute();
    await violates(() => db.insertInto('subscribers').values({ email: 'ana@example.com' }).execute(), '23505');
    await violates(() => db.insertInto('subscribers').values({ email: 'Ana@Example.com' }).execute(), '23514');
  });

  it('allow one sign-up per person and class', async () => {
    const { db } = handle;
    const row = { classTitle: 'Gentle Flow', date: '2030-01-08', name: 'Ana', email: 'ana@example.com' };
    await db.insertInto('classSignups').values(row).execute();
    await violates(() => db.insertInto('classSignups').values(row).execute(), '23505');
    await db
      .insertInto('classSignups')
      .values({ ...row, date: '2030-01-15' })
      .execute();
  });

  it('never let inventory go below zero, nor two slots share a date and time', async () => {
    const { db } = handle;
    const p = await db.insertInto('products').values({ name: 'Tin', priceCents: 1800, inventory: 1 }).returning('id').executeTakeFirstOrThrow();
    await violates(
      () =>
        db
          .updateTable('products')
          .set({ inventory: sql`inventory - 2` })
          .where('id', '=', p.id)
          .execute(),
      '23514',
    );
    const slot = { date: '2030-01-08', time: '10:00', startsAt: new Date('2030-01-08T18:00:00Z') };
    await db.insertInto('slots').values(slot).execute();
    await violates(() => db.insertInto('slots').values(slot).execute(), '23505');
    await violates(
      () =>
        db
          .insertInto('slots')
          .values({ ...slot, time: '25:00' })
          .execute(),
      '23514',
    );
  });

  it('keep referential integrity: sessions go with their user, order items need their order', async () => {
    const { db } = handle;
    const user = await db.insertInto('users').values({ email: 'bo@example.com' }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('userSessions')
      .values({ id: 'session1', secretHash: '0'.repeat(64), userId: user.id, expiresAt: new Date(Date.now() + 1000) })
      .execute();
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await db.selectFrom('userSessions').selectAll().execute()).toEqual([]);
    await violates(() => db.insertInto('orderItems').values({ orderId: 'missing', name: 'x', unitPriceCents: 1, quantity: 1 }).execute(), '23503');
  });

  it('allow an order the statuses of its PayPal payment, and no others', async () => {
    const { db } = handle;
    const order = await db
      .insertInto('orders')
      .values({ paypalOrderId: 'STATUS-CHECK', itemsTotalCents: 1800, totalCents: 1800 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const status of ['payment_pending', 'payment_failed', 'paid', 'shipped', 'picked_up', 'refunded'] as const) {
      await db.updateTable('orders').set({ status }).where('id', '=', order.id).execute();
    }
    await violates(
      () =>
        db
          .updateTable('orders')
          .set({ status: 'lost' as 'paid' })
          .where('id', '=', order.id)
          .execute(),
      '23514',
    );
  });
});

describe(`seed on ${testDbKind()}`, () => {
  it('makes the site look alive on a first start, with upcoming classes and slots', async () => {
    const other = await freshDatabase();
    const h = await openDatabase({ url: other.env.DATABASE_URL, pgliteDir: other.env.PGLITE_DIR });
    try {
      await migrateToLatest(h.db);
      await seed(h.db, { adminEmail: 'Teacher@Example.com', adminPassword: 'a-long-password', timezone: 'America/Los_Angeles', content: true });
      expect(await rowCount(h.db, 'products')).toBeGreaterThanOrEqual(6);
      expect(await rowCount(h.db, 'events')).toBeGreaterThanOrEqual(12);
      expect(await rowCount(h.db, 'slots')).toBeGreaterThanOrEqual(30);
      const today = zonedNow('America/Los_Angeles').date;
      const past = await h.db.selectFrom('slots').select('id').where('date', '<=', today).execute();
      expect(past).toEqual([]);
      const products = await h.db.selectFrom('products').select(['name', 'priceCents', 'description']).execute();
      for (const p of products) {
        expect(p.name.length).toBeGreaterThan(3);
        expect(p.description.length).toBeGreaterThan(20);
        expect(Number.isInteger(p.priceCents) && p.priceCents > 0).toBe(true);
      }
      const admin = await h.db.selectFrom('admins').selectAll().executeTakeFirstOrThrow();
      expect(admin.email).toBe('teacher@example.com');
      expect(await verifyPassword('a-long-password', admin.passwordHash)).toBe(true);
      // A changed ADMIN_PASSWORD takes effect on the next start; an unchanged one is kept.
      expect(await seedAdmin(h.db, 'teacher@example.com', 'a-long-password')).toBe('kept');
      expect(await seedAdmin(h.db, 'teacher@example.com', 'another-password')).toBe('updated');
      expect(await rowCount(h.db, 'admins')).toBe(1);
    } finally {
      await h.close();
      await other.drop();
    }
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with a plain JSON message, no SQL or stack', async () => {
    const server = await startTestServer();
    try {
      await server.services.database.close();
      const res = await server.api('/api/health');
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: 'error', database: { status: 'down', kind: testDbKind() } });
      expect(text).not.toMatch(/select|at .*\.ts|Error:/i);
    } finally {
      await server.close().catch(() => {});
    }
  });
});
