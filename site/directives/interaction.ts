import type { ClientDirective } from 'astro';

/**
 * `client:interaction`: server-render an island and hydrate it only when the visitor reaches
 * for it (pointer over it, focus into it, a key or a touch). A form above the fold then costs
 * no JavaScript until someone starts to fill it in. Islands using it read the values already
 * typed from the DOM when they mount, so nothing typed during hydration is lost.
 */
const EVENTS = ['pointerover', 'pointerdown', 'focusin', 'keydown', 'touchstart'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of EVENTS) el.removeEventListener(type, start);
    const hydrate = await load();
    await hydrate();
  };
  for (const type of EVENTS) el.addEventListener(type, start, { passive: true });
};

export default interaction;
