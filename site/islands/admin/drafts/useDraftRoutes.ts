/**
 * A draft editor's three views in the address (`?page=about`, `?new`, the list), Back and Forward
 * between them, and the question before unsaved edits are left (in the island, or the tab closed).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { confirmDialog } from '../../../lib/alert';

export type DraftRoute = { view: 'list' } | { view: 'edit'; key: string } | { view: 'new' };

export type Go = (route: DraftRoute, options?: { replace?: boolean; force?: boolean }) => Promise<void>;

/** `param` names the draft in the address ('page', 'post'); `noun` is said in the question. */
export function useDraftRoutes(param: string, noun: string) {
  const [route, setRoute] = useState<DraftRoute | null>(null);
  const dirtyRef = useRef(false);

  const routeOf = useCallback(
    (search: string): DraftRoute => {
      const q = new URLSearchParams(search);
      const key = q.get(param);
      if (key) return { view: 'edit', key };
      return q.has('new') ? { view: 'new' } : { view: 'list' };
    },
    [param],
  );

  useEffect(() => {
    setRoute(routeOf(window.location.search));
    const onPop = () => {
      dirtyRef.current = false;
      setRoute(routeOf(window.location.search));
    };
    // Unsaved changes: the browser asks before the tab is closed or reloaded.
    const onLeave = (e: BeforeUnloadEvent) => {
      if (dirtyRef.current) e.preventDefault();
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('beforeunload', onLeave);
    };
  }, [routeOf]);

  const go = useCallback<Go>(
    async (next, options = {}) => {
      if (!options.force && dirtyRef.current) {
        const leave = await confirmDialog({
          title: 'Leave without saving?',
          text: `Your changes to this ${noun} are not saved yet.`,
          confirmText: 'Leave',
          cancelText: 'Stay',
        });
        if (!leave) return;
      }
      dirtyRef.current = false;
      const href = next.view === 'edit' ? `?${param}=${encodeURIComponent(next.key)}` : next.view === 'new' ? '?new' : window.location.pathname;
      window.history[options.replace ? 'replaceState' : 'pushState'](null, '', href);
      setRoute(next);
      window.scrollTo(0, 0);
    },
    [param, noun],
  );

  return { route, go, dirtyRef };
}
