import { useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminTable, ExportLink, SearchField, byMonth, confirmAndDelete, formatWhen, matchesSearch, monthOfInstant, useAdminList } from './admin-ui';
import type { SubscriberView } from '../../../contract/subscribers.ts';
import { Listing } from '../Listing';

const COLUMNS = ['#', 'Email', 'Subscribed At', 'Delete'] as const;

function SubscribersPanel() {
  const { items, setItems } = useAdminList<SubscriberView>('/api/admin/subscribers', 'Failed to fetch subscribers.');
  const [query, setQuery] = useState('');

  async function remove(s: SubscriberView) {
    if (
      !(await confirmAndDelete(`/api/admin/subscribers/${encodeURIComponent(s._id)}`, 'Could not delete subscriber.', `Remove ${s.email} from the newsletter?`))
    )
      return;
    setItems((list) => (list ?? []).filter((x) => x._id !== s._id));
  }

  const number = new Map((items ?? []).map((s, i) => [s._id, i + 1]));
  const shown = (items ?? []).filter((s) => matchesSearch(query, s.email));

  return (
    <section className="admin-panel" aria-labelledby="subscribers-heading">
      <h2 id="subscribers-heading">Newsletter subscribers</h2>
      <ExportLink name="subscribers" label="subscribers" />
      <Listing items={items} empty="No subscribers yet.">
        {(items) => (
          <>
            <SearchField label="Search subscribers by e-mail" value={query} onChange={setQuery} shown={shown.length} total={items.length} />
            {shown.length === 0 ? (
              <p>No subscriber matches “{query.trim()}”.</p>
            ) : (
              <AdminTable
                caption="Newsletter subscribers"
                columns={COLUMNS}
                groups={byMonth(shown, (s) => monthOfInstant(s.subscribedAt)).map((g) => ({
                  key: g.key,
                  label: `Subscribed in ${g.label}`,
                  rows: g.items.map((s) => (
                    <tr key={s._id} data-subscriber-row={s._id}>
                      <td>{number.get(s._id)}</td>
                      <td>{s.email}</td>
                      <td>{formatWhen(s.subscribedAt)}</td>
                      <td>
                        <button className="button danger button-small" type="button" onClick={() => void remove(s)}>
                          Delete<span className="sr-only"> {s.email}</span>
                        </button>
                      </td>
                    </tr>
                  )),
                }))}
              />
            )}
          </>
        )}
      </Listing>
    </section>
  );
}

export default adminScreen('/admin/subscribers', 'Subscribers', SubscribersPanel);
