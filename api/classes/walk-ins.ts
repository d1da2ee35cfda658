/**
 * A walk-in added at the door (issue 34): a place of the event, checked in, who signs the
 * published waiver on her phone. She is at the door, so the capacity does not stop her, nor the
 * class having started; a second place for one e-mail does.
 */
import type { Services } from '../services/index.ts';
import { classSeats, insertSignup } from './signups.repo.ts';
import { waiverNow } from './enrol.ts';
import { lockRosterEvent } from './roster.repo.ts';

export interface WalkInPerson {
  name: string;
  email: string;
  phone: string | undefined;
  /** The PNG she drew, decoded by the route; null: not signed, the waiver not accepted. */
  signaturePng: Uint8Array | null;
}

export type WalkInRefusal = 'event-not-found' | 'event-cancelled' | 'already-signed-up';

export type WalkInResult = { ok: true; id: string } | { ok: false; kind: WalkInRefusal };

/**
 * Adds `person` to event `eventId` as present, under the event's row lock (the one enrol()
 * takes), so a sign-up of the same e-mail arriving meanwhile is seen; the unique (class, day,
 * e-mail) settles anything else.
 */
export async function addWalkIn(deps: Pick<Services, 'db' | 'clock'>, eventId: string, person: WalkInPerson): Promise<WalkInResult> {
  return deps.db.transaction().execute(async (trx): Promise<WalkInResult> => {
    const event = await lockRosterEvent(trx, eventId);
    if (!event) return { ok: false, kind: 'event-not-found' };
    if (event.cancelledAt) return { ok: false, kind: 'event-cancelled' };
    if ((await classSeats(trx, event, person.email)).mine) return { ok: false, kind: 'already-signed-up' };
    const signed = person.signaturePng !== null;
    const row = await insertSignup(trx, {
      eventId: event.id,
      classTitle: event.title,
      date: event.date,
      name: person.name,
      email: person.email,
      phone: person.phone ?? '',
      // Signing under the waiver's text is accepting it, as on the public sign-up.
      waiverAccepted: signed,
      signaturePng: person.signaturePng,
      ...(signed ? await waiverNow(trx) : { waiverRevision: null, waiverHash: null }),
      walkIn: true,
      attendance: 'present',
      attendanceAt: deps.clock.now(),
    });
    if (!row) return { ok: false, kind: 'already-signed-up' };
    return { ok: true, id: row.id };
  });
}
