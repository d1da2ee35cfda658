/**
 * Her photos for the "Pages" editor's picture fields: every one she uploaded (GET
 * /api/admin/images), named by the alt text the slideshows, the chocolates and the open page give
 * them, and the ones uploaded on the spot
 * through the photo pipeline (POST /api/admin/images). A picture is shown as a thumbnail, never as
 * its address.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { request } from '../../../lib/http';
import { uploadWithProgress } from '../../../lib/upload';
import { GALLERIES, type GalleryView } from '../../../../contract/galleries.ts';
import type { ProductView } from '../../../../contract/chocolates.ts';
import { IMAGE_ID, uploadedImageId } from '../../../../contract/content.ts';
import { IMAGE_URL_PREFIX, imageVariantUrl, photoRefusal, type AdminImageView, type ImageUploadedView, type PictureView } from '../../../../contract/images.ts';

export interface LibraryPhoto {
  /** The upload's id (what `/api/images/{id}` serves). */
  id: string;
  /** What it shows: its alt text where one is known. */
  alt: string;
  picture?: PictureView;
}

export interface PhotoLibrary {
  /** Null until loaded. */
  photos: LibraryPhoto[] | null;
  /** Fetches the lists once (again after `force`). */
  load: (force?: boolean) => Promise<void>;
  /** Adds photos met elsewhere (an upload, the open page's own). */
  add: (photos: LibraryPhoto[]) => void;
  pictureOf: (id: string) => PictureView | undefined;
}

/** The id of an uploaded photo a picture field holds (a bare id or `/api/images/{id}`). */
export function photoIdOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (IMAGE_ID.test(value)) return value.toLowerCase();
  return uploadedImageId(value);
}

/** Every uploaded photo a page's content names, with the alt text beside it. */
export function photosInContent(content: unknown): LibraryPhoto[] {
  const out: LibraryPhoto[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const obj = v as Record<string, unknown>;
    for (const [k, child] of Object.entries(obj)) {
      const id = photoIdOf(child);
      if (id && typeof child === 'string') {
        const alt = obj[k === 'src' ? 'alt' : k === 'imageId' ? 'imageAlt' : k === 'coverImageId' ? 'coverAlt' : `${k}Alt`];
        out.push({ id, alt: typeof alt === 'string' && alt.trim() ? alt.trim() : 'A photo on this page' });
      } else walk(child);
    }
  };
  walk(content);
  return out;
}

function merge(list: LibraryPhoto[], more: LibraryPhoto[]): LibraryPhoto[] {
  const byId = new Map(list.map((p) => [p.id, p]));
  for (const p of more) {
    const had = byId.get(p.id);
    byId.set(p.id, had ? { ...had, picture: had.picture ?? p.picture, alt: had.alt || p.alt } : p);
  }
  return [...byId.values()];
}

export function usePhotoLibrary(): PhotoLibrary {
  const [photos, setPhotos] = useState<LibraryPhoto[] | null>(null);
  // Met before the lists arrive: kept, and merged into them.
  const early = useRef<LibraryPhoto[]>([]);
  const loading = useRef<Promise<void> | null>(null);

  const add = useCallback((more: LibraryPhoto[]) => {
    early.current = merge(early.current, more);
    setPhotos((list) => (list ? merge(list, more) : list));
  }, []);

  const load = useCallback((force = false) => {
    if (loading.current && !force) return loading.current;
    loading.current = (async () => {
      const found: LibraryPhoto[] = [];
      const gets = await Promise.allSettled([
        ...GALLERIES.map((g) => request<GalleryView>('GET', `/api/admin/galleries/${g}`, { session: 'admin' })),
        request<ProductView[]>('GET', '/api/chocolates', { session: 'admin' }),
      ]);
      // Every upload, newest first; the lists above only lend their alt texts (merge keeps the first alt).
      const all = await request<AdminImageView[]>('GET', '/api/admin/images', { session: 'admin' }).catch(() => undefined);
      for (const got of gets) {
        if (got.status !== 'fulfilled' || !got.value.ok) continue;
        const data: unknown = got.value.data;
        if (Array.isArray(data)) {
          for (const p of data as ProductView[]) {
            const id = photoIdOf(p.image);
            if (id) found.push({ id, alt: p.name, ...(p.picture ? { picture: p.picture } : {}) });
          }
        } else {
          for (const p of (data as GalleryView).photos ?? []) {
            const id = photoIdOf(p.picture.src);
            if (id) found.push({ id, alt: p.alt, picture: p.picture });
          }
        }
      }
      const uploads = all?.ok ? all.data.map((p): LibraryPhoto => ({ id: p.id, alt: '', picture: p.picture })) : [];
      setPhotos(merge(merge(early.current, found), uploads).map((p) => (p.alt ? p : { ...p, alt: 'One of your photos' })));
    })();
    return loading.current;
  }, []);

  const pictureOf = useCallback((id: string) => photos?.find((p) => p.id === id)?.picture ?? early.current.find((p) => p.id === id)?.picture, [photos]);

  return useMemo(() => ({ photos, load, add, pictureOf }), [photos, load, add, pictureOf]);
}

/**
 * A small picture of what a picture field holds: an upload (its smallest size that covers the
 * thumbnail), an illustration of the site (`/images/…`), or a word for a photo of the build.
 */
export function Thumb(props: { value: unknown; alt: string; picture?: PictureView | undefined }) {
  const { value, alt, picture } = props;
  const id = photoIdOf(value);
  const [fallback, setFallback] = useState(false);
  if (typeof value !== 'string' || value === '') return <span className="pf-thumb pf-thumb-empty">No picture chosen</span>;
  if (id) {
    if (picture)
      return (
        <img className="pf-thumb" src={picture.src} srcSet={picture.webp} sizes="8rem" width={picture.width} height={picture.height} alt={alt} loading="lazy" />
      );
    // Every upload has a 320-px WebP unless it is narrower than that: then the original is small.
    const src = fallback ? `${IMAGE_URL_PREFIX}${id}` : imageVariantUrl(id, 320, 'webp');
    return <img className="pf-thumb" src={src} alt={alt} loading="lazy" onError={() => setFallback(true)} />;
  }
  if (value.startsWith('/') && !value.startsWith('//')) return <img className="pf-thumb" src={value} alt={alt} loading="lazy" />;
  return <span className="pf-thumb pf-thumb-empty">A photo built into the site</span>;
}

/** Uploads one photo through the pipeline; resolves to the stored photo, or rejects with a message for her. */
export async function uploadPhoto(file: File, alt: string, onProgress: (fraction: number) => void): Promise<LibraryPhoto> {
  const refusal = photoRefusal(file);
  if (refusal) throw new Error(refusal);
  const form = new FormData();
  form.append('file', file);
  let res;
  try {
    res = await uploadWithProgress<ImageUploadedView>('/api/admin/images', form, onProgress, '/api/admin/pages');
  } catch {
    throw new Error('The upload did not reach the server. Please try again.');
  }
  const id = res.ok ? photoIdOf(res.data.url) : undefined;
  if (!id) throw new Error(res.data.message ?? 'The photo could not be uploaded. Please try again.');
  return { id, alt: alt.trim() || 'Uploaded just now', picture: res.data.picture };
}
