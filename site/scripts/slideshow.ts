import type { GalleryPhotoView, GalleryView } from '../../contract/galleries.ts';
import { photoSizes } from '../../contract/images.ts';

/** Timing and layout constants of SPEC.md section 9. */
export const SLIDE_INTERVAL_MS = 3000;
export const SLIDES_WIDE = 4;
export const SLIDES_NARROW = 2;
export const NARROW_QUERY = '(max-width: 767.98px)';

/** How near the viewport the slideshow must come before its photos are asked for. */
const NEAR = '400px 0px';
/**
 * The width a slide's photo renders at: half of the container's inner width on a phone, a
 * quarter above (the container is min(100vw, 72rem) less 2rem of padding), less the slide's
 * 0.25rem of padding on each side. On a 412-px phone: 182 px, not the 206 px that "50vw" said.
 * A dense screen chooses as a 2× one (photoSizes, decision 0049).
 */
export const SLIDE_SIZES = photoSizes('(max-width: 767.98px) calc(50vw - 1.5rem), (max-width: 72rem) calc(25vw - 1rem), 17rem');

export function initSlideshows(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-slideshow]')) {
    const slideshow = init(root);
    whenNear(root, () => void loadSlides(root, slideshow));
  }
}

function whenNear(root: HTMLElement, then: () => void): void {
  if (!('IntersectionObserver' in window)) return then();
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      then();
    },
    { rootMargin: NEAR },
  );
  observer.observe(root);
}

/**
 * The teacher's gallery when it has photos, else the illustrations the page was built with.
 * A failed call keeps the illustrations: the slideshow is decoration, never an error.
 */
async function loadSlides(root: HTMLElement, slideshow: { replace(slides: HTMLElement[]): void }): Promise<void> {
  const track = root.querySelector<HTMLElement>('[data-track]')!;
  let photos: GalleryPhotoView[] = [];
  try {
    const res = await fetch(`/api/galleries/${encodeURIComponent(root.dataset.gallery ?? '')}`, { headers: { accept: 'application/json' } });
    if (res.ok) photos = ((await res.json()) as GalleryView).photos ?? [];
  } catch {
    photos = [];
  }
  if (photos.length === 0) {
    for (const img of track.querySelectorAll<HTMLImageElement>('img[data-src]')) img.src = img.dataset.src!;
  } else {
    slideshow.replace(photos.map((p, i) => photoSlide(p, i, photos.length)));
  }
  root.dataset.slides = photos.length === 0 ? 'illustrations' : 'gallery';
}

function photoSlide(photo: GalleryPhotoView, i: number, count: number): HTMLElement {
  const { picture } = photo;
  // A slide is a landscape box (64:42, covered): a portrait photo's landscape cut fills it.
  const use = picture.crop ?? picture;
  const li = document.createElement('li');
  li.className = 'slide';
  li.setAttribute('aria-roledescription', 'slide');
  li.setAttribute('aria-label', `${i + 1} of ${count}`);
  const pic = document.createElement('picture');
  pic.className = 'photo';
  for (const [type, srcset] of [
    ['image/avif', use.avif],
    ['image/webp', use.webp],
  ] as const) {
    if (!srcset) continue;
    const source = document.createElement('source');
    source.type = type;
    source.srcset = srcset;
    source.sizes = SLIDE_SIZES;
    pic.append(source);
  }
  const img = document.createElement('img');
  img.alt = photo.alt;
  img.width = use.width;
  img.height = use.height;
  // Slides past the first view wait until they are about to show.
  img.loading = 'lazy';
  img.decoding = 'async';
  img.dataset.placeholder = '';
  if (picture.placeholder) img.style.backgroundImage = `url("${picture.placeholder}")`;
  img.addEventListener('load', () => img.style.removeProperty('background-image'), { once: true });
  img.src = picture.src;
  pic.append(img);
  li.append(pic);
  return li;
}

function init(root: HTMLElement): { replace(slides: HTMLElement[]): void } {
  const track = root.querySelector<HTMLElement>('[data-track]')!;
  let slides = [...track.children] as HTMLElement[];
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
  return {
    replace(next: HTMLElement[]) {
      track.replaceChildren(...next);
      slides = next;
      render();
    },
  };
}
