import { open } from 'node:fs/promises';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { CROP_ASPECT, needsCrop, CROP_WIDTHS, cropKeyOf, IMAGE_MAX_SIDE, IMAGE_MESSAGES, IMAGE_WIDTHS, type FocusPoint } from '../../contract/images.ts';

/**
 * The one photo pipeline (DESIGN "Money, limits and pictures"): decode once, turn upright by the
 * EXIF orientation, keep at most 2560 px on the long side, and encode every served size in WebP
 * and AVIF. sharp writes no metadata unless asked (`keepMetadata`/`withMetadata`), so EXIF, GPS,
 * XMP and ICC comments never reach the stored bytes. Pure work on bytes: the caller stores the
 * result afterwards, so no database transaction waits on an encoder.
 */

// libvips keeps recent operations and their pixels (up to 50 MB) in case they come again: every
// photo here is new, so that memory would only ever be held, never used.
sharp.cache(false);

/** About 8000 × 8000: above any phone's default photo, far below what a decompression bomb claims. */
export const MAX_INPUT_PIXELS = 64_000_000;
/** Above this width an AVIF adds encoding time (the slowest step) for a size no layout asks for. */
const AVIF_MAX_WIDTH = 1920;
/**
 * Quality by output width (issue 36, decision 0049). A size is chosen to be shown at 1.5–2 device
 * pixels per pixel it has (the `sizes` of contract/images.ts photoSizes), so a small size is
 * looked at closely and is cheap anyway, while a large one is where a finely textured photo (sand,
 * linen, grated chocolate) spends its bytes on grain the eye reads as texture, not as detail: at
 * 1280 px quality 42 sends half the bytes of 50 and keeps the grain visible.
 * Smooth photos barely change (their 1280-px AVIF is 8–12 KB at any of these).
 */
export function qualityFor(format: 'avif' | 'webp', width: number): number {
  const steps: [maxWidth: number, avif: number, webp: number][] = [
    [320, 60, 80],
    [480, 55, 78],
    [640, 50, 75],
    [960, 45, 70],
    [1280, 42, 65],
  ];
  const step = steps.find(([max]) => width <= max);
  return step ? step[format === 'avif' ? 1 : 2] : format === 'avif' ? 40 : 62;
}
// AVIF effort 0: a fifth of the default's encoding time for files a few per cent larger, so a
// 12-MP phone photo is ready in about 2 s on two cores.
// AVIF chroma at half resolution (4:2:0, as in every JPEG a camera makes and every lossy WebP):
// sharp's default 4:4:4 took half again the encoder's memory (the peak of a photo's processing)
// and its time, for colour detail no photo here shows.

export interface ImageVariant {
  format: 'avif' | 'webp';
  width: number;
  height: number;
  bytes: Buffer;
  /** '' for the whole photo; the landscape cut's key (contract/images.ts cropKeyOf) for its sizes. */
  crop: string;
}

export interface ProcessedImage {
  /** The largest size, WebP: served at /api/images/{id} and as `<img src>`. */
  master: Buffer;
  width: number;
  height: number;
  /** data:image/webp;base64,… of about 16 px wide. */
  placeholder: string;
  /** Every smaller width in both formats, and AVIF of the largest when it is ≤ 1920 px; the landscape cut's sizes. */
  variants: ImageVariant[];
}

type Raw = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };

async function encodeFrom(raw: Raw, format: 'avif' | 'webp', w: number, crop: string): Promise<ImageVariant> {
  const h = Math.max(1, Math.round((raw.height * w) / raw.width));
  const from = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  const resized = w === raw.width ? from : from.resize({ width: w, height: h });
  const quality = qualityFor(format, w);
  const bytes = await (format === 'avif' ? resized.avif({ quality, effort: 0, chromaSubsampling: '4:2:0' }) : resized.webp({ quality })).toBuffer();
  return { format, width: w, height: h, bytes, crop };
}

/**
 * The landscape cut (CROP_ASPECT) of upright pixels, every CROP_WIDTHS size in AVIF and WebP: the
 * whole width kept, the height cut around her focal point (`focus.y`), or where libvips'
 * "attention" finds the eye goes when she set none. Empty for a photo that is landscape already.
 */
