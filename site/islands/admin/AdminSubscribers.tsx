import AdminShell from './AdminShell';
import { AdminTable, confirmAndDelete, formatLosAngeles, useAdminList, ExportLink } from './admin-ui';
import type { SubscriberView } from '../../../contract/subscribers.ts';

const COLUMNS = ['#', 'Email', 'Subscribed At', 'Delete'] as const;

function SubscribersPanel() {
  const { items, setItems } = useAdminList<SubscriberView>('/api/admin/subscribers', 'Failed to fetch subscribers.');

  async function remove(s: SubscriberView) {
    if (
      !(await confirmAndDelete(`/api/admin/subscribers/${encodeURIComponent(s._id)}`, 'Could not delete subscriber.', `Remove ${s.email} from the newsletter?`))
    )
      return;
    setItems((list) => (list ?? []).filter((x) => x._id !== s._id));
  }

  return (
    <section className="admin-panel" aria-labelledby="subscribers-heading">
      <h2 id="subscribers-heading">Newsletter subscribers</h2>
      <ExportLink name="subscribers" label="subscribers" />
      {items === null ? (
        <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p>No subscribers yet.</p>
      ) : (
        <AdminTable caption="Newsletter subscribers" columns={COLUMNS}>
          {items.map((s, i) => (
            <tr key={s._id} data-subscriber-row={s._id}>
              <td>{i + 1}</td>
              <td>{s.email}</td>
              <td>{formatLosAngeles(s.subscribedAt)}</td>
              <td>
                <button className="button danger button-small" type="button" onClick={() => void remove(s)}>
                  Delete<span className="sr-only"> {s.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export default function AdminSubscribers() {
  return (
    <AdminShell current="/admin/subscribers" title="Subscribers">
      {() => <SubscribersPanel />}
    </AdminShell>
  );
}
