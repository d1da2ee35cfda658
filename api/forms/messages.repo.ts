/** What visitors send through the home page's meeting request and the contact form. */
import type { Insertable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { BookingRequestsTable, ContactMessagesTable } from '../../db/schema.ts';

export async function insertBookingRequest(db: DB, row: Insertable<BookingRequestsTable>) {
  return db.insertInto('bookingRequests').values(row).returning(['id', 'createdAt']).executeTakeFirstOrThrow();
}

export async function insertContactMessage(db: DB, row: Insertable<ContactMessagesTable>) {
  return db.insertInto('contactMessages').values(row).returning(['id', 'createdAt']).executeTakeFirstOrThrow();
}
