/**
 * Her session notes and the private records' protection (issue 23), on PGlite and PostgreSQL:
 * notes are hers alone (a client, a visitor and another client's session get nothing), edits
 * keep the history; the client's page shows contact, intake, sessions with notes and payments;
 * each read of it adds exactly one line to the access log; a dump of the database (pg_dump on
 * PostgreSQL, the raw files of the data folder on PGlite) holds no trace of a marker written in
 * an answer or a note, while a marker in a plain column is found (the search works); nothing of
 * it reaches the server's console; `npm run rotate-keys` re-seals every record and a second run
 * changes nothing; a server given a key that can't open the records refuses to start and says
 * why; production refuses to start without a key.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freeSlotTime } from '../../helpers/slots.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { EnvError, loadEnv } from '../../../api/env.ts';
import { startServer, type RunningServer } from '../../../api/server.ts';
import { rotateKeys } from '../../../api/practice/rotate.ts';
import { keyringOf, open, seal } from '../../../api/lib/keys.ts';
import { type TestServer, useTestServer } from '../../helpers/server.ts';
import { freshDatabase, testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { productionEnv } from '../../helpers/production-env.ts';
import { SIGNATURE } from '../../helpers/endpoints.ts';
import { itemAt } from '../../helpers/guards.ts';

const kind = testDbKind();
const server = useTestServer({ resetRateLimits: true });
let admin: string;
beforeAll(async () => {
  admin = await adminCookie(server);
});

const YOGA = 'Yoga Therapy Session (60 min)';
async function bookedSlot(s: { services: RunningServer['services']; env: RunningServer['env'] }, userId: string, days = 3, amountCents: number | null = 6000) {
  const { date, time } = freeSlotTime(s.env.SITE_TIMEZONE, days);
  return s.services.db
    .insertInto('slots')
    .values({
      date,
      time,
      startsAt: zonedInstant(date, time, s.env.SITE_TIMEZONE),
      bookedBy: userId,
      bookedAt: new Date(),
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@example.com',
      sessionType: YOGA,
      message: '',
      amountCents,
      couponUsed: amountCents === null,
    })
    .returning(['id', 'date', 'time'])
    .executeTakeFirstOrThrow();
}

const answers = (marker: string) => ({
  conditions: `Migraines ${marker}`,
  injuries: 'None',
  pregnant: false,
  hopes: 'Sleep better',
  'emergency-contact': 'Sam 555-0100',
  consent: true,
  signature: SIGNATURE,
});

type Api = (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
const apiOf =
  (base: string): Api =>
  (path, init = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${base}${path}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };

async function writeIntake(api: Api, client: { id: string; cookie: string }, marker: string) {
  const { version } = await (await api(`/api/user/${client.id}/intake`, { headers: { cookie: client.cookie } })).json();
  const res = await api(`/api/user/${client.id}/intake`, { method: 'PUT', json: { version, answers: answers(marker) }, headers: { cookie: client.cookie } });
  expect(res.status).toBe(200);
}

describe(`session notes and the client's page on ${kind}`, () => {
  it('only the admin writes and reads notes; an edit keeps the history; the page shows contact, intake, sessions and payments', async () => {
    const a = await createUser(server, { firstName: 'Ana', lastName: 'Lima' });
    const b = await createUser(server);
    const past = await bookedSlot(server, a.id, -2, 6000);
    const coming = await bookedSlot(server, a.id, 4, null);
    const others = await bookedSlot(server, b.id, 5);
    await writeIntake(server.api, a, 'ana-intake');

    const put = (slotId: string, json: unknown, cookie = admin) =>
      server.api(`/api/admin/bookings/${slotId}/notes`, { method: 'PUT', json, headers: { cookie } });
    expect((await put(past.id, { text: 'Shoulders tight; breath short.' })).status).toBe(200);
    const edited = await put(past.id, {
      text: 'Shoulders tight; breath short. Better after twists.',
      soap: { subjective: 'Tired', objective: 'Low energy', assessment: 'Stress', plan: 'Restorative' },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ message: 'Note saved.' });
    expect((await put(others.id, { text: 'B only' })).status).toBe(200);

    // Refused: a client (even the session's own), a visitor, an empty note, an unknown or free slot.
    expect((await put(past.id, { text: 'client writes' }, a.cookie)).status).toBe(401);
    expect((await server.api(`/api/admin/bookings/${past.id}/notes`, { method: 'PUT', json: { text: 'x' } })).status).toBe(401);
    expect((await put(past.id, { text: '   ' })).status).toBe(400);
    expect((await put('no-such-slot', { text: 'x' })).status).toBe(404);

    const record = await (await server.api(`/api/admin/users/${a.id}/record`, { headers: { cookie: admin } })).json();
    expect(record.client).toMatchObject({ id: a.id, email: a.email, firstName: 'Ana', lastName: 'Lima' });
    expect(record.intake.latest.answers.conditions).toBe('Migraines ana-intake');
    expect(record.sessions.map((s: { slotId: string }) => s.slotId)).toEqual([past.id, coming.id]);
    const pastView = record.sessions[0];
    expect(pastView.past).toBe(true);
    expect(pastView.note).toMatchObject({ text: 'Shoulders tight; breath short. Better after twists.', soap: { plan: 'Restorative' } });
    expect(pastView.history.map((h: { text: string }) => h.text)).toEqual(['Shoulders tight; breath short.']);
    expect(record.sessions[1]).toMatchObject({ past: false, couponUsed: true, history: [] });
    expect(record.sessions[1].note).toBeUndefined();
    // The session's day and time apart, for the page to write in words (issue 50: never ISO in the line).
    expect(record.payments).toEqual([expect.objectContaining({ kind: 'session', amountCents: 6000, session: { date: past.date, time: past.time } })]);
    expect(record.payments[0].what).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{2}:\d{2}/);
    expect(JSON.stringify(record)).not.toContain('B only');

    // The client reads their intake, never her notes.
    const own = await (await server.api(`/api/user/${a.id}/intake`, { headers: { cookie: a.cookie } })).text();
    expect(own).toContain('ana-intake');
    expect(own).not.toContain('Shoulders');
  });

  it('a note follows its session when the client reschedules: every version at the new time, nothing left at the old one (issue 30)', async () => {
    const a = await createUser(server, { firstName: 'Ana', lastName: 'Lima' });
    const booked = await bookedSlot(server, a.id, 6, null);
    const date = addDays(zonedNow(server.env.SITE_TIMEZONE).date, 8);
    const free = await server.services.db
      .insertInto('slots')
      .values({ date, time: '11:00', startsAt: zonedInstant(date, '11:00', server.env.SITE_TIMEZONE) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const put = (text: string) => server.api(`/api/admin/bookings/${booked.id}/notes`, { method: 'PUT', json: { text }, headers: { cookie: admin } });
    expect((await put('Plan: gentle hips.')).status).toBe(200);
    expect((await put('Plan: gentle hips, then breath.')).status).toBe(200);

    const moved = await server.api(`/api/bookings/${booked.id}/reschedule`, { method: 'POST', json: { toSlotId: free.id }, headers: { cookie: a.cookie } });
    expect(moved.status).toBe(200);

    const record = await (await server.api(`/api/admin/users/${a.id}/record`, { headers: { cookie: admin } })).json();
    expect(record.sessions.map((s: { slotId: string }) => s.slotId)).toEqual([free.id]);
    expect(record.sessions[0]).toMatchObject({ date, time: '11:00', note: { text: 'Plan: gentle hips, then breath.' } });
    expect(record.sessions[0].history.map((h: { text: string }) => h.text)).toEqual(['Plan: gentle hips.']);
    // A new note of the moved session is written at its new slot and read there.
    expect(
      (await server.api(`/api/admin/bookings/${free.id}/notes`, { method: 'PUT', json: { text: 'Came; hips easier.' }, headers: { cookie: admin } })).status,
    ).toBe(200);
    const after = await (await server.api(`/api/admin/users/${a.id}/record`, { headers: { cookie: admin } })).json();
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions[0].note.text).toBe('Came; hips easier.');
  });

  it('writes one access-log line per read of the record, and none for a refused read', async () => {
    const client = await createUser(server);
    await writeIntake(server.api, client, 'logged');
    const log = async () =>
      (await (await server.api(`/api/admin/users/${client.id}/access-log`, { headers: { cookie: admin } })).json()).entries as { who: string; what: string }[];
    const adminReads = async () => (await log()).filter((e) => e.who === 'admin').length;
    expect(await adminReads()).toBe(0);
    for (let i = 1; i <= 3; i++) {
      expect((await server.api(`/api/admin/users/${client.id}/record`, { headers: { cookie: admin } })).status).toBe(200);
      expect(await adminReads()).toBe(i);
    }
    // Reading the log is not a read of the record; refused reads log nothing.
    expect(await adminReads()).toBe(3);
    expect((await server.api(`/api/admin/users/${client.id}/record`, { headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api(`/api/admin/users/${client.id}/record`)).status).toBe(401);
    expect((await server.api('/api/admin/users/no-such-client/record', { headers: { cookie: admin } })).status).toBe(404);
    expect(await adminReads()).toBe(3);
    expect((await log())[0]).toMatchObject({ who: 'admin', what: 'client record' });

    // The client opening their answers is a read too; asking only whether the form is done is not.
    const before = (await log()).length;
    const status = await (await server.api(`/api/user/${client.id}/intake?answers=0`, { headers: { cookie: client.cookie } })).json();
    expect(status).toMatchObject({ completed: true });
    expect(status.answers).toBeUndefined();
    expect((await log()).length).toBe(before);
    const own = await (await server.api(`/api/user/${client.id}/intake`, { headers: { cookie: client.cookie } })).json();
    expect(own.answers.conditions).toBe('Migraines logged');
    expect((await log())[0]).toMatchObject({ who: 'client', what: 'their intake answers' });
    expect((await log()).length).toBe(before + 1);
  });
});

// ---------------------------------------------------------------------------------------------
// One database, several starts: the dump, the rotation, the wrong key.

const key = () => randomBytes(32).toString('base64');

async function persistentDatabase(): Promise<{ env: Record<string, string | undefined>; dir: string | undefined; drop(): Promise<void> }> {
  if (kind === 'postgres') {
    const fresh = await freshDatabase('postgres');
    return { env: fresh.env, dir: undefined, drop: fresh.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'practice-db-'));
  return { env: { PGLITE_DIR: join(dir, 'pglite') }, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function start(dbEnv: Record<string, string | undefined>, extra: Record<string, string>) {
  const env = loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', ...dbEnv, ...extra });
  const running = await startServer(env, { site: false, seedContent: false });
  return { running, api: apiOf(`http://127.0.0.1:${running.port}`) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Everything the database holds, as bytes an attacker with a dump or the disk would have. */
