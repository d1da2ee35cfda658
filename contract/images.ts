/**
 * Uploaded photos as the browser sees them: what an upload may be, and the responsive sizes
 * the server made of it (api/images/). Shared by the product grid, the slideshows and the
 * admin pages.
 */

/** A phone's camera JPEG is 3–12 MB; 20 MB leaves room for a large PNG or a 48-MP photo. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);
/** What the browser offers in its file picker; the server decides by the bytes. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

export const IMAGE_MESSAGES = {
  tooLarge: `The image must be at most ${IMAGE_MAX_MB} MB.`,
  wrongType: 'Please upload a PNG, JPEG, WebP or AVIF image.',
  heic: 'HEIC photos cannot be read here. Please send a JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible, or share the photo as JPEG).',
  unreadable: 'The image could not be read: it may be damaged or incomplete. Please try another file.',
  tooManyPixels: 'The image has too many pixels (at most 64 megapixels). Please send a smaller photo.',
} as const;

/**
 * What the browser can refuse before sending (the server checks the bytes again): the size, a
 * HEIC photo, a type that is plainly not a photo. An empty type (some browsers) goes to the server.
 */
export function photoRefusal(file: { size: number; type: string; name: string }): string | null {
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_MESSAGES.tooLarge;
  if (/^image\/hei[cf]/.test(file.type) || /\.hei[cf]$/i.test(file.name)) return IMAGE_MESSAGES.heic;
  if (file.type && !(IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_MESSAGES.wrongType;
  return null;
}

/**
 * The widths made of every upload (only those narrower than the photo itself). 160 serves the
 * 80-px thumbnails of the cart and the admin's lists at DPR 2; 480 the phone's cards and slides
 * (182–380 CSS px at DPR 1.75–3 fell between 320 and 640 and took 640: issue 25).
 */
export const IMAGE_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920] as const;

/**
 * Portrait and square photos are also cut to this landscape shape (4:3), around the focal point
 * she sets (else where the eye goes, libvips' "attention"): a landscape box (a product card 5:4,
 * a slide 64:42, the cart's 80×64) then loads the part it shows, not a portrait it hides half of.
 * 4:3 sits between 5:4 and 64:42, so either box covers it losing at most a seventh.
 */
export const CROP_ASPECT = 4 / 3;
/** A photo taller than this (height / width) gets the landscape cut; a landscape one fits as it is. */
export const CROP_WHEN_TALLER_THAN = 0.8;
/** Whether a photo of this shape gets the landscape cut. */
export const needsCrop = (width: number, height: number) => height / width > CROP_WHEN_TALLER_THAN;
/** The widths of the cut: the boxes it serves are at most about 400 CSS px wide (1280 at DPR 3). */
export const CROP_WIDTHS = [160, 320, 480, 640, 960, 1280] as const;

/** Her focal point on a photo: fractions of its width and height from the top left. */
export interface FocusPoint {
  x: number;
  y: number;
}

/**
 * Where a cut's sizes are served: `c` and the focal point in whole per cent, or `ca` for the
 * "attention" cut of a photo she set no point on. A new point is a new name: the bytes under
 * one URL never change.
 */
export const cropKeyOf = (focus: FocusPoint | null): string => (focus ? `c${Math.round(focus.x * 100)}-${Math.round(focus.y * 100)}` : 'ca');
export const CROP_KEY = /^c(?:a|(?:100|[1-9]?[0-9])-(?:100|[1-9]?[0-9]))$/;
/** The longest side kept: the largest size served. */
export const IMAGE_MAX_SIDE = 2560;

/** One uploaded photo's responsive sizes: everything `<picture>` needs. */
export interface PictureView {
  /** The largest WebP (at most 2560 px on its long side): the `<img src>` fallback. */
  src: string;
  /** Intrinsic size of `src`, so the page keeps its place before the bytes arrive. */
  width: number;
  height: number;
  /** A tiny blurred WebP as a data: URI, shown behind the photo while it loads. */
  placeholder: string;
  /** `srcset` values, smallest first. */
  avif: string;
  webp: string;
  /**
   * The landscape cut (CROP_ASPECT) of a portrait or square photo, for landscape boxes: its
   * intrinsic size and srcsets. Absent for landscape photos and uploads from before it existed.
   */
  crop?: { width: number; height: number; avif: string; webp: string };
  /** Her focal point, if she set one (the admin's photo lists show and change it). */
  focus?: FocusPoint | null;
}

/** POST /api/admin/images on success (201): where the stored image is served, and its sizes. */
export interface ImageUploadedView {
  url: string;
  picture: PictureView;
}

/** GET /api/admin/images: one of her uploads, newest first (the editors' photo chooser). */
export interface AdminImageView {
  id: string;
  url: string;
  picture: PictureView;
  createdAt: string;
}

/** Where an uploaded image and its sizes are served; the bytes under one URL never change. */
export const IMAGE_URL_PREFIX = '/api/images/';
export const imageVariantUrl = (id: string, width: number, format: 'avif' | 'webp', crop = '') =>
  `${IMAGE_URL_PREFIX}${id}/${crop ? `${crop}/` : ''}${width}.${format}`;

/** The `srcset` of one format (of the landscape cut `crop`, if given). */
export const srcsetOf = (id: string, widths: readonly number[], format: 'avif' | 'webp', crop = '') =>
  widths.map((w) => `${imageVariantUrl(id, w, format, crop)} ${w}w`).join(', ');

/** The smallest candidate of a srcset that is at least `px` device pixels wide (else the largest). */
export function candidateFor(srcset: string, px: number): string | undefined {
  const entries = srcset
    .split(', ')
    .filter(Boolean)
    .map((e) => {
      const [url, w] = e.split(' ');
      return { url: url!, width: Number(w?.slice(0, -1)) };
    });
  return (entries.find((e) => e.width >= px) ?? entries.at(-1))?.url;
}

/** Screens this dense (DPR 2.625–3.5 phones) are asked to choose a photo for fewer pixels than they have. */
export const DENSE_SCREEN = '(min-resolution: 2.5dppx)';
/**
 * The device pixels per CSS pixel a dense screen chooses a photo for (decision 0049). The browser
 * takes the smallest width of the srcset at or above it, so what arrives is 1.6–2.4× (the widths
 * step by at most 1.5×): on a 390–430-px phone a full-width cover (358–398 px) gets the 640-px size,
 * a product card 640, a slide 320, an 80-px thumbnail 160, where at 3× they took 1280, 960, 480, 320
 * (at 2× the cover would still take 960: 1.6 is the most that keeps it at 640 on a 430-px phone).
 */
export const DENSE_PHOTO_DENSITY = 1.6;

/**
 * A photo's `sizes` (`(media) width, …, width`, as the layout gives it) with the same rules first
 * again for dense screens, each width scaled by DENSE_PHOTO_DENSITY / 3, so a DPR 3 phone chooses
 * as a 1.6× one would. The third pixel of a photo is not seen at arm's length (a DPR 3 phone has
 * about 450 pixels per inch, the eye resolves about 300 at 30 cm), and every page sends about half
 * the photo bytes. Screens under 2.5 dppx are untouched.
 */
export function photoSizes(sizes: string): string {
  const rules = sizes
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const dense = rules.map((rule) => {
    // A media condition is one or more `(feature: value)` joined by `and`; the width may hold parentheses.
    const [, media, width] = /^(?:(\([^()]*\)(?:\s+and\s+\([^()]*\))*)\s+)?(.+)$/.exec(rule)!;
    const length = /^calc\((.*)\)$/.exec(width!)?.[1] ?? width!;
    const scaled = `calc((${length}) * ${DENSE_PHOTO_DENSITY} / 3)`;
    return media ? `${DENSE_SCREEN} and ${media} ${scaled}` : `${DENSE_SCREEN} ${scaled}`;
  });
  return [...dense, ...rules].join(', ');
}
