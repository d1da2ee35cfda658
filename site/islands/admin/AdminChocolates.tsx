import { useId, useState, type FormEvent } from 'react';
import AdminShell from './AdminShell';
import { confirmAndDelete, useAdminList } from './admin-ui';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { plainDollars } from '../../lib/money';
import { check } from '../../../contract/check.ts';
import { product, type ImageUploadedView, type ProductSavedView, type ProductView } from '../../../contract/chocolates.ts';
import { IMAGE_ACCEPT, IMAGE_MAX_MB, photoRefusal } from '../../../contract/images.ts';

interface Draft {
  name: string;
  image: string;
  description: string;
  details: string;
  price: string;
  inventory: string;
}

const emptyDraft: Draft = { name: '', image: '', description: '', details: '', price: '', inventory: '0' };
const toDraft = (p: ProductView): Draft => ({
  name: p.name,
  image: p.image,
  description: p.description,
  details: p.details,
  price: plainDollars(p.price),
  inventory: String(p.inventory),
});
const toBody = (d: Draft) => ({
  name: d.name,
  image: d.image,
  description: d.description,
  details: d.details,
  price: d.price.trim(),
  inventory: d.inventory.trim() === '' ? undefined : Number(d.inventory),
});

/** 20 MB on a slow line takes longer than a JSON call may. */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * The fields of one product: name, image (typed address or upload, with its preview),
 * description, details, price and inventory. Used by every card and by the add form.
 */
