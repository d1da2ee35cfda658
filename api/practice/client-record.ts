/**
 * The admin's page of one client (issue 23): contact details, intake answers, sessions past and
 * coming with their notes, payments. The private parts come opened (and logged) by
 * records.ts's readPrivateRecord; this only shapes them with the rows that are not private.
 */
import type { DB } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';
import {
  consentsOf,
  type ClientPaymentView,
  type ClientRecordView,
  type IntakeAnswerView,
  type NoteVersionView,
  type RecordSessionView,
} from '../../contract/practice.ts';
import { SALE_METHOD_WORDS, type SaleMethod } from '../../contract/packages.ts';
import { intakeRequiredFor } from './intake-forms.repo.ts';
import { bookedSessionsOf, ordersOf, packagesBoughtBy, sessionTimeOf } from './practice.repo.ts';

export async function clientRecordView(
  db: DB,
  client: User,
  opened: { answers: IntakeAnswerView[]; notes: Map<string, NoteVersionView[]> },
): Promise<ClientRecordView> {
  const now = Date.now();
  const booked = await bookedSessionsOf(db, client.id);
  const sessions: RecordSessionView[] = booked.map((s) => {
    const notes = opened.notes.get(s.id) ?? [];
    return {
      slotId: s.id,
      date: s.date,
      time: s.time,
      sessionType: s.sessionType,
      past: new Date(s.startsAt).getTime() <= now,
      amountCents: s.amountCents,
      couponUsed: s.couponUsed,
      ...(notes[0] ? { note: notes[0] } : {}),
      history: notes.slice(1),
    };
  });
  // Notes of sessions no longer booked by them (cancelled or moved): kept on the page.
  const shown = new Set(sessions.map((s) => s.slotId));
  for (const [slotId, notes] of opened.notes) {
    if (shown.has(slotId)) continue;
    const slot = await sessionTimeOf(db, slotId);
    sessions.push({
      slotId,
      date: slot?.date ?? '',
      time: slot?.time ?? '',
      sessionType: null,
      past: slot ? new Date(slot.startsAt).getTime() <= now : true,
      amountCents: null,
      couponUsed: false,
      note: notes[0]!,
      history: notes.slice(1),
    });
  }
  sessions.sort((a, b) => `${a.date} ${a.time}`.localeCompare(`${b.date} ${b.time}`));

  const payments: ClientPaymentView[] = [];
  for (const s of booked) {
    if (s.amountCents && s.amountCents > 0)
      payments.push({
        kind: 'session',
        date: new Date(s.bookedAt ?? s.startsAt).toISOString(),
        amountCents: s.amountCents,
        what: s.sessionType ?? 'Session',
        session: { date: s.date, time: s.time },
      });
  }
  for (const lot of await packagesBoughtBy(db, client.id))
    payments.push({
      kind: 'package',
      date: new Date(lot.createdAt).toISOString(),
      amountCents: lot.priceCents,
      what: lot.name,
      ...(lot.method in SALE_METHOD_WORDS ? { method: SALE_METHOD_WORDS[lot.method as SaleMethod] } : {}),
    });
  const orders = await ordersOf(db, client.email);
  for (const o of orders)
    payments.push({
      kind: 'order',
      date: new Date(o.createdAt).toISOString(),
      amountCents: o.totalCents,
      what: `Chocolate order (${o.status.replace('_', ' ')})`,
    });
  payments.sort((a, b) => b.date.localeCompare(a.date));

  return {
    client: {
      id: client.id,
      firstName: client.firstName,
      lastName: client.lastName,
      preferredName: client.preferredName,
      pronoun: client.pronoun,
      email: client.email,
      phone: client.phone,
      city: client.city,
      zipcode: client.zipcode,
      createdAt: new Date(client.createdAt).toISOString(),
    },
    intake: {
      required: Object.values(await intakeRequiredFor(db)).some(Boolean),
      ...(opened.answers[0] ? { latest: opened.answers[0] } : {}),
      earlier: opened.answers.slice(1),
      // Whether she may collect and share, and since when: read from every version's flags (decision 0058).
      consents: consentsOf(opened.answers),
    },
    sessions,
    payments,
  };
}
