import { useState } from 'react';
import { adminScreen } from './AdminShell';
import {
  AdminTable,
  ExportLink,
  FilterNote,
  ModalDialog,
  byMonth,
  confirmAndDelete,
  formatDay,
  formatTime,
  formatWhen,
  PagedListing,
  useAdminList,
  usePagedList,
  useFocusRow,
  useListFilter,
} from './admin-ui';
import type { SignupRowView } from '../../../contract/signups.ts';
import type { WaitlistRowView } from '../../../contract/class-places.ts';
import { Listing } from '../Listing';

const COLUMNS = ['Date', 'Class Title', 'Name', 'Email', 'Phone', 'Actions'] as const;

function SignatureDialog(props: { signup: SignupRowView; onClose: () => void }) {
  const { signup } = props;
  const [failed, setFailed] = useState(false);
  return (
    <ModalDialog title={`Signature of ${signup.name}`} onClose={props.onClose} className="signature-dialog">
      <p className="muted">
        {signup.classTitle}, {formatDay(signup.date)}
      </p>
      {failed ? (
        <p role="alert">The signature could not be loaded.</p>
      ) : (
        <img
          className="signature-image"
          src={`/api/admin/signups/${encodeURIComponent(signup._id)}/signature`}
          alt={`Signature of ${signup.name}`}
          width={500}
          height={200}
          onError={() => setFailed(true)}
        />
      )}
    </ModalDialog>
  );
}

const WAITLIST_COLUMNS = ['Date', 'Time', 'Class Title', 'Place in line', 'Name', 'Email', 'Phone'] as const;

/** Each upcoming class's waitlist, first in line first (issue 15). */
function WaitlistPanel({ items }: { items: WaitlistRowView[] | null }) {
  return (
    <section className="admin-panel" aria-labelledby="waitlist-heading">
      <h2 id="waitlist-heading">Waitlists</h2>
      <Listing items={items} empty="No one is waiting for a place.">
        {(items) => (
          <AdminTable caption="Class waitlists" columns={WAITLIST_COLUMNS}>
            {items.map((w) => (
              <tr key={w._id} data-waitlist-row={w._id}>
                <td>{formatDay(w.date)}</td>
                <td>{formatTime(w.time)}</td>
                <td>{w.classTitle}</td>
                <td>{w.position}</td>
                <td>{w.name}</td>
                <td>
                  <a href={`mailto:${w.email}`}>{w.email}</a>
                </td>
                <td>{w.phone}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </Listing>
    </section>
  );
}

function SignupsPanel() {
  // The Today panel's "new sign-ups" link: those made since then.
  const filter = useListFilter();
  // A page at a time (issue 36): the server searches and filters, the list draws what came.
  const list = usePagedList<SignupRowView>('/api/admin/signups', { since: filter.since }, 'Failed to fetch class signups.');
  const { items, setItems, reload } = list;
  const waitlist = useAdminList<WaitlistRowView>('/api/admin/waitlist', 'Failed to fetch the waitlists.');
  const [viewing, setViewing] = useState<SignupRowView | null>(null);
  // A Today item's sign-up (issue 30): scrolled to and marked once the list is drawn.
  const { rowProps } = useFocusRow(items !== null);

  async function remove(s: SignupRowView) {
    if (
      !(await confirmAndDelete(`/api/signup/${encodeURIComponent(s._id)}`, 'Failed to delete signup.', `Delete the sign-up of ${s.name} for ${s.classTitle}?`))
    )
      return;
    setItems((list) => (list ?? []).filter((x) => x._id !== s._id));
    // The freed place may have gone to the first on the class's waitlist: show both lists as they are now.
    await Promise.all([reload(), waitlist.reload()]);
  }

  return (
    <section className="admin-panel" aria-labelledby="signups-heading">
      <h2 id="signups-heading">Class sign-ups</h2>
      <ExportLink name="signups" label="sign-ups" />
      {filter.since && <FilterNote>Sign-ups made since {formatWhen(filter.since)}.</FilterNote>}
      <PagedListing list={list} search="Search sign-ups by name, e-mail or class" empty="No signups found." noun={['sign-up', 'sign-ups']}>
        {(shown) => (
          <AdminTable
            caption="Class sign-ups"
            columns={COLUMNS}
            groups={byMonth(shown, (s) => s.date.slice(0, 7)).map((g) => ({
              key: g.key,
              label: g.label,
              rows: g.items.map((s) => (
                <tr key={s._id} data-signup-row={s._id} {...rowProps(s._id)}>
                  <td>{formatDay(s.date)}</td>
                  <td>{s.classTitle}</td>
                  <td>{s.name}</td>
                  <td>
                    <a href={`mailto:${s.email}`}>{s.email}</a>
                  </td>
                  <td>{s.phone}</td>
                  <td>
                    <div className="row-actions">
                      {/* The spec fixes the columns: the accepted waiver's version sits with the signature. */}
                      {s.waiverRevision && (
                        <span
                          className="waiver-version"
                          title={s.waiverHash ? `Waiver text fingerprint ${s.waiverHash.slice(0, 12)}` : undefined}
                          data-waiver-version={s.waiverRevision}
                        >
                          Waiver v{s.waiverRevision}
                        </span>
                      )}
                      {s.hasSignature && (
                        <button className="button button-quiet button-small" type="button" onClick={() => setViewing(s)}>
                          View signature<span className="sr-only"> of {s.name}</span>
                        </button>
                      )}
                      <button className="button danger button-small" type="button" onClick={() => void remove(s)}>
                        Delete<span className="sr-only"> sign-up of {s.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              )),
            }))}
          />
        )}
      </PagedListing>
      {viewing && <SignatureDialog signup={viewing} onClose={() => setViewing(null)} />}
      <WaitlistPanel items={waitlist.items} />
    </section>
  );
}

export default adminScreen('/admin/signups', 'Classes', SignupsPanel);
