/**
 * Everything the site holds about one client (issue 23; GDPR articles 15 and 20): the profile,
 * bookings (and cancelled ones), payments, class sign-ups and waitlist places, newsletter
 * subscription, messages and meeting requests sent with their address, and their intake
 * answers (opened through the practice's logged read). Only rows tied to their account or
 * their address: nothing about anyone else. Her session notes come only in the admin's export,
 * for a client who asks her by mail (decision 0025), not in the self-service download.
 */
import { heldLots, ledgerOf } from '../money/ledger.repo.ts';
import type { DB } from '../../db/client.ts';
import { clientRows } from './client-data.repo.ts';
import type { Keyring } from '../lib/keys.ts';
import { readForExport, type Reader } from '../practice/records.ts';
import { escapeHtml } from '../mail/layout.ts';
import type { IntakeAnswerView } from '../../contract/practice.ts';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const dollars = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : (cents / 100).toFixed(2));

export async function clientData(db: DB, ring: Keyring, userId: string, reader: Reader) {
  const rows = await clientRows(db, userId);
  if (!rows) return undefined;
  const { user: u, slots, cancelled, orders, items, signups, waitlist, subscriber, messages, requests, giftCards, giftCardRows } = rows;
  const opened = await readForExport(db, ring, userId, reader);
  // What they hold with her (issue 32): every credit and every ledger row.
  const held = await heldLots(db, userId);
  const ledger = await ledgerOf(db, userId);
  const intake: IntakeAnswerView[] = opened.answers;

  return {
    exportedAt: new Date().toISOString(),
    profile: {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      preferredName: u.preferredName,
      pronoun: u.pronoun,
      phone: u.phone,
      city: u.city,
      zipcode: u.zipcode,
      image: u.image,
      signInWithGoogle: u.googleId !== null,
      emailVerifiedAt: iso(u.emailVerifiedAt),
      createdAt: iso(u.createdAt),
    },
    bookings: slots.map((s) => ({
      id: s.id,
      date: s.date,
      time: s.time,
      sessionType: s.sessionType,
      duration: s.duration,
      message: s.message,
      place: s.place,
      link: s.link,
      bookedAt: iso(s.bookedAt),
      amount: dollars(s.amountCents),
      couponUsed: s.couponUsed,
    })),
    cancelledBookings: cancelled.map((b) => ({
      startsAt: iso(b.startsAt),
      sessionType: b.sessionType,
      amount: dollars(b.amountCents),
      couponUsed: b.couponUsed,
      refund: b.refundState,
      cancelledAt: iso(b.createdAt),
    })),
    payments: [
      ...slots
        .filter((s) => (s.amountCents ?? 0) > 0)
        .map((s) => ({
          kind: 'session',
          at: iso(s.bookedAt),
          amount: dollars(s.amountCents),
          currency: 'USD',
          paypalOrderId: s.paypalOrderId,
          for: `${s.sessionType ?? 'Session'} on ${s.date} at ${s.time}`,
        })),
      ...orders.map((o) => ({
        kind: 'chocolate order',
        at: iso(o.createdAt),
        amount: dollars(o.totalCents),
        currency: 'USD',
        paypalOrderId: o.paypalOrderId,
        for: `Order ${o.id}`,
      })),
    ],
    orders: orders.map((o) => ({
      id: o.id,
      createdAt: iso(o.createdAt),
      status: o.status,
      payerName: o.payerName,
      payerEmail: o.payerEmail,
      items: items.filter((i) => i.orderId === o.id).map((i) => ({ name: i.name, unitPrice: dollars(i.unitPriceCents), quantity: i.quantity })),
      itemsTotal: dollars(o.itemsTotalCents),
      discount: dollars(o.discountCents),
      shipping: dollars(o.shippingCents),
      total: dollars(o.totalCents),
      couponCode: o.couponCode,
      localPickup: o.isLocalPickup,
      shipTo: o.shipToName ? { name: o.shipToName, address: o.shipToAddress } : null,
      trackingNumber: o.trackingNumber,
      carrier: o.carrier,
    })),
    classSignups: signups.map((s) => ({
      classTitle: s.classTitle,
      date: s.date,
      name: s.name,
      email: s.email,
      phone: s.phone,
      waiverAccepted: s.waiverAccepted,
      signature: s.signaturePng ? `data:image/png;base64,${Buffer.from(s.signaturePng).toString('base64')}` : null,
      signedUpAt: iso(s.createdAt),
      attendance: s.attendance,
    })),
    classPayments: rows.classPayments.map((p) => ({
      class: p.eventTitle,
      date: p.eventDate,
      paid: dollars(p.amountCents),
      method: p.method,
      paidOn: p.paidOn,
      refunded: p.refund === 'done' ? p.refundedOn : null,
    })),
    tastingRequests: rows.tastings.map((t) => ({
      occasion: t.occasion,
      guests: t.guests,
      dates: t.dates,
      place: t.place,
      phone: t.phone,
      sentAt: iso(t.createdAt),
    })),
    classWaitlist: waitlist.map((w) => ({ name: w.name, email: w.email, phone: w.phone, joinedAt: iso(w.createdAt) })),
    newsletter: subscriber ? { email: subscriber.email, subscribedAt: iso(subscriber.subscribedAt) } : null,
    contactMessages: messages.map((m) => ({ name: m.name, email: m.email, message: m.message, sentAt: iso(m.createdAt) })),
    meetingRequests: requests.map((r) => ({
      name: r.name,
      email: r.email,
      phone: r.phone,
      sessionType: r.sessionType,
      message: r.message,
      sentAt: iso(r.createdAt),
    })),
    sessionCredits: held.map((l) => ({
      package: l.name,
      sessionTypes: l.sessionTypes,
      paidOn: l.paidOn,
      paid: dollars(l.priceCents),
      expiresOn: l.expiresOn,
      remaining: l.remaining,
    })),
    creditHistory: ledger.map((e) => ({ at: iso(e.createdAt), package: e.name, change: e.change, reason: e.reason, note: e.note })),
    // Issue 33: the cards she bought or was given (by her address), each with its history.
    giftCards: giftCards.map((g) => {
      const history = giftCardRows.filter((r) => r.lotId === g.lotId);
      return {
        endingIn: g.codeLast4,
        bought: g.buyerEmail?.toLowerCase() === u.email.toLowerCase(),
        received: g.recipientEmail.toLowerCase() === u.email.toLowerCase() && g.deliveredAt !== null,
        amount: dollars(g.amountCents),
        balance: dollars(g.voidedAt ? 0 : history.reduce((sum, r) => sum + r.change, 0)),
        design: g.design,
        from: g.buyerName,
        to: g.recipientName,
        toEmail: g.recipientEmail,
        message: g.message,
        sendOn: g.sendOn,
        deliveredAt: iso(g.deliveredAt),
        voidedAt: iso(g.voidedAt),
        history: history.map((r) => ({ at: iso(r.createdAt), change: dollars(r.change), reason: r.reason, order: r.orderId, session: r.slotId })),
      };
    }),
    intakeAnswers: intake.map((a) => ({
      formVersion: a.version,
      answeredAt: a.answeredAt,
      answers: a.questions.filter((q) => a.answers[q.id] !== undefined).map((q) => ({ question: q.label, answer: a.answers[q.id] })),
      // The consents given with them (decision 0058): to collect, and to share with her supervisor.
      consents: { collect: a.consents.collect, share: a.consents.share },
    })),
    // The admin's export only (a client who asked her by mail): her notes, every version, by session.
    ...(opened.notes
      ? {
          sessionNotes: [...opened.notes].map(([slotId, versions]) => {
            const slot = slots.find((x) => x.id === slotId);
            return {
              session: slot ? `${slot.date} ${slot.time}` : slotId,
              versions: versions.map((v) => ({ savedAt: v.savedAt, text: v.text, soap: v.soap ?? null })),
            };
          }),
        }
      : {}),
  };
}

