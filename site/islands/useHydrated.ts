import { useEffect, useState } from 'react';

/**
 * False in the server-rendered HTML and until the island is alive. Submit buttons stay
 * disabled until then: a click before hydration would otherwise make the browser submit the
 * form natively (a GET with the visitor's details in the address).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
