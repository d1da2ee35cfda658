/**
 * Her therapy practice (issue 23): the intake form she writes, the client's answers, her
 * session notes, the client's record and access log, and the client's own data (export and
 * deletion). Shared by the server and the islands: zod only.
 */
import { z } from 'zod';
import { isCleanText, hasNoBidiControls } from './common.ts';
import { decodeSignature } from './signups.ts';

// ---------------------------------------------------------------------------------------------
// The form she writes

export const QUESTION_TYPES = ['text', 'longText', 'yesNo', 'choice', 'multiChoice', 'date', 'consent', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** How the builder names each type. */
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  text: 'Short text',
  longText: 'Long text',
  yesNo: 'Yes / no',
  choice: 'Choose one',
  multiChoice: 'Choose several',
  date: 'Date',
  consent: 'Consent checkbox',
  signature: 'Drawn signature',
};

const formText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoBidiControls, `${label} must not contain text-direction control characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

/** One question of the intake form. */
export const intakeQuestion = z
  .object({
    /** A stable id (letters, digits, dashes): answers are stored under it. */
    id: z.string({ error: 'Each question needs an id' }).regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'A question id is 1 to 40 lower-case letters, digits or dashes'),
    /** What kind of answer it takes. */
    type: z.enum(QUESTION_TYPES, { error: `The type must be one of: ${QUESTION_TYPES.join(', ')}` }),
    /** The question as the client reads it. */
    label: formText('The question', 300).refine((s) => s.length > 0, 'Each question needs its words'),
    /** Whether it must be answered (a required consent must be ticked). */
    required: z.boolean({ error: 'required must be true or false' }).default(false),
    /** A line of help under the question (optional). */
    help: formText('The help text', 600).optional(),
    /** The choices, for "choose one" and "choose several". */
    options: z
      .array(
        formText('A choice', 200).refine((s) => s.length > 0, 'A choice must not be empty'),
        { error: 'options must be a list' },
      )
      .max(30)
      .optional(),
    /** A consent checkbox's longer text: what the client agrees to; without it, the question's label is that text. */
    consentText: formText('The consent text', 4000).optional(),
  })
  .refine((q) => !(q.type === 'choice' || q.type === 'multiChoice') || (q.options?.length ?? 0) >= 2, {
    message: 'A "choose" question needs at least two choices',
    path: ['options'],
  });
export type IntakeQuestion = z.output<typeof intakeQuestion>;

/**
 * For which session types the intake comes before a client's first session (issue 30): yoga
 * therapy by default (a therapist takes a history first), individual yoga not.
 */
export const intakeRequiredFor = z.object({
  /** Individual Yoga Session (60 min). */
  individualYoga: z.boolean({ error: 'individualYoga must be true or false' }),
  /** Yoga Therapy Session (60 min). */
  yogaTherapy: z.boolean({ error: 'yogaTherapy must be true or false' }),
});
export type IntakeRequiredFor = z.output<typeof intakeRequiredFor>;
export const DEFAULT_INTAKE_REQUIRED_FOR: IntakeRequiredFor = { individualYoga: false, yogaTherapy: true };

/**
 * PUT /api/admin/intake: for which session types it is required before a first session, and the
 * questions (each save a new version). `required` (issue 23) still works: true or false for every type.
 */
export const intakeFormUpdate = z.object({
  /** Required before a client's first paid session, for every session type (issue 23's switch). */
  required: z.boolean({ error: 'required must be true or false' }).optional(),
  /** Required before a first session of each type (issue 30); wins over `required`. */
  requiredFor: intakeRequiredFor.optional(),
  questions: z
    .array(intakeQuestion, { error: 'questions must be a list' })
    .min(1, 'The form needs at least one question')
    .max(60, 'At most 60 questions')
    .refine((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'Two questions have the same id'),
});
export type IntakeFormUpdate = z.input<typeof intakeFormUpdate>;

/** GET and PUT /api/admin/intake. */
export interface AdminIntakeView {
  required: boolean;
  requiredFor: IntakeRequiredFor;
  version: number;
  questions: IntakeQuestion[];
  /** Every version, newest first, with how many clients answered it. */
  versions: { version: number; createdAt: string; answers: number }[];
  message?: string;
}

export const INTAKE_SAVED_NEW_VERSION = (v: number) => `Intake form saved as version ${v}.`;

// ---------------------------------------------------------------------------------------------
// The client's answers

export type AnswerValue = string | boolean | string[];

/**
 * The two consents Washington's My Health My Data Act asks, apart (RCW 19.373.030, decision
 * 0058). The site's words, not her form's: she can't edit them away.
 *
 * The consent to collect is required. It is given with the first required consent of her form
 * (the seeded one is signed), which the intake shows with these words; a form without a required
 * consent shows them as a checkbox of their own (`consents.collect`).
 */
export const COLLECT_CONSENT_TEXT =
  'I agree that my teacher collects and keeps the health information I give in this form, and the notes of our sessions, only to teach and care for me safely. I can withdraw this consent at any time by deleting my account, which erases them.';
export const COLLECT_CONSENT_LABEL = 'Consent to collect your health information';

/**
 * The consent to share: optional, off unless ticked, changed by saving the form again. The site
 * itself hands the answers to no one; what ticking allows is her discussing the case with her
 * supervisor, as a yoga therapist in training or practice does.
 */
export const SHARE_CONSENT_LABEL = 'Consent to share (optional)';
export const SHARE_CONSENT_TEXT =
  'This site shares your health information with no one, and your teacher keeps it to herself, unless you tick this box. Ticking it allows her to discuss your case with her yoga-therapy supervisor or mentor (a fellow therapist who keeps it confidential), by word of mouth and only as far as advice on your care needs, without giving your full name. You can untick it and save this form at any time.';
export const SHARE_CONSENT_BOX = 'I allow my teacher to discuss my case with her supervisor';
export const COLLECT_CONSENT_MISSING = `Please agree to the ${COLLECT_CONSENT_LABEL.toLowerCase()}: without it your answers can't be kept.`;

