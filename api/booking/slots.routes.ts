import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { refuse, type Refused } from '../middleware/answers.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { ambiguousTimeNote, id, nonexistentTimeMessage } from '../../contract/common.ts';
import {
  bookingsQuery,
  newSlots,
  PAST_SLOT,
  PLACE_SAVED,
  PLACE_SAVED_CLIENT_TOLD,
  SESSION_DELETED,
  SLOT_PAYMENT_IN_PROGRESS,
  SLOT_DELETED,
  SLOT_NOT_FOUND_ADMIN,
  SLOTS_ADDED,
  NO_SLOTS_ADDED,
  slotPlaceRequest,
  type SlotPlaceView,
  type AdminSlotsView,
  type AdminSlotList,
  CURSOR_NEEDS_LIST,
  type BookedSlotView,
  type CancellationView,
  type ClientSessionView,
  type ClientSlotsView,
  type SlotsAddedView,
  type SlotView,
} from '../../contract/slots.ts';
import { slotTime, type SlotTime } from './slot-times.ts';
import { clearSlots, sessionMinutes } from '../agenda/agenda.ts';
import { overlapsOfNew } from '../agenda/overlaps.ts';
import { tooLateToChange } from '../../contract/booking-changes.ts';
import { changeableAt } from '../lib/time.ts';
import { listCancellations } from './booking.repo.ts';
import { deleteSlotByTeacher, type DeleteSlotResult } from './delete-slot.ts';
import { setPlaceOfSlot, type SlotPlaceResult } from './slot-place.ts';
import { insertSlots, listSlotsForClient, pageSlotsForAdmin } from './slots.repo.ts';
import { announceNextPage, pageOf } from '../lib/pages.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { paymentNotesOfSlots } from '../money/attempts.repo.ts';
import { centsToDollars } from '../../contract/chocolates.ts';
import type { Slot } from '../../db/schema.ts';

/**
 * Bookable slots and booked sessions (SPEC.md sections 2, 4, 7). One table: a booked slot has
 * booked_at. "Past" means starts_at <= now, decided on the server.
 */

type SlotRow = Pick<
  Slot,
  | 'id'
  | 'date'
  | 'time'
  | 'startsAt'
  | 'bookedBy'
  | 'bookedAt'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'sessionType'
  | 'message'
  | 'duration'
  | 'link'
  | 'couponUsed'
  | 'amountCents'
  | 'place'
  | 'online'
>;

const freeView = (s: Pick<Slot, 'id' | 'date' | 'time' | 'startsAt' | 'place' | 'online'>): SlotView => ({
  _id: s.id,
  date: s.date,
  time: s.time,
  startsAt: new Date(s.startsAt).toISOString(),
  place: s.place,
  online: s.online,
});

const bookedView = (s: SlotRow, paymentNote: string | null = null): BookedSlotView => ({
  ...freeView(s),
  userId: s.bookedBy,
  firstName: s.firstName ?? '',
  lastName: s.lastName ?? '',
  email: s.email ?? '',
  sessionType: s.sessionType ?? '',
  message: s.message ?? '',
  duration: s.duration,
  link: s.link ?? '',
  bookedAt: s.bookedAt ? new Date(s.bookedAt).toISOString() : null,
  couponUsed: s.couponUsed,
  amount: s.amountCents === null ? null : centsToDollars(s.amountCents),
  paymentNote,
});

const isPast = (s: SlotRow, now: Date) => new Date(s.startsAt).getTime() <= now.getTime();

/** With ?userId= the client's own view (their session, their id); without, the admin's. */
const adminOrSelf: MiddlewareHandler<AppEnv> = (c, next) => (c.req.query('userId') === undefined ? requireAdmin()(c, next) : requireUser()(c, next));

const slotParams = z.object({ id });

const listKinds: Record<AdminSlotList, 'available' | 'booked' | 'passed'> = { availableSlots: 'available', bookedSlots: 'booked', passedSessions: 'passed' };

