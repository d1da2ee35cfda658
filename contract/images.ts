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

/** The widths made of every upload (only those narrower than the photo itself). */
export const IMAGE_WIDTHS = [320, 640, 960, 1280, 1920] as const;
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
export const imageVariantUrl = (id: string, width: number, format: 'avif' | 'webp') => `${IMAGE_URL_PREFIX}${id}/${width}.${format}`;

/** The `srcset` of one format. */
export const srcsetOf = (id: string, widths: readonly number[], format: 'avif' | 'webp') =>
  widths.map((w) => `${imageVariantUrl(id, w, format)} ${w}w`).join(', ');
