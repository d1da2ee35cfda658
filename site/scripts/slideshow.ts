/** Timing and layout constants of SPEC.md section 9. */
export const SLIDE_INTERVAL_MS = 3000;
export const SLIDES_WIDE = 4;
export const SLIDES_NARROW = 2;
export const NARROW_QUERY = '(max-width: 767.98px)';

export function initSlideshows(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-slideshow]')) init(root);
}

function init(root: HTMLElement): void {
  const track = root.querySelector<HTMLElement>('[data-track]')!;
  const slides = [...track.children] as HTMLElement[];
  const pauseButton = root.querySelector<HTMLButtonElement>('[data-pause]')!;
  const narrow = window.matchMedia(NARROW_QUERY);
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  let index = 0;
  let hovered = false;
  let focused = false;
  let pausedByUser = false;

  const perView = () => (narrow.matches ? SLIDES_NARROW : SLIDES_WIDE);
  const maxIndex = () => Math.max(0, slides.length - perView());

  function render() {
    root.style.setProperty('--per-view', String(perView()));
    index = Math.min(index, maxIndex());
    track.style.transform = `translateX(${(-100 / perView()) * index}%)`;
    slides.forEach((s, i) => {
      const visible = i >= index && i < index + perView();
      s.toggleAttribute('inert', !visible);
      s.setAttribute('aria-hidden', String(!visible));
    });
    root.dataset.index = String(index);
    root.dataset.perView = String(perView());
  }
  const go = (to: number) => {
    const max = maxIndex();
    index = to > max ? 0 : to < 0 ? max : to;
    render();
  };

  const autoplay = () => !reduced.matches && !pausedByUser;
  const running = () => autoplay() && !hovered && !focused;
  root.dataset.autoplay = String(autoplay());
  window.setInterval(() => {
    if (running() && !document.hidden) go(index + 1);
  }, SLIDE_INTERVAL_MS);

  root.querySelector('[data-prev]')!.addEventListener('click', () => go(index - 1));
  root.querySelector('[data-next]')!.addEventListener('click', () => go(index + 1));
  pauseButton.hidden = reduced.matches;
  pauseButton.addEventListener('click', () => {
    pausedByUser = !pausedByUser;
    pauseButton.setAttribute('aria-pressed', String(pausedByUser));
    pauseButton.textContent = pausedByUser ? 'Play' : 'Pause';
    root.dataset.autoplay = String(autoplay());
  });
  root.addEventListener('mouseenter', () => (hovered = true));
  root.addEventListener('mouseleave', () => (hovered = false));
  root.addEventListener('focusin', () => (focused = true));
  root.addEventListener('focusout', (e) => {
    if (!root.contains(e.relatedTarget as Node)) focused = false;
  });
  narrow.addEventListener('change', render);
  reduced.addEventListener('change', () => {
    pauseButton.hidden = reduced.matches;
    root.dataset.autoplay = String(autoplay());
  });
  render();
}