/** The consents sent with the answers. */
export const intakeConsents = z.object({
  /** The consent to collect, ticked on its own (a form with no required consent of hers). */
  collect: z.boolean({ error: 'consents.collect must be true or false' }).optional(),
  /** The consent to share; false unless ticked. */
  share: z.boolean({ error: 'consents.share must be true or false' }).default(false),
});

/** The question of her form that carries the consent to collect: her first required consent, if any. */
export const collectConsentCarrier = (questions: readonly Pick<IntakeQuestion, 'id' | 'type' | 'required'>[]) =>
  questions.find((q) => q.type === 'consent' && q.required);

/** Whether checked answers give the consent to collect: ticked on its own, or with the consent that carries it. */
export function collectConsentGiven(
  questions: readonly Pick<IntakeQuestion, 'id' | 'type' | 'required'>[],
  answers: Record<string, unknown>,
  consents: { collect?: boolean } | undefined,
): boolean {
  if (consents?.collect === true) return true;
  const carrier = collectConsentCarrier(questions);
  return carrier !== undefined && answers[carrier.id] === true;
}

/** PUT /api/user/{id}/intake. The answers are checked against the version's questions on the server. */
export const intakeAnswersRequest = z.object({
  version: z.number({ error: 'version must be a number' }).int().min(1),
  answers: z.record(z.string().max(40), z.union([z.string().max(300_000), z.boolean(), z.array(z.string().max(200)).max(30)]), {
    error: 'answers must be an object',
  }),
  /** The consent to share (and the consent to collect when her form has no required consent). */
  consents: intakeConsents.optional(),
});
export type IntakeAnswersRequest = z.input<typeof intakeAnswersRequest>;

export const INTAKE_NAME = 'intake form';
/** The server's refusal of a first booking without the intake (409). */
export const INTAKE_REQUIRED_MESSAGE = 'Please complete the intake form (health history and consent) before your first session.';
export const INTAKE_SAVED_CLIENT = 'Thank you. Your intake form is saved.';
export const INTAKE_OUTDATED = 'The intake form has changed since you opened it. Please reload the page and answer again.';
export const intakeMissingAnswer = (label: string) => `Please answer: ${label}`;
export const intakeBadAnswer = (label: string, why: string) => `${label}: ${why}`;

