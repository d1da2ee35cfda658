/** The endpoint table's practice part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { deletionToken } from '../../../api/accounts/deletion-mails.ts';
import { plainGet, aboutClient, ownRoute, SIGNATURE, ERASE_WRITES, type Endpoint, byToken } from './common.ts';

/** Answers to the seeded intake form (contract/practice.ts), every required one given. */
const intakeAnswersExample = () => ({
  conditions: 'None',
  injuries: 'None',
  pregnant: false,
  hopes: 'A calmer back',
  'emergency-contact': 'Sam 555-0100',
  consent: true,
  signature: SIGNATURE,
});

export const PRACTICE_ENDPOINTS: Endpoint[] = [
  // --- practice: intake, notes, the client's record and data (issue 23) -----------------------
  // A client reading their own answers, and every read of a record, writes the access log.
  ownRoute('GET', '/api/user/:id/intake', ['privateAccessLog']),
  {
    method: 'PUT',
    route: '/api/user/:id/intake',
    auth: 'user',
    body: 'json',
    // The answers are checked against the form's questions (tests/api/practice/practice-intake.test.ts), and sealed: never stored as typed.
    // consents (issue 48): {collect?, share}, each true or false.
    fields: { version: { kind: 'number', required: true, role: 'match', bad: [0, -1, 1.5, 99999] }, answers: { kind: 'any' }, consents: { kind: 'object' } },
    writes: ['intakeAnswers', 'privateAccessLog'],
    example: async (fx) => {
      const user = await fx.user();
      const form = await fx.db.selectFrom('intakeForms').select('version').orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
      return { cookie: user.cookie, params: { id: user.id }, json: { version: form.version, answers: intakeAnswersExample() } };
    },
  },
  plainGet('/api/admin/intake', 'admin'),
  {
    method: 'PUT',
    route: '/api/admin/intake',
    auth: 'admin',
    body: 'json',
    fields: {
      // Issue 23's one switch, or issue 30's per session type (either may be left out).
      required: { kind: 'boolean' },
      requiredFor: { kind: 'any' },
      questions: { kind: 'array', required: true, bad: [[], [{ id: 'x' }], [{ id: 'x', type: 'choice', label: 'Pick', options: ['one'] }]] },
    },
    writes: ['intakeForms', 'settings'],
    example: async (fx) => {
      const form = await fx.db.selectFrom('intakeForms').select('questions').orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
      return { json: { required: false, questions: JSON.parse(form.questions) } };
    },
  },
  aboutClient('GET', '/api/admin/users/:id/record', ['privateAccessLog']),
  aboutClient('GET', '/api/admin/users/:id/access-log', []),
  {
    method: 'PUT',
    route: '/api/admin/bookings/:slotId/notes',
    auth: 'admin',
    body: 'json',
    // Sealed before it reaches the database (tests/api/practice/practice-records.test.ts): never found as typed, so 'lookup'.
    fields: { text: { kind: 'string', required: true, role: 'lookup' }, soap: { kind: 'any' } },
    writes: ['sessionNotes'],
    example: async (fx) => {
      const user = await fx.user();
      return { params: { slotId: await fx.bookedSlot(user.id) }, json: { text: 'Shoulders tight; better after twists.' } };
    },
  },
  ownRoute('GET', '/api/user/:id/export', ['privateAccessLog']),
  ownRoute('GET', '/api/user/:id/export/html', ['privateAccessLog']),
  ownRoute('POST', '/api/user/:id/delete-request', ['mails']),
  byToken('POST', '/api/user/delete-account', ERASE_WRITES, async (fx) => deletionToken(fx.server.env, (await fx.user()).id)),
  aboutClient('GET', '/api/admin/users/:id/export', ['privateAccessLog']),
  {
    method: 'POST',
    route: '/api/admin/users/:id/erase',
    auth: 'admin',
    body: 'none',
    writes: ERASE_WRITES,
    example: async (fx) => ({ params: { id: (await fx.user()).id } }),
  },
];
