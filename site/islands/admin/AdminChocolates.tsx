import { useId, useRef, useState, type FormEvent } from 'react';
import { adminScreen } from './AdminShell';
import { confirmAndDelete, useAdminList, useFocusRow, type FocusRowProps } from './admin-ui';
import Picture from '../Picture';
import FocusPicker from './FocusPicker';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { plainDollars, usd } from '../../lib/money';
import { check } from '../../../contract/check.ts';
import { product, type ImageUploadedView, type ProductSavedView, type ProductView } from '../../../contract/chocolates.ts';
import { IMAGE_ACCEPT, IMAGE_MAX_MB, IMAGE_URL_PREFIX, photoRefusal, type PictureView } from '../../../contract/images.ts';
import {
  DIET_TAGS,
  FISH,
  MAY_CONTAIN,
  MAY_CONTAIN_WARNING,
  missingLabelFacts,
  netWeightWords,
  OTHER_MAJORS,
  SHELLFISH,
  TREE_NUTS,
} from '../../../contract/food.ts';
import { Checkbox, Checkboxes, CountInput, MoneyInput, TextArea, TextInput } from '../Field';
import { Listing } from '../Listing';

interface Draft {
  name: string;
  image: string;
  description: string;
  details: string;
  price: string;
  inventory: string;
  /** The label facts (issue 48): the allergens she ticked, "none of them", grams as typed. */
  ingredients: string;
  allergens: string[];
  allergenFree: boolean;
  netWeight: string;
  dietTags: string[];
}

const emptyDraft: Draft = {
  name: '',
  image: '',
  description: '',
  details: '',
  price: '',
  inventory: '0',
  ingredients: '',
  allergens: [],
  allergenFree: false,
  netWeight: '',
  dietTags: [],
};
const toDraft = (p: ProductView): Draft => ({
  name: p.name,
  image: p.image,
  description: p.description,
  details: p.details,
  price: plainDollars(p.price),
  inventory: String(p.inventory),
  ingredients: p.ingredients,
  allergens: p.allergens ?? [],
  allergenFree: p.allergenFree,
  netWeight: p.netWeightGrams === null ? '' : String(p.netWeightGrams),
  dietTags: p.dietTags,
});
const toBody = (d: Draft) => ({
  name: d.name,
  image: d.image,
  description: d.description,
  details: d.details,
  price: d.price.trim(),
  inventory: d.inventory.trim() === '' ? undefined : Number(d.inventory),
  ingredients: d.ingredients,
  // Nothing ticked is "not said yet", never "none": only the "none" box says none.
  allergens: d.allergenFree ? [] : d.allergens.length ? d.allergens : null,
  allergenFree: d.allergenFree,
  netWeightGrams: d.netWeight.trim() === '' ? null : Number(d.netWeight),
  dietTags: d.dietTags,
});

/** Grams as she types them, when they are a weight: the ounces she will read on the label. */
const typedGrams = (text: string): number | null => {
  const g = Number(text);
  return text.trim() !== '' && Number.isFinite(g) && g > 0 ? g : null;
};

/** Names as a box each, the name its words. */
const named = (names: readonly string[]) => names.map((n) => [n, n] as const);

/** A group of allergen boxes: each ticked one is in the draft; ticking one takes "none" away. */
function AllergenBoxes(props: { names: readonly string[]; draft: Draft; onChange: (d: Draft) => void }) {
  const { draft } = props;
  return (
    <div className="allergen-boxes">
      <Checkboxes
        choices={named(props.names)}
        chosen={draft.allergens}
        onChange={(allergens) => props.onChange({ ...draft, allergenFree: false, allergens })}
      />
    </div>
  );
}

/**
 * What her label must carry (issue 48, decision 0056): ingredients in order of weight, the major
 * allergens as choices (tree nuts, fish and shellfish by their kind; "none" said explicitly, never
 * read from nothing ticked), the net weight in grams with its ounces, and diet tags. "May contain"
 * wording typed anywhere is warned about, not refused.
 */
