import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { id } from '../../contract/common.ts';
import {
  CLIENT_NOT_FOUND,
  COLLECT_CONSENT_MISSING,
  INTAKE_OUTDATED,
  INTAKE_SAVED_CLIENT,
  INTAKE_SAVED_NEW_VERSION,
  NOTE_SAVED,
  NOTE_SESSION_NOT_FOUND,
  checkAnswers,
  collectConsentGiven,
  intakeAnswersRequest,
  intakeFormUpdate,
  sessionNoteRequest,
  type AccessLogView,
  type AdminIntakeView,
  type ClientIntakeView,
  type ClientRecordView,
} from '../../contract/practice.ts';
import { currentIntakeForm, intakeFormVersions, intakeRequiredFor } from './intake-forms.repo.ts';
import { saveIntake } from './save-intake-form.ts';
import { accessLogOf, hasIntakeAnswers, readOwnIntake, readPrivateRecord, saveIntakeAnswers, saveSessionNote } from './records.ts';
import { keyringOf } from '../lib/keys.ts';
import { clientRecordView } from './client-record.ts';
import { clientExists, clientOfSession, findClient } from './practice.repo.ts';
import { intakeMissingForFirstBooking } from './gate.ts';
import { SESSION_TYPE_KEYS, type SessionTypeKey } from '../../contract/settings.ts';

/**
 * Her therapy practice (issue 23, decision 0025):
 *
 *   GET  /api/user/{id}/intake            the form, whether it is required and done, the client's own answers
 *                                         (?answers=0: without them, nothing opened or logged)
 *   PUT  /api/user/{id}/intake            {version, answers}: a new answer version (the old ones kept)
 *   GET  /api/admin/intake                her form, its versions
 *   PUT  /api/admin/intake                {required, questions}: a new version
 *   GET  /api/admin/users/{id}/record     contact, intake answers, sessions with notes, payments (logged)
 *   GET  /api/admin/users/{id}/access-log every read of the client's private records
 *   PUT  /api/admin/bookings/{slotId}/notes {text, soap?}: a new note version of a booked session
 *
 * Each admin route carries its own guard: these routers are mounted on /api/user and /api/admin
 * beside others, where a router-wide guard would also catch the login routes.
 */

const userParams = z.object({ id });
const slotParams = z.object({ slotId: id });

const selfOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertSelf(c, c.req.param('id'));
  await next();
};

/**
 * The form and the client's state; their answers too unless `withAnswers` is false (the
 * dashboard and the booking page only need Required / Completed: nothing is opened, nothing logged).
 */
async function clientIntakeView(c: { var: AppEnv['Variables'] }, userId: string, withAnswers = true): Promise<ClientIntakeView> {
  const { db, env } = c.var.services;
  const form = await currentIntakeForm(db);
  const own = withAnswers ? await readOwnIntake(db, keyringOf(env), userId) : undefined;
  const requiredFor = await intakeRequiredFor(db);
  // What the gate would answer for each type now: the booking page says so before any payment.
  const keys = Object.keys(SESSION_TYPE_KEYS) as SessionTypeKey[];
  const missing = await Promise.all(keys.map((k) => intakeMissingForFirstBooking(db, userId, SESSION_TYPE_KEYS[k])));
  const view: ClientIntakeView = {
    required: Object.values(requiredFor).some(Boolean),
    requiredFor,
    missingFor: keys.filter((_, i) => missing[i]),
    completed: withAnswers ? !!own : await hasIntakeAnswers(db, userId),
    shareConsent: false,
    version: form.version,
    questions: form.questions.map((q) => ({
      id: q.id,
      type: q.type,
      label: q.label,
      required: q.required,
      ...(q.options ? { options: q.options } : {}),
      ...(q.help ? { help: q.help } : {}),
      ...(q.consentText ? { consentText: q.consentText } : {}),
    })),
  };
  if (own) Object.assign(view, { answers: own.answers, answeredVersion: own.version, answeredAt: own.answeredAt, shareConsent: own.consents.share });
  return view;
}