/** A slot's time that cannot be: its words name the date and time. */
const slotTimeAnswers: Record<Extract<SlotTime, { ok: false }>['kind'], (c: Context<AppEnv>, date: string, time: string) => Response> = {
  skipped: (c, date, time) => {
    const message = nonexistentTimeMessage(date, time, c.var.services.env.SITE_TIMEZONE);
    return c.json({ message, issues: [{ path: 'slots', message }] }, 400);
  },
  past: (c, date, time) => c.json({ message: PAST_SLOT, issues: [{ path: 'slots', message: `${date} ${time} is not in the future` }] }, 400),
};

const placeRefusals: Record<Extract<SlotPlaceResult, { ok: false }>['kind'], Refused> = { 'not-found': { status: 404, message: SLOT_NOT_FOUND_ADMIN } };

const deleteRefusals: Record<Extract<DeleteSlotResult, { ok: false }>['kind'], Refused> = {
  'not-found': { status: 404, message: 'Slot not found' },
  'payment-processing': { status: 409, message: SLOT_PAYMENT_IN_PROGRESS },
};

export const slots = new Hono<AppEnv>()
  .post('/', requireAdmin(), validateJson(newSlots), async (c) => {
    const { db, env } = c.var.services;
    const now = c.var.services.clock.now();
    const wanted = new Map<string, { date: string; time: string; startsAt: Date; place: string; online: boolean }>();
    const warnings: string[] = [];
    // A slot given no place gets her default place (her settings; '' when she set none).
    const { defaultPlace } = await readSettings(db);
    for (const { date, time, place, online } of c.req.valid('json').slots) {
      const at = slotTime(date, time, env.SITE_TIMEZONE, now);
      if (!at.ok) return slotTimeAnswers[at.kind](c, date, time);
      if (at.ambiguous && !wanted.has(`${date} ${time}`)) warnings.push(ambiguousTimeNote(date, time, env.SITE_TIMEZONE));
      wanted.set(`${date} ${time}`, { date, time, startsAt: at.startsAt, place: place ?? defaultPlace, online: online ?? false });
    }
    // A slot at a date and time that already exists is skipped by the unique constraint.
    const added = await insertSlots(db, [...wanted.values()]);
    // Saved, then what each new slot overlaps in her agenda (issue 35): such a slot is not offered
    // while the overlap lasts, and she is told so now rather than finding it missing later.
    const warning = await overlapsOfNew(
      db,
      env.SITE_TIMEZONE,
      added.map((s) => {
        const start = new Date(s.startsAt);
        return {
          id: s.id,
          start,
          end: new Date(start.getTime() + sessionMinutes(s.duration) * 60_000),
          place: s.online ? 'Online' : s.place,
          online: s.online,
        };
      }),
    );
    return c.json(
      {
        message: added.length > 0 ? SLOTS_ADDED : NO_SLOTS_ADDED,
        added: added.length,
        skipped: c.req.valid('json').slots.length - added.length,
        slots: added.map(freeView),
        ...warning,
        ...(warnings.length ? { warnings } : {}),
      } satisfies SlotsAddedView,
      added.length > 0 ? 201 : 200,
    );
  })

  .get('/', adminOrSelf, validateQuery(bookingsQuery), async (c) => {
    const { db, env } = c.var.services;
    const now = c.var.services.clock.now();
    const { userId, from, to } = c.req.valid('query');

    if (userId !== undefined) {
      assertSelf(c, userId);
      // The days her calendar shows, when it says which (issue 25); her own sessions always come whole.
      const [rows, { cancelNoticeHours }] = await Promise.all([listSlotsForClient(db, userId, now, { from, to }), readSettings(db)]);
      // Issue 35: a free slot her agenda took (a class, a gig, a busy time, a travel buffer) is not offered.
      const clear = await clearSlots(
        db,
        env.SITE_TIMEZONE,
        rows.filter((s) => s.bookedAt === null),
      );
      return c.json({
        availableSlots: clear.map(freeView),
        bookedSlots: rows
          .filter((s) => s.bookedAt !== null)
          .map((s): ClientSessionView => ({
            ...freeView(s),
            sessionType: s.sessionType ?? '',
            duration: s.duration,
            link: s.link ?? '',
            isPast: isPast(s, now),
            canChange: changeableAt(cancelNoticeHours, s.startsAt, now.getTime()),
            // Only on a session of a weekly series (issue 32): a single session's view is as it was.
            ...(s.seriesId ? { seriesId: s.seriesId } : {}),
            ...(s.creditLotId ? { withCredit: true as const } : {}),
          })),
        tooLateMessage: tooLateToChange(cancelNoticeHours, env.TEACHER_EMAIL),
      } satisfies ClientSlotsView);
    }

    // The admin's view (issue 36, decision 0046): a page of each list, or of the one `list` names.
    const { limit, cursor, q, list } = c.req.valid('query');
    if (cursor !== undefined && list === undefined) return c.json({ message: CURSOR_NEEDS_LIST }, 400);
    const page = (name: AdminSlotList) =>
      pageSlotsForAdmin(db, now, listKinds[name], { limit, after: name === list ? cursor : undefined, q, from, to }).then((rows) =>
        pageOf(rows, limit, (s) => [s.cursorAt, s.id]),
      );
    const withNotes = async (rows: SlotRow[]) => {
      const notes = await paymentNotesOfSlots(
        db,
        rows.map((s) => s.id),
      );
      return rows.map((s) => bookedView(s, notes.get(s.id) ?? null));
    };
    if (list !== undefined) {
      const one = await page(list);
      announceNextPage(c, one.next);
      return c.json(list === 'availableSlots' ? one.rows.map(freeView) : await withNotes(one.rows));
    }
    const [available, upcoming, passed, cancelled] = await Promise.all([
      page('availableSlots'),
      page('bookedSlots'),
      page('passedSessions'),
      listCancellations(db, limit),
    ]);
    const next: AdminSlotsView['next'] = {};
    for (const [name, p] of [
      ['availableSlots', available],
      ['bookedSlots', upcoming],
      ['passedSessions', passed],
    ] as const)
      if (p.next) next[name] = p.next;
    return c.json({
      availableSlots: available.rows.map(freeView),
      bookedSlots: await withNotes(upcoming.rows),
      passedSessions: await withNotes(passed.rows),
      cancellations: cancelled.map((x): CancellationView => ({
        _id: x.id,
        startsAt: new Date(x.startsAt).toISOString(),
        sessionType: x.sessionType,
        firstName: x.firstName,
        lastName: x.lastName,
        email: x.email,
        amount: x.amountCents === null ? null : centsToDollars(x.amountCents),
        couponUsed: x.couponUsed,
        paypalOrderId: x.paypalOrderId,
        refundState: x.refundState,
        refundNote: x.refundNote,
        cancelledAt: new Date(x.createdAt).toISOString(),
      })),
      next,
    } satisfies AdminSlotsView);
  })

  // One slot's place (issue 20): an address or an online link. A booked session to come is news
  // to its client: mailed with the updated .ics (same UID, next SEQUENCE).
  .put('/:id/place', requireAdmin(), validateParams(slotParams), validateJson(slotPlaceRequest), async (c) => {
    const result = await setPlaceOfSlot(c.var.services, c.req.valid('param').id, c.req.valid('json').place);
    if (!result.ok) return refuse(c, placeRefusals[result.kind]);
    const { slot, clientMailed } = result;
    return c.json({ message: clientMailed ? PLACE_SAVED_CLIENT_TOLD : PLACE_SAVED, slot: freeView(slot), clientMailed } satisfies SlotPlaceView);
  })

  // The teacher deletes a slot (issue 21): a booked session to come is refunded and its client
  // mailed (api/booking/delete-slot.ts); the admin's page asks her first.
  .delete('/:id', requireAdmin(), validateParams(slotParams), async (c) => {
    const result = await deleteSlotByTeacher(c.var.services, c.req.valid('param').id);
    if (!result.ok) return refuse(c, deleteRefusals[result.kind]);
    return c.json({ message: result.booked ? SESSION_DELETED : SLOT_DELETED, booked: result.booked, refund: result.refund });
  });
