import { useEffect, useState } from 'react';
import AdminShell from './AdminShell';
import { request } from '../../lib/http';
import type { ProductLabelView } from '../../../contract/chocolates.ts';
import { adminLinks } from '../../../contract/admin-links.ts';
import { allergenWords, missingLabelFacts, netWeightWords } from '../../../contract/food.ts';

type Loaded = { ok: true; label: ProductLabelView } | { ok: false; message: string };

/** "the ingredients, the net weight and your phone": what she reads is missing. */
const inWords = (list: readonly string[]) => (list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`);

/**
 * Her label of one chocolate as OAR 603-025-0325 asks for her licence mode (issue 48, decision
 * 0056): name, ingredients, allergens, net weight in ounces and grams, her business name and
 * address, her licence number when licensed, her phone, and the cottage-food statement in cottage
 * mode. A label that would not pass is not shown for printing: the page says what it still needs
 * and where to fill it in.
 */
function LabelPanel({ productId }: { productId: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    request<ProductLabelView>('GET', `/api/chocolates/${encodeURIComponent(productId)}/label`, { session: 'admin' })
      .then((r) => setLoaded(r.ok ? { ok: true, label: r.data } : { ok: false, message: r.data.message ?? 'The label could not be loaded.' }))
      .catch(() => setLoaded({ ok: false, message: 'The label could not be loaded. Please check your connection and try again.' }));
  }, [productId]);

  if (!loaded) return <p role="status">Loading the label…</p>;
  if (!loaded.ok)
    return (
      <p role="alert">
        {loaded.message} <a href={adminLinks.chocolates()}>Back to the chocolates</a>
      </p>
    );

  const { product: p, licence, statement, missing } = loaded.label;
  if (missing.length > 0) {
    const fromProduct = missingLabelFacts(p);
    const fromLicence = missing.filter((m) => !fromProduct.includes(m));
    return (
      <section className="admin-panel" aria-labelledby="label-missing-heading" data-label-missing>
        <h2 id="label-missing-heading">{p.name}: not ready to print</h2>
        <p role="alert">This label would not pass yet: it still needs {inWords(missing)}.</p>
        <ul className="label-todo">
          {fromProduct.length > 0 && (
            <li>
              <a href={adminLinks.item(adminLinks.chocolates(), p._id)}>
                Add the {inWords(fromProduct)} to {p.name}
              </a>
            </li>
          )}
          {fromLicence.length > 0 && (
            <li>
              <a href={adminLinks.foodLicence()}>Add your {inWords(fromLicence)} under your food licence in Settings</a>
            </li>
          )}
        </ul>
      </section>
    );
  }

  return (
    <>
      <p className="no-print">
        <a href={adminLinks.item(adminLinks.chocolates(), p._id)}>Back to {p.name}</a>
      </p>
      <article className="food-label" aria-labelledby="food-label-name" data-food-label>
        <h2 id="food-label-name">{p.name}</h2>
        <p>
          <strong>Ingredients:</strong> {p.ingredients}
        </p>
        <p>
          <strong>{allergenWords(p)}</strong>
        </p>
        {p.netWeightGrams !== null && <p className="food-label-weight">{netWeightWords(p.netWeightGrams)}</p>}
        {p.dietTags.length > 0 && <p>{p.dietTags.join(' · ')}</p>}
        <p className="food-label-business">
          {licence.businessName}
          <br />
          {licence.businessAddress}
          {licence.mode === 'licensed' && (
            <>
              <br />
              Oregon domestic kitchen licence no. {licence.licenceNumber}
            </>
          )}
          <br />
          Phone: {licence.phone}
        </p>
        {statement && <p className="food-label-statement">{statement}</p>}
      </article>
      <p className="no-print">
        <button type="button" className="button" onClick={() => window.print()}>
          Print the label
        </button>
      </p>
    </>
  );
}

export default function ProductLabel({ productId }: { productId: string }) {
  return (
    <AdminShell current="/admin/chocolates" title="Label">
      {() => <LabelPanel productId={productId} />}
    </AdminShell>
  );
}
