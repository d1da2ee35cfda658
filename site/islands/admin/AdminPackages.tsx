import { useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminForm, confirmAndDelete, ModalDialog, send, useAdminList } from './admin-ui';
import { Checkbox, CountInput, MoneyInput, TextInput } from '../Field';
import { typedCents, usdFromCents } from '../../lib/money';
import { SESSION_TYPES } from '../../../contract/booking.ts';
import type { PackageFields, PackageView } from '../../../contract/packages.ts';
import { Listing } from '../Listing';

/**
 * Her packages (issue 32): what she sells as a bundle of sessions, on her sliding scale. She
 * types dollars; the API keeps cents. A package she retires (inactive) is no longer offered, and
 * those who hold its credits keep them; deleting one changes nothing anyone holds either.
 */

const wholeOf = (s: string) => (s.trim() === '' ? NaN : Number(s));
const dollarsOf = (cents: number) => (cents / 100).toFixed(2);

/** "$400.00–$500.00, suggested $450.00", or the single price. */
export const priceWords = (p: Pick<PackageView, 'minPriceCents' | 'suggestedPriceCents' | 'maxPriceCents'>) =>
  p.minPriceCents === p.maxPriceCents
    ? usdFromCents(p.minPriceCents)
    : `${usdFromCents(p.minPriceCents)}–${usdFromCents(p.maxPriceCents)}, suggested ${usdFromCents(p.suggestedPriceCents)}`;

function PackageForm(props: { start?: PackageView; submit: string; onDone: (saved: PackageView) => void }) {
  const id = useId();
  const p = props.start;
  const [name, setName] = useState(p?.name ?? '');
  const [types, setTypes] = useState<string[]>(p?.sessionTypes ?? [SESSION_TYPES[0]]);
  const [sessions, setSessions] = useState(String(p?.sessions ?? 5));
  const [min, setMin] = useState(p ? dollarsOf(p.minPriceCents) : '');
  const [suggested, setSuggested] = useState(p ? dollarsOf(p.suggestedPriceCents) : '');
  const [max, setMax] = useState(p ? dollarsOf(p.maxPriceCents) : '');
  const [months, setMonths] = useState(String(p?.monthsValid ?? 6));
  const [active, setActive] = useState(p?.active ?? true);

  async function save() {
    const body: PackageFields = {
      name,
      sessionTypes: types,
      sessions: wholeOf(sessions),
      minPriceCents: typedCents(min),
      // A single price: the suggested and highest follow the lowest when left empty.
      suggestedPriceCents: typedCents(suggested || min),
      maxPriceCents: typedCents(max || suggested || min),
      monthsValid: wholeOf(months),
      active,
    };
    const saved = p
      ? await send<PackageView>('PUT', `/api/admin/packages/${encodeURIComponent(p._id)}`, body, 'Could not save the package')
      : await send<PackageView>('POST', '/api/admin/packages', body, 'Could not add the package');
    if (!saved) return;
    if (!p) {
      setName('');
      setMin('');
      setSuggested('');
      setMax('');
    }
    props.onDone(saved);
  }

  return (
    <AdminForm label={p ? `Edit ${p.name}` : 'Add a package'} submit={props.submit} onSubmit={() => void save()}>
      <TextInput id={`${id}-name`} label="Name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
      <fieldset className="field">
        <legend>Session types it covers</legend>
        {SESSION_TYPES.map((t) => (
          <Checkbox
            key={t}
            label={t}
            checked={types.includes(t)}
            onChange={(e) => setTypes((list) => (e.target.checked ? [...list, t] : list.filter((x) => x !== t)))}
          />
        ))}
      </fieldset>
      <div className="form-row">
        <CountInput id={`${id}-sessions`} label="Sessions" min={1} max={100} required value={sessions} onChange={(e) => setSessions(e.target.value)} />
        <CountInput
          id={`${id}-months`}
          label="Months valid"
          hint="After purchase"
          min={1}
          max={60}
          required
          value={months}
          onChange={(e) => setMonths(e.target.value)}
        />
      </div>
      <div className="form-row">
        <MoneyInput id={`${id}-min`} label="Lowest price ($)" required value={min} onChange={(e) => setMin(e.target.value)} />
        <MoneyInput id={`${id}-suggested`} label="Suggested price ($)" value={suggested} onChange={(e) => setSuggested(e.target.value)} />
        <MoneyInput
          id={`${id}-max`}
          label="Highest price ($)"
          hint="Equal to the lowest: a single price"
          value={max}
          onChange={(e) => setMax(e.target.value)}
        />
      </div>
      <Checkbox label="Offered to clients (active)" checked={active} onChange={(e) => setActive(e.target.checked)} />
    </AdminForm>
  );
}

