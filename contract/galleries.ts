/**
 * The slideshows of /yoga and /chocolates: photos the teacher uploads, orders and describes
 * (admin page "Galleries"), read by the pages at run time from GET /api/galleries/{gallery}.
 */
import { z } from 'zod';
import { id, requiredText } from './common.ts';
import type { PictureView } from './images.ts';

export const GALLERIES = ['yoga', 'chocolates'] as const;
export type Gallery = (typeof GALLERIES)[number];
export const GALLERY_TITLES: Record<Gallery, string> = { yoga: 'Yoga slideshow', chocolates: 'Chocolates slideshow' };

/** At most this many photos per slideshow: every one is a request once a visitor scrolls through. */
export const GALLERY_MAX_PHOTOS = 40;

export const galleryParams = z.object({ gallery: z.enum(GALLERIES, { error: 'Unknown gallery' }) });
export const galleryPhotoParams = galleryParams.extend({ id });

/** Alt text: what a person who cannot see the photo needs to know. Required. */
export const altText = requiredText('Alt text', 300).refine((s) => !/[\r\n]/.test(s), 'Alt text must be on one line');

/** The text fields sent with a photo upload (multipart, next to `file`). */
export const galleryUpload = z.object({ alt: altText });

/** PUT /api/admin/galleries/{gallery}/photos/{id}. */
export const galleryPhotoEdit = z.object({ alt: altText });

/** PUT /api/admin/galleries/{gallery}/order: every photo of the gallery, in the new order. */
export const galleryOrder = z.object({
  ids: z.array(id, { error: 'ids must be a list of photo ids' }).max(GALLERY_MAX_PHOTOS, 'Too many photos'),
});

/** One photo as the slideshows and the admin page see it. */
export interface GalleryPhotoView {
  _id: string;
  alt: string;
  picture: PictureView;
}

/** GET /api/galleries/{gallery}: the photos in their order (empty: the page keeps its illustrations). */
export interface GalleryView {
  gallery: Gallery;
  photos: GalleryPhotoView[];
}

/** POST /api/admin/galleries/{gallery}/photos on success (201). */
export interface GalleryPhotoSavedView {
  message: string;
  photo: GalleryPhotoView;
}
