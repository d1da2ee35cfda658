import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import type { ClientIntakeView } from '../../../contract/practice.ts';
import { SESSION_TYPE_WORDS } from '../../../contract/settings.ts';
import type { User } from '../../stores/user';

/** The intake's state where the client looks (issue 23): the dashboard's "Forms" line and the booking page's notice. */

export const intakeUrl = (userId: string) => `/api/user/${encodeURIComponent(userId)}/intake`;
export const intakePage = (userId: string) => `/user/${encodeURIComponent(userId)}/intake`;

/** The intake's view; `withAnswers: false` asks only whether it is required and done (nothing opened on the server). */
export function useIntake(userId: string, withAnswers = true) {
  const [view, setView] = useState<ClientIntakeView | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    request<ClientIntakeView>('GET', `${intakeUrl(userId)}${withAnswers ? '' : '?answers=0'}`, { session: 'user' })
      .then((r) => (r.ok ? setView(r.data) : setFailed(true)))
      .catch(() => setFailed(true));
  }, [userId, withAnswers]);
  return { view, setView, failed };
}

/** The dashboard's "Forms": the intake, Required or Completed, with its link. */
export function FormsStatus({ user }: { user: User }) {
  const { view } = useIntake(user.id, false);
  if (!view) return null;
  const state = view.completed ? 'Completed' : view.required ? 'Required' : 'Not filled in yet';
  return (
    <section aria-labelledby="forms-heading" data-forms>
      <h2 id="forms-heading">Forms</h2>
      <ul className="item-list">
        <li className="item" data-form="intake">
          <div>
            <strong>New Client Form</strong> (health history and consent):{' '}
            <span className={view.completed ? 'badge-done' : view.required ? 'badge-required' : 'muted'} data-form-state>
              {state}
            </span>
          </div>
          <a className="button button-small" href={intakePage(user.id)}>
            {view.completed ? 'View or update' : 'Fill in the form'}
          </a>
        </li>
      </ul>
    </section>
  );
}

/** The booking page's notice while the intake she requires is missing. */
export function IntakeNotice({ user }: { user: User }) {
  const { view } = useIntake(user.id, false);
  if (!view || view.missingFor.length === 0) return null;
  // Issue 30: the types whose first session waits for it (yoga therapy by default).
  const which = view.missingFor.length === Object.keys(view.requiredFor).length ? '' : `${view.missingFor.map((k) => SESSION_TYPE_WORDS[k]).join(' or ')} `;
  return (
    <div className="card intake-notice" role="note" data-intake-notice>
      <p>
        <strong>Before your first {which}session</strong>, please fill in the <a href={intakePage(user.id)}>intake form</a> (health history and consent).
        Booking a first session opens once it is done.
      </p>
    </div>
  );
}
