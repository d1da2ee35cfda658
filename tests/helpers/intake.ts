/**
 * For the suites about payments, amounts and mails rather than the intake: she requires no
 * intake before a first session (issue 30's default requires it for yoga therapy; the gate's own
 * tests are tests/api/practice/practice-intake.test.ts), set as she would, through PUT /api/admin/intake.
 */
import type { TestServer } from './server.ts';
import { adminCookie } from './auth.ts';

export async function requireNoIntake(server: TestServer): Promise<void> {
  const cookie = await adminCookie(server);
  const form = await (await server.api('/api/admin/intake', { headers: { cookie } })).json();
  const res = await server.api('/api/admin/intake', {
    method: 'PUT',
    json: { requiredFor: { individualYoga: false, yogaTherapy: false }, questions: form.questions },
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`PUT /api/admin/intake: ${res.status}`);
}
