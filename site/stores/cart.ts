/**
 * The cart: a nanostore persisted in localStorage under `cart`, shared by the product grid,
 * the cart page and the navbar count. Only what the visitor chose lives here; prices shown
 * from it are refreshed from the server, which decides every amount at checkout.
 */
import { computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import type { PictureView } from '../../contract/images.ts';

export interface CartItem {
  _id: string;
  name: string;
  /** Dollars per tin, as last seen from the server. */
  price: number;
  /** An uploaded photo's sizes: the thumbnail loads the one it shows (issue 25). */
  picture?: PictureView;
  /** A photo that is not an upload (an illustration's address); older carts kept the master's address here. */
  image?: string;
  description?: string;
  details?: string;
  inventory?: number;
  /**
   * The product's allergen line and net weight in words (issue 48), kept with the item so the cart
   * shows them from its first paint; refreshed from the server with the price.
   */
  labelLines?: string[];
  /** At least 1, whole tins. */
  quantity: number;
}

const isPicture = (p: unknown): p is PictureView =>
  typeof p === 'object' && p !== null && typeof (p as PictureView).src === 'string' && typeof (p as PictureView).webp === 'string';

/** What another tab, an older version of the site or a hand edit left under `cart`, made safe to use. */
function decode(stored: string): CartItem[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((i) => i && typeof i._id === 'string' && typeof i.name === 'string')
      .map((i) => ({
        ...i,
        price: Number(i.price) || 0,
        quantity: Math.max(1, Math.floor(Number(i.quantity) || 1)),
        picture: isPicture(i.picture) ? i.picture : undefined,
        labelLines: Array.isArray(i.labelLines) ? i.labelLines.filter((l: unknown): l is string => typeof l === 'string') : undefined,
      }));
  } catch {
    return [];
  }
}

/**
 * Written on every change; read again when another tab writes it (`storage` events) and when
 * the page comes back from the back/forward cache (`pageshow`), so no tab shows a stale cart.
 */
export const $cart = persistentAtom<CartItem[]>('cart', [], { encode: JSON.stringify, decode });

/** Number of tins: the sum of quantities. */
export const $cartCount = computed($cart, (items) => items.reduce((n, i) => n + i.quantity, 0));

export function addToCart(product: Omit<CartItem, 'quantity'>): void {
  const items = $cart.get();
  const existing = items.find((i) => i._id === product._id);
  $cart.set(existing ? items.map((i) => (i._id === product._id ? { ...i, quantity: i.quantity + 1 } : i)) : [...items, { ...product, quantity: 1 }]);
}

export function setQuantity(id: string, quantity: number): void {
  const q = Math.max(1, Math.floor(Number.isFinite(quantity) ? quantity : 1));
  $cart.set($cart.get().map((i) => (i._id === id ? { ...i, quantity: q } : i)));
}

export function removeFromCart(id: string): void {
  $cart.set($cart.get().filter((i) => i._id !== id));
}

export function clearCart(): void {
  $cart.set([]);
}
