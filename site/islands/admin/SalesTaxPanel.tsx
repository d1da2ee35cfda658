import { useCallback, useEffect, useId, useState } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { AdminTable, submitWith } from './admin-ui';
import { collectsInSentence, NO_SALES_TAX_STATES, US_STATES, type AdminTaxRatesView, type TaxSettings, type TaxSettingsInput } from '../../../contract/tax.ts';
import { SelectInput, TextArea, TextInput, type Choices } from '../Field';

/** Every state as a select's choice: "Washington (WA)". */
export const STATE_CHOICES: Choices = Object.entries(US_STATES).map(([code, name]) => [code, `${name} (${code})`] as const);

/**
 * Where she collects sales tax (issue 29, decision 0028), on the Tax year page: the states she is
 * registered in and her shop's address (GET/PUT /api/admin/settings/tax), what stands behind the
 * rates there (the state's rate service, or her table), and her copy of a state's published ZIP
 * table (POST /api/admin/tax-rates/{state}/zips), the service's fallback. Phone-first: one column,
 * a state is added from a list and removed by its own button.
 */
export default function SalesTaxPanel(props: { onSaved?: () => void }) {
  const id = useId();
  const [view, setView] = useState<AdminTaxRatesView | null>(null);
  const [draft, setDraft] = useState<TaxSettings | null>(null);
  const [adding, setAdding] = useState('');
  const [status, setStatus] = useState('');
  const [tableState, setTableState] = useState('');
  const [csv, setCsv] = useState('');
  const [tableStatus, setTableStatus] = useState('');

  const load = useCallback(() => {
    request<AdminTaxRatesView>('GET', '/api/admin/tax-rates', { session: 'admin' })
      .then((r) => {
        if (!r.ok) return;
        setView(r.data);
        setDraft(r.data.settings);
        setTableState((s) => s || r.data.taxing[0] || r.data.settings.shopAddress.state);
      })
      .catch(() => {});
  }, []);
  useEffect(load, [load]);

  if (!view || !draft) return <p role="status">Loading…</p>;
  const shop = draft.shopAddress;
  const setShop = (field: keyof TaxSettings['shopAddress'], value: string) => setDraft({ ...draft, shopAddress: { ...shop, [field]: value } });

  async function save() {
    if (!draft) return;
    try {
      const res = await request<TaxSettings & { message?: string }>('PUT', '/api/admin/settings/tax', {
        session: 'admin',
        body: draft satisfies TaxSettingsInput,
      });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Could not save', text: res.data.message });
        return;
      }
      setStatus(`Saved. ${collectsInSentence(res.data.collectsIn)}`);
      load();
      props.onSaved?.();
    } catch {
      await showAlert({ icon: 'error', title: 'Could not save', text: 'The server could not be reached. Please try again.' });
    }
  }

  async function importTable() {
    try {
      const res = await request<AdminTaxRatesView>('POST', `/api/admin/tax-rates/${tableState}/zips`, { session: 'admin', body: { csv } });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Could not import the table', text: res.data.message });
        return;
      }
      setTableStatus(res.data.message ?? 'Imported.');
      setView(res.data);
      setCsv('');
    } catch {
      await showAlert({ icon: 'error', title: 'Could not import the table', text: 'The server could not be reached. Please try again.' });
    }
  }

  const serviceWords =
    view.service.states.length === 0
      ? 'No state rate service is asked: rates come from your tables.'
      : `Rates in ${view.service.states.map((s) => US_STATES[s] ?? s).join(', ')} come from the state’s own rate service at the buyer’s ZIP` +
        (view.service.standIn ? ' (here its local stand-in, which knows Seattle 98101, Spokane 99201 and Olympia 98501).' : '.') +
        ' If it fails or is slow, your imported ZIP table stands in, and the order says so.';

  return (
    <section className="admin-panel no-print" aria-labelledby={`${id}-h`} data-sales-tax>
      <h2 id={`${id}-h`}>Sales tax: where you collect</h2>
      <p data-collects-in>{view.collectsInWords}</p>
      <p className="muted">{serviceWords}</p>
      <form aria-label="Where you collect sales tax" onSubmit={submitWith(save)}>
        <fieldset className="field">
          <legend>States where you are registered to collect</legend>
          <ul className="chips" aria-label="States where you collect">
            {draft.collectsIn.map((s) => (
              <li key={s} data-collects={s}>
                {US_STATES[s]} ({s}){NO_SALES_TAX_STATES.includes(s) ? ' — no sales tax' : ''}{' '}
                <button
                  type="button"
                  className="button button-quiet button-small"
                  onClick={() => setDraft({ ...draft, collectsIn: draft.collectsIn.filter((c) => c !== s) })}
                >
                  Remove<span className="sr-only"> {US_STATES[s]}</span>
                </button>
              </li>
            ))}
            {draft.collectsIn.length === 0 && <li>None: no order is charged sales tax.</li>}
          </ul>
          <div className="form-row">
            <SelectInput
              id={`${id}-add`}
              label="Add a state"
              choices={[['', 'Choose a state'], ...STATE_CHOICES.filter(([code]) => !draft.collectsIn.includes(code))]}
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
            />
            <div className="field">
              <button
                type="button"
                className="button button-small"
                disabled={!adding}
                onClick={() => {
                  setDraft({ ...draft, collectsIn: [...draft.collectsIn, adding].sort() });
                  setAdding('');
                }}
              >
                Add
              </button>
            </div>
          </div>
        </fieldset>
        <fieldset className="field">
          <legend>Your shop’s address (pickups are taxed here)</legend>
          <TextInput
            id={`${id}-line1`}
            label="Street address"
            autoComplete="address-line1"
            value={shop.line1}
            onChange={(e) => setShop('line1', e.target.value)}
          />
          <div className="form-row">
            <TextInput
              id={`${id}-city`}
              label="City"
              autoComplete="address-level2"
              required
              value={shop.city}
              onChange={(e) => setShop('city', e.target.value)}
            />
            <SelectInput id={`${id}-state`} label="State" choices={STATE_CHOICES} value={shop.state} onChange={(e) => setShop('state', e.target.value)} />
            <TextInput
              id={`${id}-zip`}
              label="ZIP code"
              inputMode="numeric"
              autoComplete="postal-code"
              required
              maxLength={10}
              value={shop.zip}
              onChange={(e) => setShop('zip', e.target.value)}
            />
          </div>
        </fieldset>
        <button className="button button-small" type="submit">
          Save where you collect
        </button>
      </form>
      <p role="status" className="muted">
        {status}
      </p>

      <h3>Your ZIP tables</h3>
      <p className="muted">
        Import a state’s published rate table (CSV with the columns ZIP, Rate, Location code and Name; Washington’s is on dor.wa.gov). It stands in when the
        rate service fails, and is the rate in a state without one. An import replaces that state’s table.
      </p>
      {view.zipTables.length > 0 && (
        <AdminTable caption="Imported ZIP tables" columns={['State', 'ZIP codes', 'Imported']}>
          {view.zipTables.map((t) => (
            <tr key={t.state} data-zip-table={t.state}>
              <td data-card="title">
                {US_STATES[t.state]} ({t.state})
              </td>
              <td>{t.zips}</td>
              <td>{t.importedAt.slice(0, 10)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <form aria-label="Import a ZIP table" onSubmit={submitWith(importTable)}>
        <div className="form-row">
          <SelectInput id={`${id}-table-state`} label="State" choices={STATE_CHOICES} value={tableState} onChange={(e) => setTableState(e.target.value)} />
          <TextInput
            id={`${id}-file`}
            label="CSV file"
            type="file"
            accept=".csv,text/csv,text/plain"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then(setCsv);
            }}
          />
        </div>
        <TextArea
          id={`${id}-csv`}
          label="Or paste it"
          rows={4}
          value={csv}
          onChange={(e) => setCsv(e.target.value)}
          placeholder={'ZIP,Rate,Location code,Name\n98101,0.1035,1726,SEATTLE'}
        />
        <button className="button button-small" type="submit" disabled={!csv.trim() || !tableState}>
          Import table
        </button>
      </form>
      <p role="status" className="muted">
        {tableStatus}
      </p>
    </section>
  );
}