/** GET /api/user/{id}/intake (pinned by the issue). */
export interface ClientIntakeView {
  /** Required before a first session of some type (then `requiredFor` says which). */
  required: boolean;
  requiredFor: IntakeRequiredFor;
  /** The session types this client can't book yet for want of the intake (the first-booking gate's answer, issue 30). */
  missingFor: (keyof IntakeRequiredFor)[];
  completed: boolean;
  version: number;
  questions: { id: string; type: QuestionType; label: string; required: boolean; options?: string[]; help?: string; consentText?: string }[];
  /** The client's latest answers, when they answered. */
  answers?: Record<string, AnswerValue>;
  answeredVersion?: number;
  answeredAt?: string;
  /** The consent to share as the client last saved it (false until ticked). */
  shareConsent: boolean;
  message?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks answers against a version's questions: the answers to keep (unknown ids dropped), or
 * the message naming the first missing or wrong answer. The server and the island use it.
 */
export function checkAnswers(
  questions: readonly IntakeQuestion[],
  answers: Record<string, unknown>,
): { ok: true; answers: Record<string, AnswerValue> } | { ok: false; message: string } {
  const out: Record<string, AnswerValue> = {};
  for (const q of questions) {
    const raw = answers[q.id];
    const blank = raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0) || (q.type === 'consent' && raw === false);
    if (blank) {
      if (q.required) return { ok: false, message: intakeMissingAnswer(q.label) };
      continue;
    }
    const bad = (why: string) => ({ ok: false as const, message: intakeBadAnswer(q.label, why) });
    switch (q.type) {
      case 'text':
      case 'longText': {
        const max = q.type === 'text' ? 500 : 5000;
        if (typeof raw !== 'string') return bad('must be text');
        const v = raw.trim();
        if (v.length > max) return bad(`must be at most ${max} characters`);
        if (!isCleanText(v)) return bad('contains characters that are not allowed');
        if (v === '') {
          if (q.required) return { ok: false, message: intakeMissingAnswer(q.label) };
          continue;
        }
        out[q.id] = v;
        break;
      }
      case 'yesNo':
        if (typeof raw !== 'boolean') return bad('answer yes or no');
        out[q.id] = raw;
        break;
      case 'consent':
        if (raw !== true) return bad('tick the box to agree');
        out[q.id] = true;
        break;
      case 'choice':
        if (typeof raw !== 'string' || !(q.options ?? []).includes(raw)) return bad('choose one of the choices');
        out[q.id] = raw;
        break;
      case 'multiChoice':
        if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || !(q.options ?? []).includes(v))) return bad('choose among the choices');
        out[q.id] = [...new Set(raw as string[])];
        break;
      case 'date':
        if (typeof raw !== 'string' || !DATE.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) return bad('must be a date (YYYY-MM-DD)');
        out[q.id] = raw;
        break;
      case 'signature': {
        if (typeof raw !== 'string') return bad('please sign and save your signature');
        const decoded = decodeSignature(raw);
        if (!decoded.ok) return bad(decoded.message);
        out[q.id] = raw;
        break;
      }
    }
  }
  return { ok: true, answers: out };
}

/** The seeded form: a yoga-therapy health history she can change. */
export const DEFAULT_INTAKE_QUESTIONS: IntakeQuestion[] = [
  {
    id: 'conditions',
    type: 'longText',
    label: 'Health conditions',
    required: true,
    help: 'Anything a teacher should know: heart, blood pressure, breathing, joints, back, balance, mental health. Write "none" if none.',
  },
  {
    id: 'injuries',
    type: 'longText',
    label: 'Injuries and surgeries',
    required: true,
    help: 'What, when, and whether it still limits you. Write "none" if none.',
  },
  { id: 'medication', type: 'longText', label: 'Medication', required: false, help: 'Anything that affects balance, blood pressure or energy.' },
  { id: 'pregnant', type: 'yesNo', label: 'Are you pregnant, or could you be?', required: true },
  { id: 'experience', type: 'choice', label: 'Your yoga experience', required: false, options: ['None yet', 'Some classes', 'Regular practice'] },
  { id: 'hopes', type: 'longText', label: 'What do you hope yoga therapy will help with?', required: true },
  { id: 'emergency-contact', type: 'text', label: 'Emergency contact (name and phone)', required: true },
  {
    id: 'consent',
    type: 'consent',
    label: 'Consent',
    required: true,
    consentText:
      'I understand that yoga therapy is not a substitute for medical care, that I will tell my teacher about any change in my health, and that I take part at my own risk, stopping whenever something hurts.',
  },
  { id: 'signature', type: 'signature', label: 'Your signature', required: true },
];

// ---------------------------------------------------------------------------------------------
// Session notes and the client's record (admin)