export const userIntake = new Hono<AppEnv>()
  // ?answers=0: the state only (the dashboard's Forms, the booking page's notice).
  .get('/:id/intake', requireUser(), validateParams(userParams), selfOnly, async (c) =>
    c.json(await clientIntakeView(c, c.req.valid('param').id, c.req.query('answers') !== '0')),
  )
  .put(
    '/:id/intake',
    requireUser(),
    validateParams(userParams),
    selfOnly,
    rateLimit({ ...LIMITS.profile, per: 'account' }),
    validateJson(intakeAnswersRequest),
    async (c) => {
      const { db, env } = c.var.services;
      const userId = c.req.valid('param').id;
      const body = c.req.valid('json');
      const form = await currentIntakeForm(db);
      if (body.version !== form.version) return c.json({ message: INTAKE_OUTDATED }, 409);
      const checked = checkAnswers(form.questions, body.answers);
      if (!checked.ok) return c.json({ message: checked.message }, 400);
      // Washington's My Health My Data Act (decision 0058): nothing is kept without the consent to collect; the one to share is apart.
      if (!collectConsentGiven(form.questions, checked.answers, body.consents)) return c.json({ message: COLLECT_CONSENT_MISSING }, 400);
      const consents = { collect: true, share: body.consents?.share ?? false };
      await saveIntakeAnswers(db, keyringOf(env), userId, form.version, checked.answers, consents);
      return c.json({ ...(await clientIntakeView(c, userId)), message: INTAKE_SAVED_CLIENT });
    },
  );

async function adminIntakeView(c: { var: AppEnv['Variables'] }): Promise<AdminIntakeView> {
  const { db } = c.var.services;
  const form = await currentIntakeForm(db);
  const requiredFor = await intakeRequiredFor(db);
  return {
    required: Object.values(requiredFor).some(Boolean),
    requiredFor,
    version: form.version,
    questions: form.questions,
    versions: await intakeFormVersions(db),
  };
}

export const adminIntake = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json(await adminIntakeView(c)))
  .put('/', validateJson(intakeFormUpdate), async (c) => {
    const { db } = c.var.services;
    const body = c.req.valid('json');
    // Issue 30's per-type choice, else issue 23's one switch for every type, else as it was.
    const requiredFor = body.requiredFor ?? (body.required === undefined ? undefined : { individualYoga: body.required, yogaTherapy: body.required });
    // The new version and the choice in one transaction: both are saved, or neither (issue 31).
    const saved = await saveIntake(db, body.questions, requiredFor);
    return c.json({ ...(await adminIntakeView(c)), message: INTAKE_SAVED_NEW_VERSION(saved.version) } satisfies AdminIntakeView);
  });

export const adminPractice = new Hono<AppEnv>()
  .get('/users/:id/record', requireAdmin(), validateParams(userParams), async (c) => {
    const { db, env } = c.var.services;
    const userId = c.req.valid('param').id;
    const client = await findClient(db, userId);
    if (!client) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    const opened = await readPrivateRecord(db, keyringOf(env), userId, { actor: 'admin', adminId: c.var.adminId! }, 'client record');
    return c.json((await clientRecordView(db, client, opened)) satisfies ClientRecordView);
  })
  .get('/users/:id/access-log', requireAdmin(), validateParams(userParams), async (c) => {
    const { db } = c.var.services;
    const userId = c.req.valid('param').id;
    if (!(await clientExists(db, userId))) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    return c.json({ entries: await accessLogOf(db, userId) } satisfies AccessLogView);
  })
  .put('/bookings/:slotId/notes', requireAdmin(), validateParams(slotParams), validateJson(sessionNoteRequest), async (c) => {
    const { db, env } = c.var.services;
    const slotId = c.req.valid('param').slotId;
    // A booked session, or one whose notes exist (a session cancelled after she wrote them).
    const userId = await clientOfSession(db, slotId);
    if (!userId) return c.json({ message: NOTE_SESSION_NOT_FOUND }, 404);
    const body = c.req.valid('json');
    const savedAt = await saveSessionNote(db, keyringOf(env), slotId, userId, body.soap ? { text: body.text, soap: body.soap } : { text: body.text });
    return c.json({ message: NOTE_SAVED, savedAt: savedAt.toISOString() });
  });