function ProductFields(props: { draft: Draft; onChange: (d: Draft) => void; onStatus: (s: string) => void }) {
  const id = useId();
  const { draft } = props;
  const [uploading, setUploading] = useState(false);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => props.onChange({ ...draft, [k]: e.target.value });

  async function upload(e: { target: HTMLInputElement }) {
    const input = e.target;
    const file = input.files?.[0];
    if (!file) return;
    const refuse = async (text: string) => {
      input.value = '';
      await showAlert({ icon: 'error', title: 'Image not uploaded', text });
    };
    const refusal = photoRefusal(file);
    if (refusal) return refuse(refusal);
    const form = new FormData();
    form.append('file', file);
    setUploading(true);
    props.onStatus('Uploading the image…');
    let res;
    try {
      res = await request<ImageUploadedView>('POST', '/api/admin/images', { body: form, session: 'admin', timeoutMs: UPLOAD_TIMEOUT_MS });
    } catch {
      res = null;
    }
    setUploading(false);
    input.value = '';
    if (!res || !res.ok || !res.data.url) {
      props.onStatus('');
      return refuse(res?.data.message ?? 'The image could not be uploaded. Please try again.');
    }
    props.onChange({ ...draft, image: res.data.url });
    props.onStatus('Image uploaded. Save to keep it.');
  }

  return (
    <>
      <div className="product-preview">
        {draft.image ? <img src={draft.image} alt={draft.name || 'New product'} width={400} height={300} /> : <p className="muted">No image yet.</p>}
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={draft.name} onChange={set('name')} required maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-image`}>Image address</label>
        <span className="field-hint" id={`${id}-image-hint`}>
          An https address, a path such as /images/…, or upload a file below.
        </span>
        <input id={`${id}-image`} value={draft.image} onChange={set('image')} aria-describedby={`${id}-image-hint`} maxLength={2000} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>Upload an image</label>
        <span className="field-hint" id={`${id}-file-hint`}>
          PNG, JPEG, WebP or AVIF, at most {IMAGE_MAX_MB} MB.
        </span>
        <input id={`${id}-file`} type="file" accept={IMAGE_ACCEPT} aria-describedby={`${id}-file-hint`} disabled={uploading} onChange={(e) => void upload(e)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea id={`${id}-description`} value={draft.description} onChange={set('description')} rows={3} maxLength={5000} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-details`}>Details</label>
        <textarea id={`${id}-details`} value={draft.details} onChange={set('details')} rows={3} maxLength={5000} />
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-price`}>Price ($ per tin)</label>
          <input id={`${id}-price`} type="number" inputMode="decimal" min={0} step={0.01} value={draft.price} onChange={set('price')} required />
        </div>
        <div className="field">
          <label htmlFor={`${id}-inventory`}>Inventory</label>
          <input id={`${id}-inventory`} type="number" inputMode="numeric" min={0} step={1} value={draft.inventory} onChange={set('inventory')} required />
        </div>
      </div>
    </>
  );
}

function ProductCard(props: { product: ProductView; onSaved: (p: ProductView) => void; onDeleted: () => void }) {
  const { product: p } = props;
  const [draft, setDraft] = useState<Draft>(() => toDraft(p));
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    const body = toBody(draft);
    const checked = check(product, body);
    if (!checked.ok) {
      await showAlert({ icon: 'error', title: 'Error updating product:', text: checked.message });
      return;
    }
    setSaving(true);
    setStatus('Saving…');
    let res;
    try {
      res = await request<ProductSavedView>('PUT', `/api/chocolates/${encodeURIComponent(p._id)}`, { body, session: 'admin' });
    } catch {
      res = null;
    }
    setSaving(false);
    if (!res || !res.ok) {
      setStatus('');
      await showAlert({ icon: 'error', title: 'Error updating product:', text: res?.data.message ?? 'The server could not be reached.' });
      return;
    }
    setDraft(toDraft(res.data.product));
    setStatus('Saved.');
    props.onSaved(res.data.product);
  }

  async function remove() {
    if (!(await confirmAndDelete(`/api/chocolates/${encodeURIComponent(p._id)}`, 'Error deleting product:', `Delete ${p.name}?`))) return;
    props.onDeleted();
  }

  const headingId = `product-${p._id}`;
  return (
    <li className="card product-card" data-product={p._id}>
      <h3 id={headingId}>{p.name}</h3>
      <form className="product-form" onSubmit={save} noValidate aria-labelledby={headingId}>
        <ProductFields
          draft={draft}
          onChange={(d) => {
            setDraft(d);
            setStatus('');
          }}
          onStatus={setStatus}
        />
        <p className="product-status" role="status">
          {status}
        </p>
        <div className="card-actions">
          <button className="button button-small" type="submit" disabled={saving}>
            Save<span className="sr-only"> {p.name}</span>
          </button>
          <button className="button danger button-small" type="button" onClick={() => void remove()}>
            Delete<span className="sr-only"> {p.name}</span>
          </button>
        </div>
      </form>
    </li>
  );
}

function AddProduct(props: { onAdded: (p: ProductView) => void }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [status, setStatus] = useState('');
  const [sending, setSending] = useState(false);

  async function add(e: FormEvent) {
    e.preventDefault();
    const body = toBody(draft);
    const checked = check(product, body);
    if (!checked.ok) {
      await showAlert({ icon: 'error', title: 'Error adding product:', text: checked.message });
      return;
    }
    setSending(true);
    let res;
    try {
      res = await request<ProductSavedView>('POST', '/api/chocolates', { body, session: 'admin' });
    } catch {
      res = null;
    }
    setSending(false);
    if (!res || !res.ok) {
      await showAlert({ icon: 'error', title: 'Error adding product:', text: res?.data.message ?? 'The server could not be reached.' });
      return;
    }
    setDraft(emptyDraft);
    setStatus('');
    props.onAdded(res.data.product);
    await showAlert({ icon: 'success', title: res.data.message || 'Product added successfully.' });
  }

  return (
    <form className="product-form add-product" onSubmit={add} noValidate aria-label="Add a product">
      <ProductFields
        draft={draft}
        onChange={(d) => {
          setDraft(d);
          setStatus('');
        }}
        onStatus={setStatus}
      />
      <p className="product-status" role="status">
        {status}
      </p>
      <div>
        <button className="button" type="submit" disabled={sending}>
          Add product
        </button>
      </div>
    </form>
  );
}

function ChocolatesPanel() {
  const { items, setItems } = useAdminList<ProductView>(
    '/api/chocolates',
    'Oops! Unable to Load Products!',
    'Please check your internet connection or refresh the page to try again.',
  );
  const [adding, setAdding] = useState(false);

  return (
    <>
      <section className="admin-panel" aria-labelledby="add-product-heading">
        <h2 id="add-product-heading">Add a product</h2>
        {adding ? (
          <>
            <AddProduct
              onAdded={(p) => {
                setItems((list) => [...(list ?? []), p]);
                setAdding(false);
              }}
            />
            <p>
              <button className="button button-quiet button-small" type="button" onClick={() => setAdding(false)}>
                Cancel
              </button>
            </p>
          </>
        ) : (
          <button className="button" type="button" onClick={() => setAdding(true)}>
            New product
          </button>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="products-heading">
        <h2 id="products-heading">Products</h2>
        {items === null ? (
          <p role="status">Loading…</p>
        ) : items.length === 0 ? (
          <p>No products yet.</p>
        ) : (
          <ul className="product-cards product-card-list">
            {items.map((p) => (
              <ProductCard
                key={p._id}
                product={p}
                onSaved={(saved) => setItems((list) => (list ?? []).map((x) => (x._id === saved._id ? saved : x)))}
                onDeleted={() => setItems((list) => (list ?? []).filter((x) => x._id !== p._id))}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export default function AdminChocolates() {
  return (
    <AdminShell current="/admin/chocolates" title="Chocolates">
      {() => <ChocolatesPanel />}
    </AdminShell>
  );
}
