import { useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import {
  AdminTable,
  ExportLink,
  FilterNote,
  byMonth,
  formatWhen,
  AdminForm,
  monthOfInstant,
  send,
  PagedListing,
  usePagedList,
  useFocusRow,
  useListFilter,
} from './admin-ui';
import type { AdminUserView } from '../../../contract/user.ts';
import { ERASE_ACCOUNT_CONFIRM } from '../../../contract/practice.ts';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { Checkbox, EmailInput, PhoneInput, TextInput } from '../Field';
import type { NewClient } from '../../../contract/packages.ts';

const COLUMNS = ['#', 'First Name', 'Last Name', 'Preferred Name', 'Pronoun', 'Email', 'Phone', 'Location', 'Zip', 'User Since', 'Actions'] as const;

const who = (u: AdminUserView) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

/**
 * A client she adds by hand (issue 32): one who books by phone or pays in person. No mail unless
 * she ticks the welcome (a login link); the new client's page opens from the answer's link.
 */
function AddClient(props: { onAdded: () => void }) {
  const id = useId();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [welcome, setWelcome] = useState(false);
  const [added, setAdded] = useState<{ id: string; name: string } | null>(null);

  async function add() {
    const body: NewClient = { firstName, lastName, email, phone, sendWelcome: welcome };
    const made = await send<{ _id: string }>('POST', '/api/admin/users', body, 'Could not add the client');
    if (!made) return;
    setAdded({ id: made._id, name: `${firstName} ${lastName}`.trim() });
    setFirstName('');
    setLastName('');
    setEmail('');
    setPhone('');
    setWelcome(false);
    props.onAdded();
  }

  const status = added && (
    <>
      {added.name} added. <a href={`/admin/client?id=${encodeURIComponent(added.id)}`}>Open {added.name}’s page</a>
    </>
  );
  return (
    <AdminForm label="Add a client" submit="Add client" onSubmit={() => void add()} status={status}>
      <div className="form-row">
        <TextInput id={`${id}-first`} label="First name" autoComplete="off" required value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        <TextInput id={`${id}-last`} label="Last name" autoComplete="off" required value={lastName} onChange={(e) => setLastName(e.target.value)} />
      </div>
      <div className="form-row">
        <EmailInput id={`${id}-email`} autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        <PhoneInput id={`${id}-phone`} label="Phone (optional)" autoComplete="off" required={false} value={phone} onChange={(e) => setPhone(e.target.value)} />
      </div>
      <Checkbox label="Send a welcome mail" checked={welcome} onChange={(e) => setWelcome(e.target.checked)} />
    </AdminForm>
  );
}

function UsersPanel() {
  // The Today panel's "new clients" link: those registered since then.
  const filter = useListFilter();
  // A page at a time (issue 36): the server searches and filters, the list draws what came.
  const list = usePagedList<AdminUserView>('/api/admin/users', { since: filter.since }, 'Failed to fetch users.');
  const { items, setItems, reload } = list;
  // A Today item's client (issue 30): scrolled to and marked once the list is drawn.
  const { rowProps } = useFocusRow(items !== null);

  // The same erasure as the client's page (issue 29): everything about them goes, the money
  // records stay for the books without their name.
  async function remove(u: AdminUserView) {
    if (!(await confirmDialog({ title: `Delete ${who(u)}’s account?`, text: ERASE_ACCOUNT_CONFIRM }))) return;
    let res;
    try {
      res = await request<{ message: string }>('DELETE', `/api/admin/users/${encodeURIComponent(u._id)}`, { session: 'admin' });
    } catch {
      await showAlert({ icon: 'error', title: 'Failed to delete user.', text: 'The server could not be reached. Please try again.' });
      return;
    }
    if (!res.ok) {
      await showAlert({ icon: 'error', title: 'Failed to delete user.', text: res.data.message });
      return;
    }
    setItems((list) => (list ?? []).filter((x) => x._id !== u._id));
  }

  // The list comes newest first, numbered as it came.
  const number = new Map((items ?? []).map((u, i) => [u._id, i + 1]));

  return (
    <>
      <section className="admin-panel" aria-labelledby="add-client-heading">
        <h2 id="add-client-heading">Add a client</h2>
        <AddClient onAdded={() => void reload()} />
      </section>
      <section className="admin-panel" aria-labelledby="users-heading">
        <h2 id="users-heading">Clients</h2>
        <ExportLink name="clients" label="clients" />
        {filter.since && <FilterNote>Clients registered since {formatWhen(filter.since)}.</FilterNote>}
        <PagedListing list={list} search="Search clients by name or e-mail" empty="No users found." noun={['client', 'clients']}>
          {(shown) => (
            <AdminTable
              caption="Clients"
              columns={COLUMNS}
              groups={byMonth(shown, (u) => monthOfInstant(u.createdAt)).map((g) => ({
                key: g.key,
                label: `Joined in ${g.label}`,
                rows: g.items.map((u) => (
                  <tr key={u._id} data-user-row={u._id} {...rowProps(u._id)}>
                    <td>{number.get(u._id)}</td>
                    <td>{u.firstName}</td>
                    <td>{u.lastName}</td>
                    <td>{u.preferredName}</td>
                    <td>{u.pronoun}</td>
                    <td>
                      <a href={`mailto:${u.email}`}>{u.email}</a>
                    </td>
                    <td>{u.phone}</td>
                    <td>{u.city}</td>
                    <td>{u.zipcode}</td>
                    <td>{formatWhen(u.createdAt)}</td>
                    <td className="row-actions">
                      <a className="button button-quiet button-small" href={`/admin/client?id=${encodeURIComponent(u._id)}`}>
                        Record<span className="sr-only"> of {who(u)}</span>
                      </a>
                      <button className="button danger button-small" type="button" onClick={() => void remove(u)}>
                        Delete<span className="sr-only"> {who(u)}</span>
                      </button>
                    </td>
                  </tr>
                )),
              }))}
            />
          )}
        </PagedListing>
      </section>
    </>
  );
}

export default adminScreen('/admin/users', 'Clients', UsersPanel);
