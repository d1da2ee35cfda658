import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $cart, addToCart } from '../stores/cart';
import { request } from '../lib/http';
import { showAlert } from '../lib/alert';
import { usd } from '../lib/money';
import type { ProductView } from '../../contract/chocolates.ts';
import { allergenWords, labelLines, netWeightWords } from '../../contract/food-words.ts';
import Picture from './Picture';
import { useHydrated } from './useHydrated';

/**
 * The width a card's photo renders at (site.css: the container is min(100vw, 72rem) less 2rem of
 * padding; columns of at least 16rem with 1.5rem gaps; a card has 1.5rem of padding and a 1px
 * border on each side): one column below 35.5rem, two below 53rem, three below 70.5rem, then four.
 */
export const CARD_SIZES =
  '(max-width: 35.49rem) calc(100vw - 5rem - 2px), (max-width: 52.99rem) calc(50vw - 4.75rem - 2px), (max-width: 70.49rem) calc(33.33vw - 4.67rem - 2px), (max-width: 71.99rem) calc(25vw - 4.63rem - 2px), 13.38rem';
/** The dialog is at most 36rem wide with 1.5rem of padding; on a phone the viewport less its margins. */
const DIALOG_SIZES = '(max-width: 40rem) calc(100vw - 5rem), 33rem';

interface Props {
  /**
   * The products as the page was made ahead with them (api/pages/render-context.ts): the grid is
   * in the HTML, its size known before any script runs. Live stock and prices are read again
   * when the visitor reaches for it (the island hydrates on interaction) and at checkout.
   */
  initial?: ProductView[] | null;
  /**
   * The statement her licence puts on every label and product's details (Oregon's cottage-food
   * statement in cottage mode), as the page was made with her settings; null when there is none.
   */
  statement?: string | null;
}

/**
 * A product's label facts in its details (issue 48, decision 0056): ingredients, "Contains: …",
 * "Net wt 3.3 oz (93 g)", diet tags and her licence's statement, each where there is one.
 */
function LabelFacts({ product: p, statement }: { product: ProductView; statement: string | null }) {
  const allergens = allergenWords(p);
  return (
    <div className="label-facts" data-label-facts>
      {p.ingredients && (
        <p>
          <strong>Ingredients:</strong> {p.ingredients}
        </p>
      )}
      {allergens && (
        <p>
          <strong data-allergens>{allergens}</strong>
        </p>
      )}
      {p.netWeightGrams !== null && <p data-net-weight>{netWeightWords(p.netWeightGrams)}</p>}
      {p.dietTags.length > 0 && (
        <ul className="diet-tags" aria-label="Diet">
          {p.dietTags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
      {statement && (
        <p className="muted" data-label-statement>
          {statement}
        </p>
      )}
    </div>
  );
}

/** The product grid on /chocolates: sort A-Z / Z-A, details dialog, sold out at inventory 0. */
export default function ProductGrid({ initial = null, statement = null }: Props) {
  const [products, setProducts] = useState<ProductView[] | null>(initial);
  // The cart lives in this browser only: shown once alive, so the HTML made ahead matches the first render.
  const hydrated = useHydrated();
  const [ascending, setAscending] = useState(true);
  const [open, setOpen] = useState<ProductView | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const cart = useStore($cart);

  useEffect(() => {
    request<ProductView[]>('GET', '/api/chocolates')
      .then((r) => {
        if (!r.ok || !Array.isArray(r.data)) throw new Error();
        setProducts(r.data);
      })
      .catch(() => {
        // The grid drawn ahead stays: checkout checks stock and prices again anyway.
        if (initial) return;
        setProducts([]);
        void showAlert({
          icon: 'error',
          title: 'Oops! Unable to Load Products!',
          text: 'Please check your internet connection or refresh the page to try again.',
        });
      });
    // Once, when the island comes alive; `initial` is the page's and never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  const sorted = useMemo(
    () => [...(products ?? [])].sort((a, b) => (ascending ? 1 : -1) * a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
    [products, ascending],
  );
  const inCart = (id: string) => (hydrated ? (cart.find((i) => i._id === id)?.quantity ?? 0) : 0);

  function add(p: ProductView) {
    if (p.inventory <= 0) return;
    // The cart keeps the photo's sizes (its thumbnail loads the one it shows), not the 2560-px master's address.
    addToCart({
      _id: p._id,
      name: p.name,
      price: p.price,
      ...(p.picture ? { picture: p.picture } : { image: p.image }),
      description: p.description,
      details: p.details,
      inventory: p.inventory,
      labelLines: labelLines(p),
    });
  }

  if (products === null) return <p role="status">Loading chocolates…</p>;
  return (
    <div className="products">
      <p>
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => setAscending((a) => !a)}
          aria-label={`Sort by name, now ${ascending ? 'A to Z' : 'Z to A'}`}
        >
          Sort: {ascending ? 'A-Z' : 'Z-A'}
        </button>
      </p>
      <ul className="product-grid">
        {sorted.map((p, i) => {
          const soldOut = p.inventory <= 0;
          return (
            <li key={p._id} className="card product" data-product={p.name}>
              {p.picture ? (
                <Picture picture={p.picture} alt={p.name} sizes={CARD_SIZES} priority={i === 0} box="landscape" />
              ) : (
                <img src={p.image || '/images/chocolates/hero.svg'} alt={p.name} width="400" height="320" loading="lazy" decoding="async" />
              )}
              <h3>{p.name}</h3>
              <p className="price">
                {usd(p.price)} <span className="muted">per tin</span>
              </p>
              <p>{p.description}</p>
              <div className="card-actions">
                <button type="button" className="button button-quiet button-small" onClick={() => setOpen(p)}>
                  Details<span className="sr-only"> of {p.name}</span>
                </button>
                {soldOut ? (
                  <button type="button" className="button button-small" disabled>
                    Sold Out
                  </button>
                ) : (
                  <button type="button" className="button button-small" onClick={() => add(p)}>
                    Add to Cart<span className="sr-only"> {p.name}</span>
                  </button>
                )}
                {inCart(p._id) > 0 && <span className="muted">{inCart(p._id)} in cart</span>}
              </div>
            </li>
          );
        })}
      </ul>
      {open && (
        <dialog ref={dialog} className="modal" aria-labelledby="product-dialog-title" onClose={() => setOpen(null)}>
          <div className="modal-head">
            <h2 id="product-dialog-title">{open.name}</h2>
            <button type="button" className="modal-close" aria-label="Close" onClick={() => dialog.current?.close()}>
              ×
            </button>
          </div>
          <div className="modal-body">
            {open.picture ? (
              <Picture picture={open.picture} alt={open.name} sizes={DIALOG_SIZES} priority />
            ) : (
              <img src={open.image || '/images/chocolates/hero.svg'} alt={open.name} width="400" height="320" />
            )}
            <p>{open.description}</p>
            {open.details && <p className="muted">{open.details}</p>}
            <LabelFacts product={open} statement={statement} />
            <p className="price">{usd(open.price)}</p>
            <p>
              {open.inventory <= 0 ? (
                <button type="button" className="button" disabled>
                  Sold Out
                </button>
              ) : (
                <button type="button" className="button" onClick={() => add(open)}>
                  Add to Cart
                </button>
              )}
            </p>
          </div>
        </dialog>
      )}
    </div>
  );
}