function LabelFactsFields(props: { id: string; draft: Draft; onChange: (d: Draft) => void }) {
  const { id, draft, onChange } = props;
  const set = (k: 'ingredients' | 'netWeight') => (e: { target: { value: string } }) => onChange({ ...draft, [k]: e.target.value });
  const grams = typedGrams(draft.netWeight);
  const mayContain = [draft.ingredients, draft.description, draft.details].some((t) => MAY_CONTAIN.test(t));
  const seaFood = [...FISH, ...SHELLFISH] as readonly string[];
  const [seaOpen, setSeaOpen] = useState(() => draft.allergens.some((a) => seaFood.includes(a)));
  return (
    <fieldset className="label-facts-fields">
      <legend>Label facts</legend>
      <TextArea
        id={`${id}-ingredients`}
        label="Ingredients"
        hint="In order of weight, most first; sub-ingredients in parentheses: Dark chocolate (cocoa mass, cane sugar), almonds, sea salt."
        value={draft.ingredients}
        onChange={set('ingredients')}
        rows={3}
        maxLength={3000}
      />
      <fieldset className="allergen-choices" aria-describedby={`${id}-allergens-hint`}>
        <legend>Allergens it contains</legend>
        <span className="field-hint" id={`${id}-allergens-hint`}>
          Tick each one. Name tree nuts, fish and shellfish by their kind: the label must say which.
        </span>
        <Checkbox
          label="Contains none of the major allergens"
          checked={draft.allergenFree}
          onChange={(e) => onChange({ ...draft, allergenFree: e.target.checked, allergens: e.target.checked ? [] : draft.allergens })}
        />
        <AllergenBoxes names={OTHER_MAJORS} draft={draft} onChange={onChange} />
        <fieldset className="allergen-group">
          <legend>Tree nuts</legend>
          <AllergenBoxes names={TREE_NUTS} draft={draft} onChange={onChange} />
        </fieldset>
        {/* Folded unless one is ticked; its boxes exist only while it is open, so nothing lies hidden under the fields below. */}
        <details className="allergen-more" open={seaOpen} onToggle={(e) => setSeaOpen(e.currentTarget.open)}>
          <summary>Fish and shellfish</summary>
          {seaOpen && <AllergenBoxes names={seaFood} draft={draft} onChange={onChange} />}
        </details>
      </fieldset>
      <TextInput
        id={`${id}-net-weight`}
        label="Net weight (grams)"
        hint={grams !== null ? `The label reads: ${netWeightWords(grams)}` : 'The label shows it in ounces and grams.'}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={draft.netWeight}
        onChange={set('netWeight')}
      />
      <fieldset className="allergen-group">
        <legend>Diet tags</legend>
        <div className="allergen-boxes">
          <Checkboxes choices={named(DIET_TAGS)} chosen={draft.dietTags} onChange={(dietTags) => onChange({ ...draft, dietTags })} />
        </div>
      </fieldset>
      {/* A live region that is always there, so the warning is said when it appears. */}
      <div aria-live="polite">
        {mayContain && (
          <p className="field-warning" data-may-contain>
            {MAY_CONTAIN_WARNING}
          </p>
        )}
      </div>
    </fieldset>
  );
}

/** 20 MB on a slow line takes longer than a JSON call may. */
const UPLOAD_TIMEOUT_MS = 120_000;

/** The sizes the pipeline made of each uploaded image, by its address (/api/images/{id}). */
type Pictures = ReadonlyMap<string, PictureView>;

const isUpload = (image: string) => image.startsWith(IMAGE_URL_PREFIX);

/**
 * A product's photo: an upload through its srcset (the size the slot needs, not the 2560 px
 * original), any other address as it is, or nothing. `alt` is '' where the name is written beside it.
 */
