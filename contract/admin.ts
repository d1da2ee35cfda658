/** The administrator's login form (SPEC.md section 5: email and password required). */
import { z } from 'zod';
import { email } from './common.ts';

export const adminLogin = z.object({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    // Bounded so a huge "password" can't make the slow hash slower.
    .max(1024, 'Password is too long'),
  // Checked by the human check, which refuses a missing or wrong token with its own message.
  recaptchaToken: z.string().max(4096).optional(),
});
export type AdminLogin = z.input<typeof adminLogin>;

/** SPEC.md section 8: what the login form shows when the server gives no message. */
export const ADMIN_LOGIN_FAILED = 'Invalid email or password. Please try again.';

/** The administrator as the API shows them, and as the browser keeps them (localStorage `admin`, not secret). */
export interface AdminView {
  _id: string;
  email: string;
  name: string;
}

/** The answer of POST /api/admin/login, GET /api/admin/verify and POST /api/admin/refresh-token. */
export interface AdminSessionView {
  admin: AdminView;
  /** When the session ends (ISO instant): login and refresh only. */
  expiresAt?: string;
}
