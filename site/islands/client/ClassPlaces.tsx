import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { classDateTime } from '../../lib/calendar';
import { publicConfig } from '../../lib/config';
import type { User } from '../../stores/user';
import type { ClassPlaceView } from '../../../contract/class-places.ts';
import { Listing } from '../Listing';

/**
 * My class places: the upcoming classes signed up for with the account's e-mail, each with
 * Give back (the same as the mail's link; the server checks the session and the e-mail).
 */
export default function ClassPlaces({ user }: { user: User }) {
  const [places, setPlaces] = useState<ClassPlaceView[] | null>(null);
  const [zone, setZone] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | null>(null);
  const base = `/api/user/${encodeURIComponent(user.id)}/classes`;

  useEffect(() => {
    request<ClassPlaceView[]>('GET', base, { session: 'user' })
      .then((r) => setPlaces(r.ok && Array.isArray(r.data) ? r.data : []))
      .catch(() => setPlaces([]));
    publicConfig().then(
      (c) => setZone(c.timezone),
      () => {},
    );
  }, [base]);

  async function giveBack(p: ClassPlaceView) {
    if (busy) return;
    const sure = await confirmDialog({
      title: 'Give this place back?',
      text: `${p.classTitle}, ${classDateTime(p.startsAt, zone)}. Someone on the waitlist may get it at once.`,
      confirmText: 'Yes, give it back',
      cancelText: 'Keep my place',
    });
    if (!sure) return;
    setBusy(p._id);
    try {
      const res = await request<{ alreadyGivenBack?: boolean }>('POST', `${base}/${encodeURIComponent(p._id)}/cancel`, { session: 'user' });
      if (res.ok) {
        setPlaces((list) => (list ?? []).filter((x) => x._id !== p._id));
        await showAlert({ icon: 'success', title: 'Place given back', text: res.data.message ?? '' });
      } else {
        await showAlert({ icon: 'error', title: 'Not Given Back', text: res.data.message || 'Please try again later.' });
      }
    } catch {
      await showAlert({ icon: 'error', title: 'Not Given Back', text: 'Server error. Please try again.' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="class-places-heading">
      <h2 id="class-places-heading">My Classes</h2>
      <Listing
        items={places}
        empty={
          <p>
            No upcoming classes under {user.email}. <a href="/calendar">See the class calendar</a>.
          </p>
        }
      >
        {(places) => (
          <ul className="item-list">
            {places.map((p) => (
              <li key={p._id} className="item" data-class-place={p._id}>
                <div>
                  <strong>{p.classTitle}</strong> {classDateTime(p.startsAt, zone)}
                  {p.location && ` · ${p.location}`}
                </div>
                <button className="button button-quiet button-small" type="button" disabled={busy !== null} onClick={() => void giveBack(p)}>
                  {busy === p._id ? 'Giving back…' : 'Give back'}
                  <span className="sr-only"> my place in {p.classTitle}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </section>
  );
}
