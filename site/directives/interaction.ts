import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: server-render an island and hydrate it only when the visitor reaches
 * for it: a press (click), a key, focus moving into it, or typing. Not on sight, hover or a
 * finger that only scrolls across it (issue 25: no React on a content page until the visitor
 * types in a form or presses a button). A form or a product grid then costs no JavaScript
 * until someone uses it.
 * - Text typed during hydration is not lost: islands using it read the values already in the
 *   DOM when they mount (useDomValues).
 * - A press on a button before the island is alive is held (its default and its propagation
 *   stopped) and pressed again on the same button once React has hydrated it: hydration keeps
 *   the server's DOM nodes, so "Add to cart" works from the first tap, before React has loaded.
 */
const EVENTS = ['focusin', 'keydown', 'input', 'click'] as const;
/** How long a held press waits for the island (a slow phone on a slow network) before it is dropped. */
const REPLAY_WITHIN_MS = 10_000;

/** Time for an island's first effects to run before a held press reaches it. */
const EFFECTS_MS = 50;

/** React marks each element it has hydrated with its props under a `__reactProps$…` key. */
const isAlive = (el: Element) => Object.keys(el).some((k) => k.startsWith('__reactProps'));

function whenAlive(target: Element, then: () => void): void {
  const until = performance.now() + REPLAY_WITHIN_MS;
  const check = () => {
    if (!target.isConnected) return;
    // Alive; its effects (reading what was typed before: useDomValues) run just after the commit.
    if (isAlive(target)) return void setTimeout(then, EFFECTS_MS);
    if (performance.now() < until) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** What a finger or a pointer that lands on it means to use; a finger on the rest of the form may only be scrolling. */
const CONTROLS = 'input, select, textarea, button, label, [role="button"]';

/**
 * Issue 36: the island's files are fetched from the moment a pointer lands on one of its controls
 * (before the focus or the click that hydrates it, a tap's first 100 ms or more), without running
 * them: a finger that lands on a field and then scrolls costs the download, never the hydration.
 */
function preloadOnPointer(el: HTMLElement): void {
  const preload = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(CONTROLS)) return;
    el.removeEventListener('pointerdown', preload, true);
    for (const url of [el.getAttribute('renderer-url'), el.getAttribute('component-url')]) {
      if (!url) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = url;
      document.head.append(link);
    }
  };
  el.addEventListener('pointerdown', preload, { capture: true, passive: true });
}

const interaction: ClientDirective = (load, _options, el) => {
  preloadOnPointer(el);
  let started = false;
  let alive = false;
  /** Presses before the island was alive, in order (two quick taps on "Add to cart" are two tins). */
  const held: HTMLElement[] = [];

  const listener = (event: Event) => {
    if (alive) return;
    const target = event.target instanceof Element ? event.target : null;
    const button = event.type === 'click' ? target?.closest<HTMLElement>('button, [role="button"]') : null;
    if (button && el.contains(button) && !isAlive(button)) {
      // Pressed before the island is alive: held, and pressed again once it is.
      event.preventDefault();
      event.stopPropagation();
      held.push(button);
    }
    if (started) return;
    started = true;
    void (async () => {
      const hydrate = await load();
      await hydrate();
      // React hydrates in a transition: alive once its commit has marked the nodes.
      whenAlive(held[0] ?? el.firstElementChild ?? el, () => {
        alive = true;
        for (const type of EVENTS) el.removeEventListener(type, listener, true);
        for (const press of held.splice(0)) if (press.isConnected) press.click();
      });
    })();
  };
  for (const type of EVENTS) el.addEventListener(type, listener, true);
};

export default interaction;
