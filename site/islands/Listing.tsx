import type { ReactNode } from 'react';

/**
 * A list as every page shows it while it loads: "Loading…" (announced), then its empty words (a
 * sentence, or its own paragraph when it holds more than words), or the list.
 */
export function Listing<T>(props: { items: T[] | null; empty: ReactNode; children: (items: T[]) => ReactNode }) {
  const { items, empty } = props;
  if (items === null) return <p role="status">Loading…</p>;
  if (items.length === 0) return typeof empty === 'string' ? <p>{empty}</p> : <>{empty}</>;
  return <>{props.children(items)}</>;
}
