/**
 * The roster on her phone (issue 34): who signed up for a class, workshop or tasting, her
 * one-tap check-in and no-show mark, a walk-in added at the door who signs the waiver on her
 * phone, and attendance per client and per weekly series. Shared with the islands: no
 * server-only imports here.
 */
import { z } from 'zod';
import { email, id } from './common.ts';
import { personName, phone } from './forms.ts';

export const ATTENDANCE = ['present', 'noShow'] as const;
export type Attendance = (typeof ATTENDANCE)[number];

/** Answers the roster's calls give. */
export const ROSTER_EVENT_NOT_FOUND = 'Event not found.';
export const SIGNUP_NOT_OF_EVENT = 'This person is not signed up for this event.';
/** Issue 50: nobody is absent from a class that has not begun. */
export const NO_SHOW_BEFORE_START = 'A no-show can be marked once the class has started.';
export const SIGNUP_STILL_PAYING = 'This place is still being paid for: mark it once the payment is in.';
export const EVENT_CANCELLED = 'This event was cancelled.';
export const WALK_IN_ALREADY = 'This e-mail is already signed up for this class: check them in on the list instead.';
export const WALK_IN_ADDED = 'Walk-in added and checked in.';
export const ATTENDANCE_SAVED = 'Attendance saved.';
export const ATTENDANCE_STATUS_INVALID = "Status must be 'present' or 'noShow'.";
export const SIGNUP_ID_REQUIRED = 'Say which sign-up to mark (the id of a sign-up of this event).';
export const SIGNATURE_MUST_BE_TEXT = 'The signature must be a PNG image. Please sign again.';

/** Her roster page of one event. */
export const rosterPath = (eventId: string) => `/admin/roster?event=${encodeURIComponent(eventId)}`;

/** The word for each mark, as the roster and the client's page show it. */
export const ATTENDANCE_WORDS: Record<Attendance, string> = { present: 'Present', noShow: 'No-show' };

/** PUT /api/admin/events/{id}/attendance */
export const attendanceChange = z.object({
  signupId: z.string({ error: SIGNUP_ID_REQUIRED }).trim().min(1, SIGNUP_ID_REQUIRED).pipe(id),
  status: z.enum(ATTENDANCE, { error: ATTENDANCE_STATUS_INVALID }),
});
export type AttendanceChange = z.output<typeof attendanceChange>;

/** A blank optional field is a field left out. */
const blankIsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * POST /api/admin/events/{id}/walk-ins: who came in at the door. The signature (a canvas PNG
 * data URL, as the public sign-up sends it) is checked by decodeSignature on the server, which
 * can answer 413; without one the waiver is not accepted and their next sign-up asks for it.
 */
export const walkIn = z.object({
  name: personName,
  email,
  phone: z.preprocess(blankIsAbsent, phone.optional()),
  signature: z.preprocess(blankIsAbsent, z.string({ error: SIGNATURE_MUST_BE_TEXT }).optional()),
});
export type WalkIn = z.output<typeof walkIn>;

/** The waiver as she shows it to a walk-in: the one published now, which the sign-up records. */
export interface WaiverTextView {
  heading: string;
  paragraphs: string[];
  agreement: string;
}

export interface RosterPersonView {
  _id: string;
  name: string;
  email: string;
  phone: string;
  attendance: Attendance | null;
  walkIn: boolean;
  /** null: a free place; 'held': still paying (not yet an attendee, no marks); 'paid'. */
  payment: 'held' | 'paid' | null;
  hasSignature: boolean;
}

/** One past event of the series: how many signed up (places being paid left out), came, did not. */
export interface SeriesPointView {
  _id: string;
  date: string;
  capacity: number;
  signedUp: number;
  present: number;
  noShow: number;
}

/** GET /api/admin/events/{id}/roster */
export interface RosterView {
  event: {
    _id: string;
    title: string;
    date: string;
    time: string;
    location: string;
    capacity: number;
    isPast: boolean;
    cancelled: boolean;
    /** One of a weekly (or monthly) series: `series` is its history. */
    inSeries: boolean;
  };
  /** In sign-up order. */
  people: RosterPersonView[];
  /** The event's weekly series, its past events of the last six months, oldest first; empty for a single event. */
  series: SeriesPointView[];
  waiver: WaiverTextView;
}

/** PUT /api/admin/events/{id}/attendance */
export interface AttendanceSavedView {
  message: string;
  _id: string;
  attendance: Attendance;
  attendanceAt: string;
}

/** POST /api/admin/events/{id}/walk-ins */
export interface WalkInAddedView {
  message: string;
  _id: string;
}

/** GET /api/admin/users/{id}/classes: the classes a client signed up for (by e-mail), latest first. */
export interface ClientClassView {
  _id: string;
  eventId: string | null;
  classTitle: string;
  date: string;
  time: string | null;
  past: boolean;
  attendance: Attendance | null;
  walkIn: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The chart's words, for a screen reader and for anyone who would rather read than look. */
export function seriesSummary(points: readonly SeriesPointView[], dayLabel: (date: string) => string): string {
  if (points.length === 0) return 'No past classes of this series in the last six months.';
  const parts = points.map((p) => `${dayLabel(p.date)}: ${p.signedUp} of ${p.capacity} signed up, ${p.present} came, ${plural(p.noShow, 'no-show')}`);
  return `Attendance of this series over the last six months. ${parts.join('; ')}.`;
}

/** What a client's class row says of attendance. */
export function attendanceWords(c: Pick<ClientClassView, 'attendance' | 'past' | 'walkIn'>): string {
  const mark = c.attendance ? ATTENDANCE_WORDS[c.attendance] : c.past ? 'Not marked' : 'Coming';
  return c.walkIn ? `${mark} (walk-in)` : mark;
}
