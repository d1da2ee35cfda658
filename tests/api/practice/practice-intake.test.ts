/**
 * Her intake form and the first-booking gate (issue 23), over HTTP on PGlite and PostgreSQL:
 * the form builder's versions (an edit is a new version, each answer keeps the version it
 * answered); a client's answers (a missing required one named; an update a new version, the old
 * kept; client A can't read B's); while she requires it, a first paid booking is refused with a
 * message naming the intake, nothing asked of PayPal and the slot left free, and allowed after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { addFreeSlot, bookingForm } from '../../helpers/slots.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { SIGNATURE } from '../../helpers/endpoints.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
let ordersMade = 0;
beforeAll(async () => {
  server.services.realtime = recordingRealtime();
  // Count what is asked of PayPal: a refused booking must ask nothing.
  const payments = server.services.payments;
  const createOrder = payments.createOrder.bind(payments);
  payments.createOrder = async (input) => {
    ordersMade++;
    return createOrder(input);
  };
  admin = await adminCookie(server);
});

const YOGA = 'Individual Yoga Session (60 min)';
const addSlot = () => addFreeSlot(server, 5);
/** A client asks PayPal for an order for a session on `slotId` (the paid booking's first step). */
const orderSession = (client: { cookie: string }, slotId: string, sessionType = YOGA) =>
  server.api(`/api/bookings/${slotId}/paypal-order`, { method: 'POST', json: { amount: 80, sessionType }, headers: { cookie: client.cookie } });

const getForm = async () => (await server.api('/api/admin/intake', { headers: { cookie: admin } })).json();
const putForm = (json: unknown) => server.api('/api/admin/intake', { method: 'PUT', json, headers: { cookie: admin } });

/** Answers to the seeded form, every required one given. */
const fullAnswers = (marker = 'none') => ({
  conditions: `Mild asthma ${marker}`,
  injuries: 'Left knee surgery in 2019',
  medication: 'Inhaler as needed',
  pregnant: false,
  experience: 'Some classes',
  hopes: 'A calmer back',
  'emergency-contact': 'Sam Lima 555-0100',
  consent: true,
  signature: SIGNATURE,
});