export type ClientData = NonNullable<Awaited<ReturnType<typeof clientData>>>;

const HEADINGS: Record<string, string> = {
  profile: 'Profile',
  bookings: 'Bookings',
  cancelledBookings: 'Cancelled bookings',
  payments: 'Payments',
  orders: 'Chocolate orders',
  classSignups: 'Class sign-ups',
  classPayments: 'Class payments',
  tastingRequests: 'Tasting requests',
  classWaitlist: 'Class waitlists',
  newsletter: 'Newsletter',
  contactMessages: 'Contact messages',
  meetingRequests: 'Meeting requests',
  sessionCredits: 'Session credits',
  creditHistory: 'Credit history',
  giftCards: 'Gift cards',
  intakeAnswers: 'Intake answers',
  sessionNotes: 'Session notes',
};

const label = (key: string) => key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

function valueHtml(v: unknown): string {
  if (v === null || v === undefined || v === '') return '<span class="none">—</span>';
  if (typeof v === 'string' && v.startsWith('data:image/png;base64,')) return `<img alt="Signature" src="${escapeHtml(v)}" width="250" height="100">`;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== 'object' || x === null)) return escapeHtml(v.join(', '));
    return v.map((x) => valueHtml(x)).join('');
  }
  if (typeof v === 'object') {
    const rows = Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `<tr><th scope="row">${escapeHtml(label(k))}</th><td>${valueHtml(x)}</td></tr>`)
      .join('');
    return `<table>${rows}</table>`;
  }
  return escapeHtml(String(v));
}

/** The same data as a readable page (a download that opens in any browser, no script). */
export function clientDataHtml(data: ClientData, brand: string): string {
  const sections = Object.entries(HEADINGS)
    .filter(([key]) => (data as Record<string, unknown>)[key] !== undefined)
    .map(([key, heading]) => {
      const v = (data as Record<string, unknown>)[key];
      const empty = v === null || (Array.isArray(v) && v.length === 0);
      return `<section><h2>${escapeHtml(heading)}</h2>${empty ? '<p>Nothing.</p>' : valueHtml(v)}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your data at ${escapeHtml(brand)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:1rem auto;padding:0 1rem;color:#222}table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}th{width:35%;background:#f6f3ee}.none{color:#666}</style>
</head><body>
<h1>Your data at ${escapeHtml(brand)}</h1>
<p>Everything the site holds about you, as of ${escapeHtml(data.exportedAt)}. The same data comes as a JSON file from your account page.</p>
${sections}
</body></html>
`;
}