function ProductImage(props: { image: string; picture: PictureView | undefined; alt: string; sizes: string; className?: string }) {
  if (!props.image) return <span className={`product-no-photo ${props.className ?? ''}`}>No photo</span>;
  if (props.picture) return <Picture picture={props.picture} alt={props.alt} sizes={props.sizes} box="landscape" />;
  return <img className={props.className} src={props.image} alt={props.alt} width={400} height={300} loading="lazy" />;
}

/**
 * The fields of one product: name, photo (an upload shown as the photo; a typed address behind
 * "Or use an image address", open while the image is not an upload), description, details, price
 * and inventory. Used by each product's editor and by the add form.
 */
function ProductFields(props: {
  draft: Draft;
  pictures: Pictures;
  onChange: (d: Draft) => void;
  onUploaded: (url: string, picture: PictureView) => void;
  onStatus: (s: string) => void;
}) {
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
    props.onUploaded(res.data.url, res.data.picture);
    props.onChange({ ...draft, image: res.data.url });
    props.onStatus('Image uploaded. Save to keep it.');
  }

  return (
    <>
      <TextInput id={`${id}-name`} label="Name" value={draft.name} onChange={set('name')} required maxLength={200} />
      <fieldset className="product-photo">
        <legend>Photo</legend>
        <div className="product-preview">
          <ProductImage
            image={draft.image}
            picture={props.pictures.get(draft.image)}
            alt={draft.name || 'New product'}
            sizes="(min-width: 48rem) 20rem, 90vw"
          />
        </div>
        {props.pictures.get(draft.image) && (
          <FocusPicker
            picture={props.pictures.get(draft.image)!}
            label={draft.name || 'the new product'}
            onChanged={(picture) => props.onUploaded(draft.image, picture)}
          />
        )}
        <TextInput
          id={`${id}-file`}
          label="Upload an image"
          hint={<>PNG, JPEG, WebP or AVIF, at most {IMAGE_MAX_MB} MB.</>}
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={uploading}
          onChange={(e) => void upload(e)}
        />
        <details className="image-address" open={!isUpload(draft.image)}>
          <summary>Or use an image address</summary>
          <TextInput
            id={`${id}-image`}
            label="Image address"
            hint="An https address or a path such as /images/…"
            value={draft.image}
            onChange={set('image')}
            maxLength={2000}
          />
        </details>
        {draft.image && (
          <button className="button button-quiet button-small" type="button" onClick={() => props.onChange({ ...draft, image: '' })}>
            Remove the photo
          </button>
        )}
      </fieldset>
      <TextArea id={`${id}-description`} label="Description" value={draft.description} onChange={set('description')} rows={3} maxLength={5000} />
      <TextArea id={`${id}-details`} label="Details" value={draft.details} onChange={set('details')} rows={3} maxLength={5000} />
      <div className="form-row">
        <MoneyInput id={`${id}-price`} label="Price ($ per tin)" type="number" min={0} step={0.01} value={draft.price} onChange={set('price')} required />
        <CountInput id={`${id}-inventory`} label="Inventory" min={0} step={1} value={draft.inventory} onChange={set('inventory')} required />
      </div>
      <LabelFactsFields id={id} draft={draft} onChange={props.onChange} />
    </>
  );
}

/**
 * Checks a product's draft as the server will, sends it, and tells her why not in a dialog titled
 * `errorTitle`; `busy` is told when the request starts and ends. The server's answer, or null.
 */
async function sendProduct(
  method: 'POST' | 'PUT',
  path: string,
  draft: Draft,
  errorTitle: string,
  busy: (on: boolean) => void,
): Promise<ProductSavedView | null> {
  const body = toBody(draft);
  const checked = check(product, body);
  if (!checked.ok) {
    await showAlert({ icon: 'error', title: errorTitle, text: checked.message });
    return null;
  }
  busy(true);
  let res;
  try {
    res = await request<ProductSavedView>(method, path, { body, session: 'admin' });
  } catch {
    res = null;
  }
  busy(false);
  if (!res || !res.ok) {
    await showAlert({ icon: 'error', title: errorTitle, text: res?.data.message ?? 'The server could not be reached.' });
    return null;
  }
  return res.data;
}

