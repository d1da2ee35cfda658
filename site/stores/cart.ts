/**
 * The cart: a nanostore persisted in localStorage under `cart`, shared by the product grid,
 * the cart page and the navbar count. Only what the visitor chose lives here; prices shown
 * from it are refreshed from the server, which decides every amount at checkout.
 */
import { computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';

export interface CartItem {
  _id: string;
  name: string;
  /** Dollars per tin, as last seen from the server. */
  price: number;
  image?: string;
  description?: string;
  details?: string;
  inventory?: number;
  /** At least 1, whole tins. */
  quantity: number;
}

/** What another tab, an older version of the site or a hand edit left under `cart`, made safe to use. */
function decode(stored: string): CartItem[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((i) => i && typeof i._id === 'string' && typeof i.name === 'string')
      .map((i) => ({ ...i, price: Number(i.price) || 0, quantity: Math.max(1, Math.floor(Number(i.quantity) || 1)) }));
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