function dumpOf(database: Awaited<ReturnType<typeof persistentDatabase>>): Buffer {
  if (kind === 'postgres')
    return execFileSync('/usr/lib/postgresql/15/bin/pg_dump', ['--no-owner', database.env.DATABASE_URL!], { maxBuffer: 512 * 1024 * 1024 });
  return Buffer.concat(filesUnder(database.dir!).map((f) => readFileSync(f)));
}

describe(`the private records at rest on ${kind}`, () => {
  it('a dump holds no marker written in an answer or a note, and none reaches the console', async () => {
    const database = await persistentDatabase();
    const marker = `zq-private-${randomBytes(6).toString('hex')}`;
    const control = `zq-plain-${randomBytes(6).toString('hex')}`;
    const logged: string[] = [];
    const spies = (['log', 'error', 'warn', 'info'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    try {
      const { running, api } = await start(database.env, { PRIVATE_RECORDS_KEY: key() });
      const fake = { services: running.services, env: running.env } as unknown as TestServer;
      const client = await createUser(fake);
      await running.services.db.updateTable('users').set({ city: control }).where('id', '=', client.id).execute();
      await writeIntake(api, client, `${marker}-answer`);
      const slot = await bookedSlot(running, client.id, -1);
      const cookie = await adminCookie(fake);
      expect(
        (await api(`/api/admin/bookings/${slot.id}/notes`, { method: 'PUT', json: { text: `Session went well ${marker}-note` }, headers: { cookie } })).status,
      ).toBe(200);
      // Readable through the API…
      const record = await (await api(`/api/admin/users/${client.id}/record`, { headers: { cookie } })).text();
      expect(record).toContain(`${marker}-answer`);
      expect(record).toContain(`${marker}-note`);
      await running.close();
    } finally {
      for (const s of spies) s.mockRestore();
    }
    try {
      // … and nowhere in the dump: the plain column's marker is found (the search works), the private ones are not.
      const dump = dumpOf(database);
      expect(dump.includes(Buffer.from(control)), 'the control marker in a plain column').toBe(true);
      expect(dump.includes(Buffer.from(marker))).toBe(false);
      expect(dump.includes(Buffer.from('Migraines'))).toBe(false);
      expect(logged.join('\n')).not.toContain(marker);
    } finally {
      await database.drop();
    }
  });

  it('rotate-keys re-seals every record with the new key, a second run changes nothing, and the old key can go', async () => {
    const database = await persistentDatabase();
    const oldKey = key();
    const newKey = key();
    try {
      const first = await start(database.env, { PRIVATE_RECORDS_KEY: oldKey });
      const fake = { services: first.running.services, env: first.running.env } as unknown as TestServer;
      const clients = [await createUser(fake), await createUser(fake)];
      const cookie = await adminCookie(fake);
      for (const [i, c] of clients.entries()) {
        await writeIntake(first.api, c, `rotate-${i}`);
        await writeIntake(first.api, c, `rotate-${i}-again`);
        const slot = await bookedSlot(first.running, c.id, -1);
        await first.api(`/api/admin/bookings/${slot.id}/notes`, { method: 'PUT', json: { text: `note ${i}` }, headers: { cookie } });
      }
      const rowsOf = async (db: RunningServer['services']['db']) => ({
        answers: await db.selectFrom('intakeAnswers').select(['id', 'keyId', 'sealed']).orderBy('id').execute(),
        notes: await db.selectFrom('sessionNotes').select(['id', 'keyId', 'sealed']).orderBy('id').execute(),
      });
      const before = await rowsOf(first.running.services.db);
      expect(new Set([...before.answers, ...before.notes].map((r) => r.keyId)).size).toBe(1);
      // Her Google Calendar token, sealed with the same key (issue 35).
      const sealedToken = seal(keyringOf(first.running.env), 'calendar_connections:google:refresh_token', '1//her-token');
      await first.running.services.db
        .insertInto('calendarConnections')
        .values({ accountEmail: 'her@example.com', refreshTokenSealed: sealedToken.sealed, keyId: sealedToken.keyId, channelToken: 'x' })
        .execute();
      await first.running.close();

      const rotateEnv = loadEnv({ NODE_ENV: 'test', QUIET: '1', ...database.env, PRIVATE_RECORDS_KEY: newKey, PRIVATE_RECORDS_OLD_KEYS: oldKey });
      const done = await rotateKeys(rotateEnv);
      expect(done).toMatchObject({ answers: 4, notes: 2, calendarTokens: 1 });
      const again = await rotateKeys(loadEnv({ NODE_ENV: 'test', QUIET: '1', ...database.env, PRIVATE_RECORDS_KEY: newKey, PRIVATE_RECORDS_OLD_KEYS: oldKey }));
      expect(again).toMatchObject({ answers: 0, notes: 0, calendarTokens: 0 });

      // With the new key alone: every record opens, each row re-sealed, none left under the old id.
      const second = await start(database.env, { PRIVATE_RECORDS_KEY: newKey });
      const after = await rowsOf(second.running.services.db);
      expect(after.answers.map((r) => r.id)).toEqual(before.answers.map((r) => r.id));
      for (const [i, r] of after.answers.entries()) {
        expect(r.keyId).toBe(done.keyId);
        expect(r.sealed).not.toBe(itemAt(before.answers, i).sealed);
      }
      for (const r of after.notes) expect(r.keyId).toBe(done.keyId);
      const cookie2 = await adminCookie({ services: second.running.services } as unknown as TestServer);
      const record = await (await second.api(`/api/admin/users/${itemAt(clients, 1).id}/record`, { headers: { cookie: cookie2 } })).json();
      expect(record.intake.latest.answers.conditions).toBe('Migraines rotate-1-again');
      expect(record.sessions[0].note.text).toBe('note 1');
      const token = await second.running.services.db.selectFrom('calendarConnections').select(['keyId', 'refreshTokenSealed']).executeTakeFirstOrThrow();
      expect(token.keyId).toBe(done.keyId);
      expect(open(keyringOf(second.running.env), 'calendar_connections:google:refresh_token', token.keyId, token.refreshTokenSealed)).toBe('1//her-token');
      const third = await rowsOf(second.running.services.db);
      expect(third).toEqual(after);
      await second.running.close();

      // The old key alone no longer opens them: refused at start.
      await expect(start(database.env, { PRIVATE_RECORDS_KEY: oldKey })).rejects.toThrow(/can't open the private records/);
    } finally {
      await database.drop();
    }
  });

  it('refuses to start with a key that is not the one the records were written with, and says why (an empty database takes any key)', async () => {
    const database = await persistentDatabase();
    try {
      // Before any private record exists, another key is no loss: it starts (a database restored elsewhere).
      const empty = await start(database.env, { PRIVATE_RECORDS_KEY: key() });
      await empty.running.close();
      const first = await start(database.env, { PRIVATE_RECORDS_KEY: key() });
      const fake = { services: first.running.services, env: first.running.env } as unknown as TestServer;
      await writeIntake(first.api, await createUser(fake), 'wrong-key');
      await first.running.close();
      let error: unknown;
      try {
        const started = await start(database.env, { PRIVATE_RECORDS_KEY: key() });
        await started.running.close();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as Error).message).toMatch(/PRIVATE_RECORDS_KEY can't open the private records stored in this database/);
      expect((error as Error).message).not.toContain('wrong-key');
    } finally {
      await database.drop();
    }
  });

  it('production refuses to start without a key, or with one that is not 32 bytes', () => {
    const without = { ...productionEnv() } as Record<string, string | undefined>;
    delete without.PRIVATE_RECORDS_KEY;
    expect(() => loadEnv(without)).toThrow(/PRIVATE_RECORDS_KEY/);
    expect(() => loadEnv({ ...productionEnv(), PRIVATE_RECORDS_KEY: randomBytes(16).toString('base64') })).toThrow(/PRIVATE_RECORDS_KEY .*32 random bytes/);
    expect(loadEnv(productionEnv()).PRIVATE_RECORDS_KEY).toBeTruthy();
  });
});