/** One product's editor, opened from its line in the list. */
function ProductEditor(props: {
  product: ProductView;
  formId: string;
  headingId: string;
  pictures: Pictures;
  onUploaded: (url: string, picture: PictureView) => void;
  onDirty: (dirty: boolean) => void;
  onSaved: (p: ProductView) => void;
  onDeleted: () => void;
}) {
  const { product: p } = props;
  const [draft, setDraft] = useState<Draft>(() => toDraft(p));
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    const saved = await sendProduct('PUT', `/api/chocolates/${encodeURIComponent(p._id)}`, draft, 'Error updating product:', (busy) => {
      setSaving(busy);
      setStatus(busy ? 'Saving…' : '');
    });
    if (!saved) return;
    setDraft(toDraft(saved.product));
    setStatus('Saved.');
    props.onDirty(false);
    props.onSaved(saved.product);
  }

  async function remove() {
    if (!(await confirmAndDelete(`/api/chocolates/${encodeURIComponent(p._id)}`, 'Error deleting product:', `Delete ${p.name}?`))) return;
    props.onDeleted();
  }

  return (
    <form id={props.formId} className="product-form product-editor" onSubmit={save} noValidate aria-labelledby={props.headingId}>
      <ProductFields
        draft={draft}
        pictures={props.pictures}
        onChange={(d) => {
          setDraft(d);
          setStatus('');
          props.onDirty(true);
        }}
        onUploaded={props.onUploaded}
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
  );
}

/** A product's line: thumbnail, name, price and stock, and the button that opens its editor below it. */
function ProductCard(props: {
  product: ProductView;
  pictures: Pictures;
  open: boolean;
  /** Today's link to this product (`?focus=`: its label lacks a fact) lands here. */
  focus: FocusRowProps;
  onToggle: () => void;
  onUploaded: (url: string, picture: PictureView) => void;
  onDirty: (dirty: boolean) => void;
  onSaved: (p: ProductView) => void;
  onDeleted: () => void;
}) {
  const { product: p } = props;
  const headingId = `product-${p._id}`;
  const formId = `product-form-${p._id}`;
  const missing = missingLabelFacts(p);
  return (
    <li className={props.open ? 'product-card open' : 'product-card'} data-product={p._id} {...props.focus}>
      <div className="product-line">
        <div className="product-thumb">
          <ProductImage image={p.image} picture={props.pictures.get(p.image)} alt="" sizes="4.5rem" />
        </div>
        <div className="product-summary">
          <h3 id={headingId}>{p.name}</h3>
          <p className="muted">
            {usd(p.price)} · {p.inventory > 0 ? `${p.inventory} in stock` : <strong className="sold-out">sold out</strong>}
          </p>
          {missing.length > 0 && <p className="label-missing">Label needs {missing.join(', ')}</p>}
          <a className="label-link" href={`/admin/chocolates/${encodeURIComponent(p._id)}/label`}>
            Label<span className="sr-only"> of {p.name}</span>
          </a>
        </div>
        <button
          className={props.open ? 'button button-small' : 'button button-quiet button-small'}
          type="button"
          aria-expanded={props.open}
          aria-controls={props.open ? formId : undefined}
          onClick={props.onToggle}
        >
          {props.open ? 'Close' : 'Edit'}
          <span className="sr-only"> {p.name}</span>
        </button>
      </div>
      {props.open && (
        <ProductEditor
          product={p}
          formId={formId}
          headingId={headingId}
          pictures={props.pictures}
          onUploaded={props.onUploaded}
          onDirty={props.onDirty}
          onSaved={props.onSaved}
          onDeleted={props.onDeleted}
        />
      )}
    </li>
  );
}