const noteText = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(20_000, `${label} must be at most 20000 characters`)
    .refine(hasNoBidiControls, `${label} must not contain text-direction control characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

/** PUT /api/admin/bookings/{slotId}/notes: the free text, and the optional SOAP layout. */
export const sessionNoteRequest = z
  .object({
    text: noteText('The note'),
    soap: z
      .object({
        subjective: noteText('Subjective').default(''),
        objective: noteText('Objective').default(''),
        assessment: noteText('Assessment').default(''),
        plan: noteText('Plan').default(''),
      })
      .optional(),
  })
  .refine((n) => n.text.length > 0 || (n.soap && Object.values(n.soap).some((v) => v.length > 0)), { message: 'Write something in the note', path: ['text'] });
export type SessionNoteRequest = z.input<typeof sessionNoteRequest>;
export interface SessionNote {
  text: string;
  soap?: { subjective: string; objective: string; assessment: string; plan: string };
}

export const NOTE_SAVED = 'Note saved.';
export const NOTE_SESSION_NOT_FOUND = 'No booked session with this id.';

export interface NoteVersionView extends SessionNote {
  savedAt: string;
}

export interface RecordSessionView {
  slotId: string;
  date: string;
  time: string;
  sessionType: string | null;
  past: boolean;
  amountCents: number | null;
  couponUsed: boolean;
  /** The latest note and the earlier versions (newest first). */
  note?: NoteVersionView;
  history: NoteVersionView[];
}

export interface IntakeAnswerView {
  version: number;
  answeredAt: string;
  questions: IntakeQuestion[];
  answers: Record<string, AnswerValue>;
  /** The consents saved with these answers (migration 0044; collect is false on answers saved before it was asked). */
  consents: { collect: boolean; share: boolean };
}

/**
 * A consent as the client's record shows it: given now or not; since when (the first answer
 * version of the run that kept it as it is now); withdrawn when an earlier version gave it.
 */
export interface ConsentState {
  given: boolean;
  since?: string;
  withdrawn?: boolean;
}
export interface IntakeConsentsView {
  collect: ConsentState;
  share: ConsentState;
}

/** Each consent's state from every answer version, newest first (none: neither given). */
export function consentsOf(versions: readonly Pick<IntakeAnswerView, 'answeredAt' | 'consents'>[]): IntakeConsentsView {
  const one = (kind: 'collect' | 'share'): ConsentState => {
    const given = versions[0]?.consents[kind] ?? false;
    let since: string | undefined;
    let i = 0;
    for (; i < versions.length && versions[i]!.consents[kind] === given; i++) since = versions[i]!.answeredAt;
    if (given) return { given, since };
    // Never given: nothing to date. Withdrawn: dated by the version that took it back.
    return i < versions.length ? { given, since, withdrawn: true } : { given };
  };
  return { collect: one('collect'), share: one('share') };
}

/** GET /api/admin/users/{id}/record. */
export interface ClientRecordView {
  client: {
    id: string;
    firstName: string;
    lastName: string;
    preferredName: string;
    pronoun: string;
    email: string;
    phone: string;
    city: string;
    zipcode: string;
    createdAt: string;
  };
  intake: { required: boolean; latest?: IntakeAnswerView; earlier: IntakeAnswerView[]; consents: IntakeConsentsView };
  sessions: RecordSessionView[];
  payments: ClientPaymentView[];
}

/**
 * A payment on the client's page: when it was paid, how much, what for; a session's own day and
 * time apart (the page writes them in words); how a sale she entered by hand was paid (issue 50:
 * a Venmo package is on the client's page as it is in the tax year).
 */
export interface ClientPaymentView {
  kind: 'session' | 'order' | 'package';
  date: string;
  amountCents: number;
  what: string;
  session?: { date: string; time: string };
  /** "Venmo", "cash", …: a sale she entered; absent for what was paid on the site. */
  method?: string;
}

/** GET /api/admin/users/{id}/access-log: every read of the client's private records, newest first. */
export interface AccessLogView {
  entries: { at: string; who: 'admin' | 'client'; what: string }[];
}

export const CLIENT_NOT_FOUND = 'Client not found.';

// ---------------------------------------------------------------------------------------------
// The client's data in their own hands

export const DELETE_REQUEST_SENT = 'We sent you an e-mail with a link to confirm the deletion. The link works for one hour.';
export const DELETE_LINK_INVALID = 'This deletion link is invalid or has expired. Ask for a new one from your account page.';
export const ACCOUNT_DELETED = 'Your account has been deleted. Thank you for the time we spent together.';
/** What the teacher is asked before she deletes a client, from the client's page or the Clients list. */
export const ERASE_ACCOUNT_CONFIRM =
  'Their profile, intake answers, your notes, sign-ups, subscription and mails are erased; payments stay for the books without their name or address.';
export const ACCOUNT_ERASED_BY_ADMIN = 'The client’s account has been deleted; the money records stay, without their name and address.';
/**
 * What happens to the sessions still to come when an account is deleted (issue 30), said before
 * the client confirms: api/booking/sessions-of-deleted-account.ts does exactly this.
 */
export const SESSIONS_AHEAD_ON_DELETION =
  'Sessions you have booked that are still to come are cancelled and their times freed. A paid one you could still cancel online is refunded in full through PayPal; one closer than that is left to the teacher to refund.';

export const DELETE_MAIL_NOT_SENT = 'We could not send the confirmation e-mail. Please try again later.';

/** POST /api/user/delete-account {token}: the link's token. */
export const deleteAccountRequest = z.object({ token: z.string({ error: 'The link is incomplete.' }).trim().min(1, 'The link is incomplete.').max(1024) });

/** How long the notes of sessions are kept: the retention rule (decision 0025, the privacy page). */
export const NOTES_RETENTION =
  'Session notes are kept while your account exists, so your sessions can build on each other. They are deleted with your account; otherwise they are deleted 7 years after your last session.';
export const NOTES_RETENTION_YEARS = 7;
