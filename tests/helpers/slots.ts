import { addDays, zonedInstant, zonedNow } from '../../api/lib/time.ts';
import type { TestServer } from './server.ts';

let minute = 0;

/** A free slot `inDays` from today on the teacher's clocks, at a time of day (08:01, 08:02, …) no other slot from here has. */
export async function addFreeSlot(server: TestServer, inDays: number) {
  const n = ++minute;
  const zone = server.env.SITE_TIMEZONE;
  const date = addDays(zonedNow(zone).date, inDays);
  const time = `${String(8 + Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  return server.services.db
    .insertInto('slots')
    .values({ date, time, startsAt: zonedInstant(date, time, zone) })
    .returning(['id', 'date', 'time', 'startsAt'])
    .executeTakeFirstOrThrow();
}

/** What the booking form sends for `client`'s session (PUT /api/bookings/:id/book) as Ana Lima, with no message; `extra`: how it is paid. */
export function bookingForm<T extends object>(client: { id: string; email: string }, sessionType: string, extra: T) {
  return { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType, message: '', ...extra };
}
