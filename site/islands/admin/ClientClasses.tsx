import { useId } from 'react';
import { formatDay, useAdminList } from './admin-ui';
import { attendanceWords, rosterPath, type ClientClassView } from '../../../contract/roster.ts';

/**
 * The classes a client signed up for (matched by their e-mail), on their page (issue 34): each
 * with what the roster says of it, attended or no-show, and the tally; a class still on the
 * calendar opens its roster.
 */
export default function ClientClasses({ clientId }: { clientId: string }) {
  const headingId = useId();
  const { items } = useAdminList<ClientClassView>(`/api/admin/users/${encodeURIComponent(clientId)}/classes`, 'Failed to load the client’s classes.');
  const came = items?.filter((c) => c.attendance === 'present').length ?? 0;
  const missed = items?.filter((c) => c.attendance === 'noShow').length ?? 0;
  return (
    <section className="admin-panel" aria-labelledby={headingId} data-client-classes>
      <h2 id={headingId}>Classes</h2>
      {!items ? (
        <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p>No class sign-ups.</p>
      ) : (
        <>
          <p data-attendance-tally>
            {came} attended · {missed} no-show
          </p>
          <ul className="plain-list">
            {items.map((c) => {
              const when = formatDay(c.date, c.time ?? undefined);
              return (
                <li key={c._id} data-client-class={c._id}>
                  {c.eventId ? <a href={rosterPath(c.eventId)}>{c.classTitle}</a> : c.classTitle}, {when}: <strong>{attendanceWords(c)}</strong>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
