import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Kysely } from 'kysely';
import * as initial from './migrations/0001_initial.ts';
import * as reminders from './migrations/0002_reminders.ts';
import * as orderShipTo from './migrations/0003_order_ship_to.ts';
import * as orderPaymentStates from './migrations/0004_order_payment_states.ts';
import * as paymentAttempts from './migrations/0005_payment_attempts.ts';
import * as sessions from './migrations/0006_sessions.ts';
import * as images from './migrations/0007_images.ts';
import * as rateLimits from './migrations/0008_rate_limits.ts';
import * as bookingChanges from './migrations/0009_booking_changes.ts';
import * as classPlaces from './migrations/0010_class_places.ts';
import * as backOffice from './migrations/0011_back_office.ts';
import * as pages from './migrations/0012_pages.ts';
import * as toldAndPlaced from './migrations/0013_told_and_placed.ts';
import * as journal from './migrations/0014_journal.ts';
import * as mailOutbox from './migrations/0015_mail_outbox.ts';
import * as practice from './migrations/0016_practice.ts';
import * as books from './migrations/0017_books.ts';
import * as imageCrops from './migrations/0018_image_crops.ts';
import * as taxRegistrations from './migrations/0019_tax_registrations.ts';
import * as mailPerson from './migrations/0020_mail_person.ts';
import * as readyForPickup from './migrations/0021_ready_for_pickup.ts';
import * as cancelledSessionPaidAt from './migrations/0022_cancelled_session_paid_at.ts';
import * as packagesAndLedger from './migrations/0023_packages_and_ledger.ts';
import * as packagePayments from './migrations/0024_package_payments.ts';
import * as weeklySeries from './migrations/0026_weekly_series.ts';
import * as giftCards from './migrations/0027_gift_cards.ts';
import * as giftCardSpending from './migrations/0028_gift_card_spending.ts';
import * as giftCardLinks from './migrations/0029_gift_card_links.ts';
import * as paidEvents from './migrations/0030_paid_events.ts';
import * as tastings from './migrations/0031_tastings.ts';
import * as busyTimes from './migrations/0032_busy_times.ts';
import * as calendarConnections from './migrations/0033_calendar_connections.ts';
import * as freeMeetings from './migrations/0034_free_meetings.ts';
import * as calendarMirror from './migrations/0035_calendar_mirror.ts';
import * as adminListIndexes from './migrations/0036_admin_list_indexes.ts';
import * as postListOrder from './migrations/0037_post_list_order.ts';
import * as sessionIncomeIndexes from './migrations/0038_session_income_indexes.ts';
import * as outboxSealed from './migrations/0039_outbox_sealed.ts';
import * as erasureReachesTheMoney from './migrations/0040_erasure_reaches_the_money.ts';
import * as holdClient from './migrations/0041_hold_client.ts';
import * as refundsOwed from './migrations/0042_refunds_owed.ts';
import * as labelFacts from './migrations/0043_label_facts.ts';
import * as intakeConsents from './migrations/0044_intake_consents.ts';
import * as foodSalesRecords from './migrations/0045_food_sales_records.ts';

/**
 * Migrations are listed here rather than read from the folder at run time, so they work the
 * same from source, from a bundle and in tests. Add new ones at the end, never edit old ones.
 */
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_reminders': reminders,
  '0003_order_ship_to': orderShipTo,
  '0004_order_payment_states': orderPaymentStates,
  '0005_payment_attempts': paymentAttempts,
  '0006_sessions': sessions,
  '0007_images': images,
  '0008_rate_limits': rateLimits,
  '0009_booking_changes': bookingChanges,
  '0010_class_places': classPlaces,
  '0011_back_office': backOffice,
  '0012_pages': pages,
  '0013_told_and_placed': toldAndPlaced,
  '0014_journal': journal,
  '0015_mail_outbox': mailOutbox,
  '0016_practice': practice,
  '0017_books': books,
  '0018_image_crops': imageCrops,
  '0019_tax_registrations': taxRegistrations,
  '0020_mail_person': mailPerson,
  '0021_ready_for_pickup': readyForPickup,
  '0022_cancelled_session_paid_at': cancelledSessionPaidAt,
  '0023_packages_and_ledger': packagesAndLedger,
  '0024_package_payments': packagePayments,
  '0026_weekly_series': weeklySeries,
  '0027_gift_cards': giftCards,
  '0028_gift_card_spending': giftCardSpending,
  '0029_gift_card_links': giftCardLinks,
  '0030_paid_events': paidEvents,
  '0031_tastings': tastings,
  '0032_busy_times': busyTimes,
  '0033_calendar_connections': calendarConnections,
  '0034_free_meetings': freeMeetings,
  '0035_calendar_mirror': calendarMirror,
  '0036_admin_list_indexes': adminListIndexes,
  '0037_post_list_order': postListOrder,
  '0038_session_income_indexes': sessionIncomeIndexes,
  '0039_outbox_sealed': outboxSealed,
  '0040_erasure_reaches_the_money': erasureReachesTheMoney,
  '0041_hold_client': holdClient,
  '0042_refunds_owed': refundsOwed,
  '0043_label_facts': labelFacts,
  '0044_intake_consents': intakeConsents,
  '0045_food_sales_records': foodSalesRecords,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration's name, in the order they run. */
export const migrationNames = (): string[] => Object.keys(migrations).sort();

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // The migrator's own bookkeeping tables are snake_case already; run it without the camelCase plugin.
  const migrator = new Migrator({ db: db.withoutPlugins(), provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