function AddProduct(props: { pictures: Pictures; onUploaded: (url: string, picture: PictureView) => void; onAdded: (p: ProductView) => void }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [status, setStatus] = useState('');
  const [sending, setSending] = useState(false);

  async function add(e: FormEvent) {
    e.preventDefault();
    const added = await sendProduct('POST', '/api/chocolates', draft, 'Error adding product:', setSending);
    if (!added) return;
    setDraft(emptyDraft);
    setStatus('');
    props.onAdded(added.product);
    await showAlert({ icon: 'success', title: added.message || 'Product added successfully.' });
  }

  return (
    <form className="product-form add-product" onSubmit={add} noValidate aria-label="Add a product">
      <ProductFields
        draft={draft}
        pictures={props.pictures}
        onChange={(d) => {
          setDraft(d);
          setStatus('');
        }}
        onUploaded={props.onUploaded}
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

/**
 * The products as a list of lines with thumbnails (issue 20: six open forms were 8,500 px tall on a
 * phone); one editor open at a time, and opening another asks first when the open one has unsaved changes.
 */
function ChocolatesPanel() {
  const { items, setItems } = useAdminList<ProductView>(
    '/api/chocolates',
    'Oops! Unable to Load Products!',
    'Please check your internet connection or refresh the page to try again.',
  );
  const [adding, setAdding] = useState(false);
  // A product Today sent her to (its label lacks a fact) opens with its editor.
  const { focus, rowProps } = useFocusRow(items !== null);
  const [openId, setOpenId] = useState<string | null>(focus ?? null);
  const dirty = useRef(false);
  // The list's pictures and the ones uploaded here: a saved product comes back without its sizes.
  const [uploaded, setUploaded] = useState<Map<string, PictureView>>(() => new Map());
  const pictures: Pictures = new Map([...(items ?? []).flatMap((p) => (p.picture ? [[p.image, p.picture] as const] : [])), ...uploaded]);
  const remember = (url: string, picture: PictureView) => setUploaded((m) => new Map(m).set(url, picture));

  async function toggle(id: string) {
    if (openId !== null && dirty.current) {
      const name = items?.find((p) => p._id === openId)?.name ?? 'this product';
      const discard = await confirmDialog({
        title: 'Discard your changes?',
        text: `The changes to ${name} are not saved.`,
        confirmText: 'Discard them',
        cancelText: 'Keep editing',
      });
      if (!discard) return;
    }
    dirty.current = false;
    setOpenId((open) => (open === id ? null : id));
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby="add-product-heading">
        <h2 id="add-product-heading">Add a product</h2>
        {adding ? (
          <>
            <AddProduct
              pictures={pictures}
              onUploaded={remember}
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
        <Listing items={items} empty="No products yet.">
          {(items) => (
            <ul className="product-list product-card-list">
              {items.map((p) => (
                <ProductCard
                  key={p._id}
                  product={p}
                  pictures={pictures}
                  open={openId === p._id}
                  focus={rowProps(p._id)}
                  onToggle={() => void toggle(p._id)}
                  onUploaded={remember}
                  onDirty={(d) => (dirty.current = d)}
                  onSaved={(saved) =>
                    // PUT answers without the photo's sizes: the ones it had stay while the photo does.
                    setItems((list) =>
                      (list ?? []).map((x) =>
                        x._id !== saved._id ? x : saved.picture || saved.image !== x.image || !x.picture ? saved : { ...saved, picture: x.picture },
                      ),
                    )
                  }
                  onDeleted={() => {
                    dirty.current = false;
                    setOpenId(null);
                    setItems((list) => (list ?? []).filter((x) => x._id !== p._id));
                  }}
                />
              ))}
            </ul>
          )}
        </Listing>
      </section>
    </>
  );
}

export default adminScreen('/admin/chocolates', 'Chocolates', ChocolatesPanel);
