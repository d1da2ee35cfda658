import { SIGNATURE } from './endpoints/common.ts';

/**
 * The class sign-up form's body (POST /api/signup, /api/waitlist) for `cls`: Ana Lima, waiver
 * signed, the dev reCAPTCHA token of a sign-up. `fields` replace or add any field.
 */
export const classForm = (cls: { title: string; date: string }, fields: Record<string, unknown> = {}) => ({
  name: 'Ana Lima',
  email: 'ana@example.com',
  phone: '123-456-7890',
  classTitle: cls.title,
  date: cls.date,
  waiver: true,
  signature: SIGNATURE,
  recaptchaToken: 'dev:signup_form_submit',
  ...fields,
});
