import { addDays, zonedInstant, zonedNow } from '../../api/lib/time.ts';
import type { TestServer } from './server.ts';

const usedOnDay = new Map<string, number>();
const SLOTS_A_DAY = 16;

/**
 * A day `inDays` from today on her clocks and a time on it that no other slot of this test file
 * has, an hour and a minute after the one before (06:00, 07:01, 08:02, …): a booked session takes
 * her time, and a free slot it overlaps is not offered (issue 35). Past sixteen a day, the next day.
 */
export function freeSlotTime(zone: string, inDays: number): { date: string; time: string; startsAt: Date } {
  let date = addDays(zonedNow(zone).date, inDays);
  for (;;) {
    const k = usedOnDay.get(date) ?? 0;
    if (k < SLOTS_A_DAY) {
      usedOnDay.set(date, k + 1);
      const minutes = 6 * 60 + k * 61;
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      return { date, time, startsAt: zonedInstant(date, time, zone) };
    }
    date = addDays(date, 1);
  }
}

/** A free slot `inDays` from today on the teacher's clocks, clear of every other slot from here (freeSlotTime). */
export async function addFreeSlot(server: TestServer, inDays: number) {
  const { date, time } = freeSlotTime(server.env.SITE_TIMEZONE, inDays);
  const zone = server.env.SITE_TIMEZONE;
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