describe(`the intake form builder on ${testDbKind()}`, () => {
  it('is seeded with a yoga-therapy health history, required before a first yoga therapy session and not before individual yoga (issue 30)', async () => {
    const form = await getForm();
    expect(form.version).toBe(1);
    expect(form.required).toBe(true);
    expect(form.requiredFor).toEqual({ individualYoga: false, yogaTherapy: true });
    const ids = form.questions.map((q: { id: string }) => q.id);
    expect(ids).toEqual(expect.arrayContaining(['conditions', 'injuries', 'medication', 'pregnant', 'hopes', 'emergency-contact', 'consent', 'signature']));
    expect(form.questions.find((q: { id: string }) => q.id === 'consent')).toMatchObject({ type: 'consent', required: true });
    expect(form.questions.find((q: { id: string }) => q.id === 'signature')).toMatchObject({ type: 'signature' });
  });

  it('refuses a form that is not one, and a client or a visitor', async () => {
    const { questions } = await getForm();
    expect((await putForm({ required: true, questions: [] })).status).toBe(400);
    const dup = await putForm({ required: true, questions: [questions[0], questions[0]] });
    expect(dup.status).toBe(400);
    expect((await dup.json()).message).toMatch(/same id/);
    const choice = await putForm({ required: false, questions: [{ id: 'x', type: 'choice', label: 'Pick', options: ['only one'] }] });
    expect(choice.status).toBe(400);
    const client = await createUser(server);
    expect((await server.api('/api/admin/intake', { headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api('/api/admin/intake', { method: 'PUT', json: { required: false, questions }, headers: { cookie: client.cookie } })).status).toBe(
      401,
    );
    expect((await getForm()).version).toBe(1);
  });

  it('makes a new version at each save, and each answer keeps the version it answered', async () => {
    const before = await getForm();
    const a = await createUser(server);
    expect(
      (
        await server.api(`/api/user/${a.id}/intake`, {
          method: 'PUT',
          json: { version: before.version, answers: fullAnswers() },
          headers: { cookie: a.cookie },
        })
      ).status,
    ).toBe(200);

    // Every kind of question, reordered, help text, required and optional.
    const questions = [
      { id: 'goal', type: 'text', label: 'Your main goal', required: true, help: 'One line' },
      ...before.questions.filter((q: { id: string }) => q.id !== 'experience').reverse(),
      { id: 'since', type: 'date', label: 'Pain since', required: false },
      { id: 'areas', type: 'multiChoice', label: 'Where does it hurt?', required: false, options: ['Neck', 'Back', 'Hips'] },
    ];
    const saved = await putForm({ required: false, questions });
    expect(saved.status).toBe(200);
    const v2 = await saved.json();
    expect(v2.version).toBe(before.version + 1);
    expect(v2.message).toBe(`Intake form saved as version ${before.version + 1}.`);
    expect(v2.questions.map((q: { id: string }) => q.id)).toEqual(questions.map((q) => q.id));
    expect(v2.versions.map((v: { version: number }) => v.version)).toEqual([before.version + 1, before.version]);
    expect(v2.versions.find((v: { version: number }) => v.version === before.version).answers).toBe(1);

    // Every save is a version, the same questions too; "required" is saved with it.
    const same = await (await putForm({ required: true, questions })).json();
    expect(same.version).toBe(v2.version + 1);
    expect(same.questions).toEqual(v2.questions);
    expect(same.required).toBe(true);

    // A's answer still names version 1; its record shows the questions it answered.
    const mine = await (await server.api(`/api/user/${a.id}/intake`, { headers: { cookie: a.cookie } })).json();
    expect(mine).toMatchObject({ version: same.version, completed: true, answeredVersion: before.version });
    const record = await (await server.api(`/api/admin/users/${a.id}/record`, { headers: { cookie: admin } })).json();
    expect(record.intake.latest.version).toBe(before.version);
    expect(record.intake.latest.questions.map((q: { id: string }) => q.id)).toContain('experience');

    // An answer to an older version than the current one is refused.
    const b = await createUser(server);
    const old = await server.api(`/api/user/${b.id}/intake`, {
      method: 'PUT',
      json: { version: before.version, answers: fullAnswers() },
      headers: { cookie: b.cookie },
    });
    expect(old.status).toBe(409);

    // Back to the seeded questions for the tests below.
    await putForm({ required: false, questions: before.questions });
  });
  it('takes a consent question in the pinned shape { id, type, label, required }: its label is what the client agrees to (issue 29)', async () => {
    const before = await getForm();
    const consent = { id: 'photos', type: 'consent', label: 'I agree to be photographed in class.', required: true };
    const saved = await putForm({ required: false, questions: [{ id: 'goal', type: 'text', label: 'Your main goal', required: false }, consent] });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const form = await saved.json();
    expect(form.questions[1]).toEqual(consent);
    // The client reads the label as the consent; a required consent must still be ticked.
    const client = await createUser(server);
    const view = await (await server.api(`/api/user/${client.id}/intake`, { headers: { cookie: client.cookie } })).json();
    expect(view.questions[1]).toEqual(consent);
    const answer = (photos: boolean) =>
      server.api(`/api/user/${client.id}/intake`, { method: 'PUT', json: { version: form.version, answers: { photos } }, headers: { cookie: client.cookie } });
    const unticked = await answer(false);
    expect(unticked.status).toBe(400);
    expect((await unticked.json()).message).toContain(consent.label);
    expect((await answer(true)).status).toBe(200);
    // A longer text, when she gives one, is still kept beside the label.
    const longer = await putForm({ required: false, questions: [{ ...consent, consentText: 'Photos may appear on the site and in the newsletter.' }] });
    expect(longer.status).toBe(200);
    expect((await longer.json()).questions[0].consentText).toBe('Photos may appear on the site and in the newsletter.');

    await putForm({ required: false, questions: before.questions });
  });
});

describe(`a client's intake on ${testDbKind()}`, () => {
  it('answers the pinned shape, names a missing required answer, and keeps every version of the answers', async () => {
    const a = await createUser(server);
    const first = await (await server.api(`/api/user/${a.id}/intake`, { headers: { cookie: a.cookie } })).json();
    expect(first).toMatchObject({ completed: false, required: false });
    expect(first.answers).toBeUndefined();
    for (const q of first.questions) {
      expect(['text', 'longText', 'yesNo', 'choice', 'multiChoice', 'date', 'consent', 'signature']).toContain(q.type);
      expect(q).toHaveProperty('id');
      expect(q).toHaveProperty('label');
      expect(q).toHaveProperty('required');
    }
    const version = first.version;

    const { hopes: _hopes, ...withoutHopes } = fullAnswers();
    const missing = await server.api(`/api/user/${a.id}/intake`, { method: 'PUT', json: { version, answers: withoutHopes }, headers: { cookie: a.cookie } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('Please answer: What do you hope yoga therapy will help with?');
    const unticked = await server.api(`/api/user/${a.id}/intake`, {
      method: 'PUT',
      json: { version, answers: { ...fullAnswers(), consent: false } },
      headers: { cookie: a.cookie },
    });
    expect((await unticked.json()).message).toBe('Please answer: Consent');
    const badChoice = await server.api(`/api/user/${a.id}/intake`, {
      method: 'PUT',
      json: { version, answers: { ...fullAnswers(), experience: 'Guru' } },
      headers: { cookie: a.cookie },
    });
    expect(badChoice.status).toBe(400);
    const badSignature = await server.api(`/api/user/${a.id}/intake`, {
      method: 'PUT',
      json: { version, answers: { ...fullAnswers(), signature: 'data:image/png;base64,AAAA' } },
      headers: { cookie: a.cookie },
    });
    expect(badSignature.status).toBe(400);
    expect(await server.services.db.selectFrom('intakeAnswers').select('id').where('userId', '=', a.id).execute()).toHaveLength(0);

    const saved = await server.api(`/api/user/${a.id}/intake`, {
      method: 'PUT',
      json: { version, answers: fullAnswers('first') },
      headers: { cookie: a.cookie },
    });
    expect(saved.status).toBe(200);
    const after = await saved.json();
    expect(after).toMatchObject({ completed: true, answers: { conditions: 'Mild asthma first', pregnant: false, consent: true } });

    // A returning client updates: a new answer version, the old one kept.
    const updated = await server.api(`/api/user/${a.id}/intake`, {
      method: 'PUT',
      json: { version, answers: fullAnswers('second') },
      headers: { cookie: a.cookie },
    });
    expect((await updated.json()).answers.conditions).toBe('Mild asthma second');
    expect(await server.services.db.selectFrom('intakeAnswers').select('id').where('userId', '=', a.id).execute()).toHaveLength(2);
    const record = await (await server.api(`/api/admin/users/${a.id}/record`, { headers: { cookie: admin } })).json();
    expect(record.intake.latest.answers.conditions).toBe('Mild asthma second');
    expect(record.intake.earlier.map((e: { answers: { conditions: string } }) => e.answers.conditions)).toEqual(['Mild asthma first']);
  });

  it("client A can't read or write B's intake", async () => {
    const a = await createUser(server);
    const b = await createUser(server);
    const { version } = await (await server.api(`/api/user/${b.id}/intake`, { headers: { cookie: b.cookie } })).json();
    await server.api(`/api/user/${b.id}/intake`, { method: 'PUT', json: { version, answers: fullAnswers('b-secret') }, headers: { cookie: b.cookie } });
    const read = await server.api(`/api/user/${b.id}/intake`, { headers: { cookie: a.cookie } });
    expect(read.status).toBe(403);
    expect(await read.text()).not.toContain('b-secret');
    expect(
      (await server.api(`/api/user/${b.id}/intake`, { method: 'PUT', json: { version, answers: fullAnswers('a-wrote') }, headers: { cookie: a.cookie } }))
        .status,
    ).toBe(403);
    expect((await server.api(`/api/user/${b.id}/intake`)).status).toBe(401);
    // Nor her record of B, nor her notes.
    expect((await server.api(`/api/admin/users/${b.id}/record`, { headers: { cookie: a.cookie } })).status).toBe(401);
    expect((await server.api(`/api/admin/users/${b.id}/access-log`, { headers: { cookie: a.cookie } })).status).toBe(401);
  });
});

describe(`the first-booking gate on ${testDbKind()}`, () => {
  it('is per session type: yoga therapy waits for the intake, individual yoga does not (issue 30)', async () => {
    const { questions } = await getForm();
    const saved = await putForm({ requiredFor: { individualYoga: false, yogaTherapy: true }, questions });
    expect(await saved.json()).toMatchObject({ required: true, requiredFor: { individualYoga: false, yogaTherapy: true } });
    const client = await createUser(server);
    const order = async (sessionType: string) => orderSession(client, (await addSlot()).id, sessionType);
    const therapy = await order('Yoga Therapy Session (60 min)');
    expect(therapy.status).toBe(409);
    expect((await therapy.json()).message).toMatch(/intake form/);
    expect((await order(YOGA)).status).toBe(200);
    const view = await (await server.api(`/api/user/${client.id}/intake?answers=0`, { headers: { cookie: client.cookie } })).json();
    expect(view).toMatchObject({ required: true, requiredFor: { individualYoga: false, yogaTherapy: true }, completed: false });
    // Issue 23's one switch still sets every type.
    expect(await (await putForm({ required: false, questions })).json()).toMatchObject({
      required: false,
      requiredFor: { individualYoga: false, yogaTherapy: false },
    });
  });

  it('refuses a first paid booking without the required intake (nothing asked of PayPal, the slot free), and allows it after', async () => {
    const { questions } = await getForm();
    await putForm({ required: true, questions });
    const client = await createUser(server);
    const slot = await addSlot();
    const made = ordersMade;

    const refused = await orderSession(client, slot.id);
    expect(refused.status).toBe(409);
    const { message } = await refused.json();
    expect(message).toMatch(/intake form/);
    expect(ordersMade).toBe(made);
    expect(await server.services.db.selectFrom('bookingOrders').selectAll().where('userId', '=', client.id).execute()).toHaveLength(0);

    // The coupon's path (finalize) refuses too.
    const coupon = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      json: bookingForm(client, YOGA, { couponCode: server.env.BOOKING_COUPON }),
      headers: { cookie: client.cookie },
    });
    expect(coupon.status).toBe(409);
    expect((await coupon.json()).message).toMatch(/intake form/);
    const free = await server.services.db.selectFrom('slots').select(['bookedBy', 'bookedAt']).where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(free).toEqual({ bookedBy: null, bookedAt: null });
    expect(await server.services.db.selectFrom('paymentAttempts').selectAll().where('userId', '=', client.id).execute()).toHaveLength(0);

    // The dashboard's question: required and not completed.
    const view = await (await server.api(`/api/user/${client.id}/intake`, { headers: { cookie: client.cookie } })).json();
    expect(view).toMatchObject({ required: true, completed: false });

    // After the intake: the order is made and the booking goes through.
    await server.api(`/api/user/${client.id}/intake`, {
      method: 'PUT',
      json: { version: view.version, answers: fullAnswers() },
      headers: { cookie: client.cookie },
    });
    const ordered = await orderSession(client, slot.id);
    expect(ordered.status).toBe(200);
    const { orderID } = await ordered.json();
    expect(ordersMade).toBe(made + 1);
    expect((await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Ana' } })).status).toBe(200);
    const booked = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message: '', paypalOrderId: orderID },
      headers: { cookie: client.cookie },
    });
    expect(booked.status).toBe(200);
    await putForm({ required: false, questions });
  });

  it('lets a client who booked before keep booking, and nobody is held back while it is not required', async () => {
    const { questions } = await getForm();
    const client = await createUser(server);
    const earlier = await addSlot();
    await server.services.db
      .updateTable('slots')
      .set({ bookedBy: client.id, bookedAt: new Date(), sessionType: YOGA, couponUsed: true })
      .where('id', '=', earlier.id)
      .execute();
    await putForm({ required: true, questions });
    const slot = await addSlot();
    const returning = await orderSession(client, slot.id);
    expect(returning.status).toBe(200);

    await putForm({ required: false, questions });
    const newcomer = await createUser(server);
    const open = await orderSession(newcomer, (await addSlot()).id);
    expect(open.status).toBe(200);
  });
});
