import { useEffect, useState, type FormEvent } from 'react';
import { classFromQuery, newStudentHref } from '../lib/query';
import { paidEventOf, priceWords } from '../lib/event-price';
import type { EventView } from '../../contract/events.ts';
import { confirmDialog, showAlert } from '../lib/alert';
import { JOIN_WAITLIST } from '../../contract/class-places.ts';
import { useSend } from './useForm';
import { useHydrated } from './useHydrated';

/** /signup-selection: a returning student signs up by e-mail; a new student goes to /signup. */
export default function SignupSelection() {
  const [cls, setCls] = useState({ title: '', date: '', location: '' });
  const { sending, send } = useSend();
  const hydrated = useHydrated();
  // A paid event (issue 34) is signed up for and paid on the sign-up form, returning student or not.
  const [paid, setPaid] = useState<EventView | null>(null);
  useEffect(() => {
    const c = classFromQuery();
    setCls(c);
    void paidEventOf(c.title, c.date).then(setPaid);
  }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // Read at submit: an address typed before hydration still counts.
    const email = String(new FormData(form).get('email') ?? '');
    if (!email.trim()) {
      await showAlert({ icon: 'warning', title: 'Email Required', text: 'Please enter your email address.' });
      // The field in error gets the focus once the dialog has given it back (issue 15).
      form.querySelector<HTMLInputElement>('#returning-email')?.focus();
      return;
    }
    await send(
      '/api/check-student',
      { email: email.trim(), classTitle: cls.title, date: cls.date },
      async (res) => {
        const message = res.data.message ?? '';
        if (res.ok) {
          form.reset();
          await showAlert({ icon: 'success', title: 'Registration confirmed!', text: 'Check your email for details.' });
          window.location.assign('/calendar');
        } else if (message.includes("email doesn't exist")) {
          // SPEC.md section 8 keys this on the message, not the status: a class that is gone is a 404 too.
          await showAlert({ icon: 'info', title: 'Student Not Found', text: message });
        } else if (message.includes('already')) {
          await showAlert({ icon: 'info', title: 'Already Signed Up', text: message });
        } else if (res.status === 409) {
          // check-student's only 409: the class is full ('already' is its 400).
          // The waitlist takes the same waiver and signature as a sign-up: the new student's form, in waitlist mode.
          const join = await confirmDialog({
            title: 'Class Full',
            text: `${message} Join its waitlist? When a place comes free, the first in line gets it and an e-mail.`,
            confirmText: JOIN_WAITLIST,
            cancelText: 'Not now',
          });
          if (join) window.location.assign(`${newStudentHref(cls)}&waitlist=1`);
        } else if ((res.status === 400 || res.status === 404) && message) {
          await showAlert({ icon: 'error', title: 'Sign-Up Failed', text: message });
        } else {
          await showAlert({ icon: 'error', title: 'Sign-Up Failed', text: 'Unexpected error. Please try again.' });
        }
      },
      () => showAlert({ icon: 'error', title: 'Sign-Up Failed', text: 'Server error. Please try again.' }),
    );
  }

  const when = cls.date
    ? new Date(`${cls.date}T12:00:00`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })
    : '';
  return (
    <div className="grid grid-2">
      <section className="card" aria-labelledby="class-heading">
        <h2 id="class-heading">{cls.title || 'Your class'}</h2>
        {when && <p>{when}</p>}
        {cls.location && <p>{cls.location}</p>}
      </section>
      {paid ? (
        <section className="card" aria-labelledby="paid-heading" data-paid-event>
          <h2 id="paid-heading">Sign up and pay</h2>
          <p>
            A place costs {priceWords(paid)}. Choose what you pay, sign the waiver and pay on the sign-up form, whether or not you have been to a class with me
            before.
          </p>
          <p>
            <a className="button" href={newStudentHref(cls)}>
              Sign up and pay
            </a>
          </p>
        </section>
      ) : (
        <div className="grid">
          <form className="card form" onSubmit={submit} noValidate aria-labelledby="returning-heading">
            <h2 id="returning-heading">Returning student</h2>
            <p>Signed a waiver with me before? Enter your e-mail and you're in.</p>
            <div className="field">
              <label htmlFor="returning-email">Email</label>
              <input id="returning-email" name="email" type="email" autoComplete="email" />
            </div>
            <div>
              <button className="button" type="submit" disabled={!hydrated || sending}>
                {sending ? 'Signing up...' : 'Sign Up'}
              </button>
            </div>
          </form>
          <section className="card" aria-labelledby="new-heading">
            <h2 id="new-heading">New student</h2>
            <p>First class with me? Welcome! Fill in a short form and sign the liability waiver.</p>
            <p>
              <a className="button" href={newStudentHref(cls)}>
                I'm a new student
              </a>
            </p>
          </section>
        </div>
      )}
    </div>
  );
}
