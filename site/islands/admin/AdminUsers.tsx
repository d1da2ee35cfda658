import AdminShell from './AdminShell';
import { AdminTable, confirmAndDelete, formatLosAngeles, useAdminList, ExportLink } from './admin-ui';
import type { AdminUserView } from '../../../contract/user.ts';

const COLUMNS = ['#', 'First Name', 'Last Name', 'Preferred Name', 'Pronoun', 'Email', 'Phone', 'Location', 'Zip', 'User Since', 'Actions'] as const;

const who = (u: AdminUserView) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

function UsersPanel() {
  const { items, setItems } = useAdminList<AdminUserView>('/api/admin/users', 'Failed to fetch users.');

  async function remove(u: AdminUserView) {
    if (!(await confirmAndDelete(`/api/admin/users/${encodeURIComponent(u._id)}`, 'Failed to delete user.', `Delete the account of ${who(u)}?`))) return;
    setItems((list) => (list ?? []).filter((x) => x._id !== u._id));
  }

  return (
    <section className="admin-panel" aria-labelledby="users-heading">
      <h2 id="users-heading">Clients</h2>
      <ExportLink name="clients" label="clients" />
      {items === null ? (
        <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p>No users found.</p>
      ) : (
        <AdminTable caption="Clients" columns={COLUMNS}>
          {items.map((u, i) => (
            <tr key={u._id} data-user-row={u._id}>
              <td>{i + 1}</td>
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
              <td>{formatLosAngeles(u.createdAt)}</td>
              <td>
                <button className="button danger button-small" type="button" onClick={() => void remove(u)}>
                  Delete<span className="sr-only"> {who(u)}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export default function AdminUsers() {
  return (
    <AdminShell current="/admin/users" title="Clients">
      {() => <UsersPanel />}
    </AdminShell>
  );
}