export async function cropVariants(raw: Raw, focus: FocusPoint | null): Promise<ImageVariant[]> {
  if (!needsCrop(raw.width, raw.height)) return [];
  const cutHeight = Math.min(raw.height, Math.round(raw.width / CROP_ASPECT));
  const source = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  const cut = focus
    ? source.extract({
        left: 0,
        top: Math.min(raw.height - cutHeight, Math.max(0, Math.round(focus.y * raw.height - cutHeight / 2))),
        width: raw.width,
        height: cutHeight,
      })
    : source.resize({ width: raw.width, height: cutHeight, fit: 'cover', position: 'attention' });
  const { data, info } = await cut.raw().toBuffer({ resolveWithObject: true });
  const pixels: Raw = { data, width: info.width, height: info.height, channels: info.channels };
  const key = cropKeyOf(focus);
  const widths = CROP_WIDTHS.filter((w) => w <= pixels.width);
  return Promise.all([...widths.map((w) => encodeFrom(pixels, 'webp', w, key)), ...widths.map((w) => encodeFrom(pixels, 'avif', w, key))]);
}

/** A stored master (the largest WebP, upright already) cut again around a new focal point. */
export async function recropImage(master: Uint8Array, focus: FocusPoint | null): Promise<ImageVariant[]> {
  const { data, info } = await sharp(master, { limitInputPixels: MAX_INPUT_PIXELS }).raw().toBuffer({ resolveWithObject: true });
  return cropVariants({ data, width: info.width, height: info.height, channels: info.channels }, focus);
}

export type ImageRefusal = { refused: keyof typeof IMAGE_MESSAGES; message: string };

const refuse = (refused: keyof typeof IMAGE_MESSAGES): ImageRefusal => ({ refused, message: IMAGE_MESSAGES[refused] });

/** HEIF brands that carry HEVC pictures (iPhone photos); libvips here reads only the AVIF kind. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);

function isHeic(b: Uint8Array): boolean {
  if (b.length < 12) return false;
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  return ascii(4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(8, 12));
}

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'heif']);

/** The first bytes of a file: enough to tell a HEIC by its `ftyp` box. */
async function openingOf(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(12), 0, 12, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * `input`: the photo's bytes, or the path of a file holding them (an upload spooled to disk,
 * which sharp then reads as it decodes instead of from a copy in memory).
 */
export async function processImage(input: Uint8Array | string): Promise<ProcessedImage | ImageRefusal> {
  if (isHeic(typeof input === 'string' ? await openingOf(input) : input)) return refuse('heic');
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' } as const;
  let meta: Metadata;
  try {
    // The header alone, without the pixel limit: a bomb gets its own message below, not 'not an image'.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return refuse('wrongType');
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) return refuse('wrongType');
  // A HEIF that is not AVIF (av1) is a HEIC under another brand.
  if (meta.format === 'heif' && meta.compression !== 'av1') return refuse('heic');
  if (!meta.width || !meta.height) return refuse('unreadable');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) return refuse('tooManyPixels');

  // Decode once into raw pixels at the largest kept size; every output starts from these.
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(input, options)
      .autoOrient()
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return refuse('unreadable');
  }
  const { width, height, channels } = raw.info;
  const pixels: Raw = { data: raw.data, width, height, channels };
  const from = () => sharp(raw.data, { raw: { width, height, channels } });
  const heightAt = (w: number) => Math.max(1, Math.round((height * w) / width));
  const encode = (format: 'avif' | 'webp', w: number) => encodeFrom(pixels, format, w, '');

  const smaller = IMAGE_WIDTHS.filter((w) => w < width);
  const avifWidths = width <= AVIF_MAX_WIDTH ? [...smaller, width] : smaller;
  // sharp runs these on libuv's thread pool: started together they use every core.
  const [crops, master, placeholder, ...variants] = await Promise.all([
    cropVariants(pixels, null),
    from().webp({ quality: 78 }).toBuffer(),
    from()
      .resize({ width: 16, height: heightAt(16) })
      .webp({ quality: 40 })
      .toBuffer(),
    ...smaller.map((w) => encode('webp', w)),
    ...avifWidths.map((w) => encode('avif', w)),
  ]);
  return {
    master: master as Buffer,
    width,
    height,
    placeholder: `data:image/webp;base64,${(placeholder as Buffer).toString('base64')}`,
    variants: [...(variants as ImageVariant[]), ...(crops as ImageVariant[])],
  };
}

/** The picture a shared link shows (Open Graph, X/Twitter cards): their recommended size. */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/**
 * A photo cut to exactly 1200×630 for sharing. `attention` keeps the part of the photo that draws
 * the eye (faces, contrast) when the cut loses the top and bottom of a portrait. JPEG, because
 * every site that draws link previews reads it (not all read WebP); transparency lands on white,
 * not JPEG's black. Made from the stored master on request: a page names it only when she
 * chooses the photo for sharing, and the bytes under its URL never change.
 */
export async function openGraphImage(master: Uint8Array): Promise<Buffer> {
  return sharp(master, { limitInputPixels: MAX_INPUT_PIXELS })
    .autoOrient()
    .resize(OG_WIDTH, OG_HEIGHT, { fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}
