import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $cart, addToCart } from '../stores/cart';
import { request } from '../lib/http';
import { showAlert } from '../lib/alert';
import { usd } from '../lib/money';
import type { ProductView } from '../../contract/chocolates.ts';
import Picture from './Picture';

/** The grid's columns are at least 16rem; one column on a phone. */
const CARD_SIZES = '(max-width: 40rem) calc(100vw - 2rem), (max-width: 64rem) 45vw, 22rem';
const DIALOG_SIZES = '(max-width: 40rem) calc(100vw - 2rem), 36rem';

/** The product grid on /chocolates: sort A-Z / Z-A, details dialog, sold out at inventory 0. */
export default function ProductGrid() {
  const [products, setProducts] = useState<ProductView[] | null>(null);
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
        setProducts([]);
        void showAlert({
          icon: 'error',
          title: 'Oops! Unable to Load Products!',
          text: 'Please check your internet connection or refresh the page to try again.',
        });
      });
  }, []);

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  const sorted = useMemo(
    () => [...(products ?? [])].sort((a, b) => (ascending ? 1 : -1) * a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
    [products, ascending],
  );
  const inCart = (id: string) => cart.find((i) => i._id === id)?.quantity ?? 0;

  function add(p: ProductView) {
    if (p.inventory <= 0) return;
    addToCart({ _id: p._id, name: p.name, price: p.price, image: p.image, description: p.description, details: p.details, inventory: p.inventory });
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
                <Picture picture={p.picture} alt={p.name} sizes={CARD_SIZES} priority={i === 0} />
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