function PackagesPanel() {
  const id = useId();
  const { items, reload } = useAdminList<PackageView>('/api/admin/packages', 'Failed to load the packages.');
  const [editing, setEditing] = useState<PackageView | null>(null);
  const [status, setStatus] = useState('');

  async function setActive(p: PackageView, active: boolean) {
    const { _id, ...fields } = p;
    const saved = await send<PackageView>('PUT', `/api/admin/packages/${encodeURIComponent(_id)}`, { ...fields, active }, 'Could not change the package');
    if (saved) {
      setStatus(`${saved.name} is ${saved.active ? 'offered again' : 'no longer offered'}.`);
      void reload();
    }
  }

  async function remove(p: PackageView) {
    const text = `${p.name} is no longer offered. Clients who hold its sessions keep them.`;
    if (await confirmAndDelete(`/api/admin/packages/${encodeURIComponent(p._id)}`, 'Could not delete the package', text)) {
      setStatus(`${p.name} deleted.`);
      void reload();
    }
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Packages</h2>
        <p role="status" className="muted">
          {status}
        </p>
        <Listing items={items} empty="No packages yet.">
          {(items) => (
            <ul className="item-list">
              {items.map((p) => (
                <li key={p._id} className="item" data-package={p._id}>
                  <h3>{p.name}</h3>
                  <p>
                    {p.sessions} {p.sessions === 1 ? 'session' : 'sessions'} · {priceWords(p)} · valid {p.monthsValid}{' '}
                    {p.monthsValid === 1 ? 'month' : 'months'}
                    {p.active ? '' : ' · not offered'}
                  </p>
                  <p className="muted">{p.sessionTypes.join(', ')}</p>
                  <div className="row-actions">
                    <button type="button" className="button button-quiet button-small" onClick={() => setEditing(p)}>
                      Edit<span className="sr-only"> {p.name}</span>
                    </button>
                    <button type="button" className="button button-quiet button-small" onClick={() => void setActive(p, !p.active)}>
                      {p.active ? 'Deactivate' : 'Activate'}
                      <span className="sr-only"> {p.name}</span>
                    </button>
                    <button type="button" className="button danger button-small" onClick={() => void remove(p)}>
                      Delete<span className="sr-only"> {p.name}</span>
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Listing>
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-add`}>
        <h2 id={`${id}-add`}>Add a package</h2>
        <p className="muted">Prices in dollars. Leave the suggested and highest empty for a single price.</p>
        <PackageForm
          submit="Add package"
          onDone={(saved) => {
            setStatus(`${saved.name} added.`);
            void reload();
          }}
        />
      </section>
      {editing && (
        <ModalDialog title={`Edit ${editing.name}`} onClose={() => setEditing(null)}>
          <PackageForm
            start={editing}
            submit="Save"
            onDone={(saved) => {
              setEditing(null);
              setStatus(`${saved.name} saved.`);
              void reload();
            }}
          />
        </ModalDialog>
      )}
    </>
  );
}

export default adminScreen('/admin/packages', 'Packages', PackagesPanel);
