/**
 * Issue 48 (decision 0058), Washington's My Health My Data Act (RCW 19.373.030): the intake asks
 * a consent to collect and, apart, a consent to share. Over HTTP on PGlite and PostgreSQL: the
 * consent to share is off unless given, stored with the answers, changeable by saving again; the
 * consent to collect is required (with her form's signed consent, or on its own when her form
 * has none); her client's record says whether each was given and since when; the client's own
 * export carries them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { SIGNATURE } from '../../helpers/endpoints.ts';
import { COLLECT_CONSENT_MISSING } from '../../../contract/practice.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
beforeAll(async () => {
  admin = await adminCookie(server);
});

type Client = Awaited<ReturnType<typeof createUser>>;

/** Answers to the seeded form, its consent (the one that carries the consent to collect) ticked. */
const answers = () => ({
  conditions: 'Mild asthma',
  injuries: 'none',
  pregnant: false,
  hopes: 'A calmer back',
  'emergency-contact': 'Sam Lima 555-0100',
  consent: true,
  signature: SIGNATURE,
});

const form = async () => (await server.api('/api/admin/intake', { headers: { cookie: admin } })).json();
const intakeOf = async (c: Client) => (await server.api(`/api/user/${c.id}/intake`, { headers: { cookie: c.cookie } })).json();
const save = async (c: Client, json: Record<string, unknown>) =>
  server.api(`/api/user/${c.id}/intake`, { method: 'PUT', headers: { cookie: c.cookie }, json: { version: (await form()).version, ...json } });
const recordOf = async (c: Client) => (await server.api(`/api/admin/users/${c.id}/record`, { headers: { cookie: admin } })).json();
const rowsOf = (c: Client) =>
  server.services.db
    .selectFrom('intakeAnswers')
    .select(['collectConsent', 'shareConsent', 'createdAt'])
    .where('userId', '=', c.id)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();

describe(`the intake's two consents on ${testDbKind()}`, () => {
  it('shares nothing unless the client ticks the consent to share; the consent to collect comes with her signed consent', async () => {
    const c = await createUser(server);
    expect((await intakeOf(c)).shareConsent).toBe(false);
    const saved = await save(c, { answers: answers() });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await saved.json()).shareConsent).toBe(false);
    expect(await rowsOf(c)).toMatchObject([{ collectConsent: true, shareConsent: false }]);
    const record = await recordOf(c);
    expect(record.intake.consents).toEqual({
      collect: { given: true, since: record.intake.latest.answeredAt },
      share: { given: false },
    });
    expect(record.intake.latest.consents).toEqual({ collect: true, share: false });
  });

  it('stores the consent to share, shows it to her with its time, and takes it back when unticked', async () => {
    const c = await createUser(server);
    expect((await save(c, { answers: answers(), consents: { share: false } })).status).toBe(200);
    const first = (await recordOf(c)).intake.latest.answeredAt;

    const given = await save(c, { answers: answers(), consents: { share: true } });
    expect(given.status).toBe(200);
    expect((await given.json()).shareConsent).toBe(true);
    expect((await intakeOf(c)).shareConsent).toBe(true);
    let record = await recordOf(c);
    const since = record.intake.latest.answeredAt;
    expect(record.intake.consents).toEqual({ collect: { given: true, since: first }, share: { given: true, since } });

    // Saved again still ticked: given since the first time, not since the last save.
    expect((await save(c, { answers: answers(), consents: { share: true } })).status).toBe(200);
    expect((await recordOf(c)).intake.consents.share).toEqual({ given: true, since });

    // Unticked: withdrawn, from that save on.
    expect((await save(c, { answers: answers(), consents: { share: false } })).status).toBe(200);
    record = await recordOf(c);
    expect(record.intake.consents.share).toEqual({ given: false, since: record.intake.latest.answeredAt, withdrawn: true });
    expect((await intakeOf(c)).shareConsent).toBe(false);
    expect((await rowsOf(c)).map((r) => r.shareConsent)).toEqual([false, true, true, false]);

    // The client's own download carries what they agreed to with each version.
    const data = await (await server.api(`/api/user/${c.id}/export`, { headers: { cookie: c.cookie } })).json();
    expect(data.intakeAnswers.map((a: { consents: unknown }) => a.consents)).toEqual([
      { collect: true, share: false },
      { collect: true, share: true },
      { collect: true, share: true },
      { collect: true, share: false },
    ]);
  });

  it('refuses answers without the consent to collect (400, nothing kept), and a consent that is not true or false', async () => {
    const c = await createUser(server);
    const unticked = await save(c, { answers: { ...answers(), consent: false, signature: undefined } });
    expect(unticked.status).toBe(400);
    const notBoolean = await save(c, { answers: answers(), consents: { share: 'yes' } });
    expect(notBoolean.status).toBe(400);
    expect((await notBoolean.json()).message).toMatch(/consents\.share must be true or false/);
    expect(await rowsOf(c)).toEqual([]);
  });

  it('asks the consent to collect on its own when her form has no required consent', async () => {
    const before = await form();
    const put = await server.api('/api/admin/intake', {
      method: 'PUT',
      headers: { cookie: admin },
      json: { required: false, questions: [{ id: 'goal', type: 'text', label: 'Your main goal', required: true }] },
    });
    expect(put.status).toBe(200);
    try {
      const view = await intakeOf(await createUser(server));
      expect(view.questions.some((q: { type: string; required: boolean }) => q.type === 'consent' && q.required)).toBe(false);

      const c = await createUser(server);
      const refused = await save(c, { answers: { goal: 'Sleep better' }, consents: { share: true } });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toBe(COLLECT_CONSENT_MISSING);
      expect(await rowsOf(c)).toEqual([]);

      const kept = await save(c, { answers: { goal: 'Sleep better' }, consents: { collect: true, share: true } });
      expect(kept.status).toBe(200);
      expect(await rowsOf(c)).toMatchObject([{ collectConsent: true, shareConsent: true }]);
    } finally {
      await server.api('/api/admin/intake', { method: 'PUT', headers: { cookie: admin }, json: { required: false, questions: before.questions } });
    }
  });

  it('answers saved before the site asked the consent to collect say so on her record', async () => {
    const c = await createUser(server);
    expect((await save(c, { answers: answers() })).status).toBe(200);
    // As a row written before migration 0044 reads.
    await server.services.db.updateTable('intakeAnswers').set({ collectConsent: false }).where('userId', '=', c.id).execute();
    expect((await recordOf(c)).intake.consents.collect).toEqual({ given: false });
  });
});
