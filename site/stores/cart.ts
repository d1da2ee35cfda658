/**
 * The cart: a nanostore persisted in localStorage under `cart`, shared by the product grid,
 * the cart page and the navbar count. Only what the visitor chose lives here; prices shown
 * from it are refreshed from the server, which decides every amount at checkout.
 */
import { atom, computed } from 'nanostores';

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

const KEY = 'cart';

function read(): CartItem[] {
  if (typeof localStorage === 'undefined') return [];
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((i) => i && typeof i._id === 'string' && typeof i.name === 'string')
      .map((i) => ({ ...i, price: Number(i.price) || 0, quantity: Math.max(1, Math.floor(Number(i.quantity) || 1)) }));
  } catch {
    return [];
  }
}

export const $cart = atom<CartItem[]>(read());

$cart.listen((items) => {
  try {
    localStorage.setItem(KEY, JSON.stringify(items));
  } catch {
    // storage full or disabled: the cart still works for this page view
  }
});

// Another tab changed the cart: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) $cart.set(read());
  });
}

/** Number of tins: the sum of quantities. */
export const $cartCount = computed($cart, (items) => items.reduce((n, i) => n + i.quantity, 0));

export function addToCart(product: Omit<CartItem, 'quantity'>): void {
  const items = $cart.get();
  const existing = items.find((i) => i._id === product._id);
  $cart.set(
    existing ? items.map((i) => (i._id === product._id ? { ...i, quantity: i.quantity + 1 } : i)) : [...items, { ...product, quantity: 1 }],
  );
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
