/**
 * One slot's place (issue 20): an address or an online link. A booked session to come is news to
 * its client: the new place and her mail with the updated .ics (same UID, next SEQUENCE) are
 * written in one transaction and the mail sent after the commit (commitWithMails, decision 0024).
 */
import type { Services } from '../services/index.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { bookingCalendar, bookingUid, placeChangedMail } from './mails.ts';
import { findSlotWithBooking, setSlotPlace } from './slots.repo.ts';

type PlacedSlot = NonNullable<Awaited<ReturnType<typeof setSlotPlace>>>;

export type SlotPlaceResult = { ok: true; slot: PlacedSlot; clientMailed: boolean } | { ok: false; kind: 'not-found' };

/** Sets the slot's place; mails its client when the session to come moved. */
export async function setPlaceOfSlot(services: Pick<Services, 'db' | 'env' | 'mailer' | 'clock'>, slotId: string, place: string): Promise<SlotPlaceResult> {
  const { db, env } = services;
  const before = await findSlotWithBooking(db, slotId);
  if (!before) return { ok: false, kind: 'not-found' };
  const upcoming = before.bookedAt !== null && !!before.email && new Date(before.startsAt).getTime() > services.clock.now().getTime();
  const changed = place !== before.place;
  const saved = await commitWithMails(services, async (trx) => {
    const slot = await setSlotPlace(trx, slotId, place, upcoming && changed ? bookingUid(env, before.id, new Date(before.bookedAt!)) : null);
    if (!slot || !upcoming || !changed || slot.bookedAt === null || !slot.email) return { result: slot, mails: [] };
    const brand = (await brandNames(trx)).yoga;
    const mails = await queueMails(trx, 'session-place-changed', [
      placeChangedMail(env, brand, {
        startsAt: new Date(slot.startsAt),
        duration: slot.duration,
        sessionType: slot.sessionType ?? '',
        firstName: slot.firstName ?? '',
        lastName: slot.lastName ?? '',
        email: slot.email,
        userId: slot.bookedBy ?? '',
        amountCents: slot.amountCents,
        couponUsed: slot.couponUsed,
        paypalOrderId: null,
        withCredit: slot.creditLotId !== null,
        place: slot.place,
        calendar: bookingCalendar(env, slot),
      }),
    ]);
    return { result: slot, mails };
  });
  if (!saved.result) return { ok: false, kind: 'not-found' };
  return { ok: true, slot: saved.result, clientMailed: saved.mails.length > 0 && saved.sent > 0 };
}
